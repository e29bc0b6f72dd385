import type { AiMethod } from '@noted/api';
import { QuoteIcon, SparklesIcon } from '@noted/ui';
import { useNotesMessages } from '../messages';

/**
 * Says how an answer was made: by which language model, or taken from the notes without one
 * (`passages`: as the passages that match best, ranked, as the chat shows them).
 */
export function AnswerMethod({
  method,
  model,
  passages = false,
}: {
  method: AiMethod;
  model?: string | undefined;
  passages?: boolean;
}) {
  const { t } = useNotesMessages('ai');
  let text: string;
  if (method === 'extractive') text = t(passages ? 'method.passages' : 'method.extractive');
  else if (model) text = t('method.modelNamed', { model });
  else text = t('method.model');
  const Icon = method === 'extractive' ? QuoteIcon : SparklesIcon;
  return (
    <p className="ai-method" data-method={method}>
      <Icon className="ui-icon" aria-hidden="true" />
      {text}
    </p>
  );
}
