import { Dialog, KeyboardIcon } from '@noted/ui';
import { useNotesMessages } from '../messages';

const shortcuts = [
  { keys: ['/'], label: 'shortcuts.search' },
  { keys: ['N'], label: 'shortcuts.compose' },
  { keys: ['J'], label: 'shortcuts.next' },
  { keys: ['K'], label: 'shortcuts.previous' },
  { keys: ['↵'], label: 'shortcuts.openNote' },
  { keys: ['Ctrl', '↵'], label: 'shortcuts.save' },
  { keys: ['Esc'], label: 'shortcuts.leave' },
  { keys: ['?'], label: 'shortcuts.help' },
] as const;

/** The keys of the list, as a table. */
export function ShortcutsDialog({ onClose }: { onClose: () => void }) {
  const { t } = useNotesMessages('note');
  return (
    <Dialog title={t('shortcuts.title')} icon={KeyboardIcon} tone="accent" onClose={onClose}>
      <dl className="shortcuts">
        {shortcuts.map(({ keys, label }) => (
          <div key={label} className="shortcut">
            <dt>{t(label)}</dt>
            <dd>
              {keys.map((key) => (
                <kbd key={key} className="ui-kbd">
                  {key}
                </kbd>
              ))}
            </dd>
          </div>
        ))}
      </dl>
    </Dialog>
  );
}
