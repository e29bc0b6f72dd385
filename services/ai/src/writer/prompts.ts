import type { WriterAction } from '@noted/api';
import type { ChatMessageInput } from '../providers/port.js';

/** Note text given to the model as context, at most (about 4,000 tokens). */
export const CONTEXT_CHARS = 16_000;

const clip = (text: string, chars = CONTEXT_CHARS) =>
  text.length <= chars ? text : `${text.slice(0, chars)}\n[…]`;

const instructions: Record<WriterAction, (language?: string) => string> = {
  continue: () =>
    'Continue the text from where it ends, in the same language, voice and format. ' +
    'Write one to three paragraphs. Answer with the continuation only.',
  rewrite: () =>
    'Rewrite the text so it reads clearly and well, keeping its meaning, language and ' +
    'Markdown structure. Answer with the rewritten text only.',
  shorten: () =>
    'Make the text about half as long, keeping what matters, its language and Markdown. ' +
    'Answer with the shorter text only.',
  expand: () =>
    'Expand the text with more detail and explanation, in the same language and voice. ' +
    'Answer with the expanded text only.',
  fix_grammar: () =>
    'Fix spelling, grammar and punctuation. Change nothing else: not the wording, tone, ' +
    'language or Markdown. Answer with the corrected text only.',
  translate: (language) =>
    `Translate the text into ${language ?? 'English'}, keeping its Markdown. ` +
    'Answer with the translation only.',
};

const SYSTEM =
  'You are the writing assistant of Noted, a note-taking app. You help the user write their ' +
  'own note. Follow the instruction exactly and answer without preamble or commentary.';

export const assistMessages = (input: {
  action: WriterAction;
  language?: string;
  title: string;
  note: string;
  text: string | undefined;
}): ChatMessageInput[] => {
  const target = input.text ?? input.note;
  const context =
    input.text !== undefined && input.note
      ? `The whole note, for context:\n"""\n${clip(input.note)}\n"""\n\n`
      : '';
  return [
    { role: 'system', content: SYSTEM },
    {
      role: 'user',
      content:
        `${input.title ? `Note title: ${input.title}\n\n` : ''}${context}` +
        `Instruction: ${instructions[input.action](input.language)}\n\n` +
        `Text:\n"""\n${clip(target)}\n"""`,
    },
  ];
};

export const askMessages = (input: {
  title: string;
  note: string;
  question: string;
}): ChatMessageInput[] => [
  {
    role: 'system',
    content:
      "You are the assistant of Noted, a note-taking app. Answer the user's question about " +
      'their note, in the language of the question. Use the note; when it does not hold the ' +
      'answer, say so before adding what you know. Be concise; Markdown is fine.',
  },
  {
    role: 'user',
    content:
      `${input.title ? `Note title: ${input.title}\n\n` : ''}` +
      `Note:\n"""\n${clip(input.note)}\n"""\n\nQuestion: ${input.question}`,
  },
];
