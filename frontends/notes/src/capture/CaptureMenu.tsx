import {
  CameraIcon,
  FileAudioIcon,
  FileTextIcon,
  GlobeIcon,
  LinkIcon,
  Menu,
  MicIcon,
  ScanTextIcon,
  type MenuAction,
  type MenuEntry,
} from '@noted/ui';
import { useNotesMessages } from '../messages';
import type { CaptureChoice } from './captureFiles';
import './capture.css';

/**
 * The Capture menu button beside the composer: a note from a photo, a voice recording, an
 * audio file or URL, a web page or a PDF. The menu button pattern of @noted/ui: arrows move,
 * Escape closes, and the focus goes back to the button (and to it again when a dialog closes).
 */
export function CaptureMenu({ onChoose }: { onChoose: (choice: CaptureChoice) => void }) {
  const { t } = useNotesMessages('capture');
  const entry = (choice: CaptureChoice, icon: MenuAction['icon']) => ({
    label: t(`menu.${choice}`),
    icon,
    onSelect: () => onChoose(choice),
  });
  const entries: MenuEntry[] = [
    entry('image', CameraIcon),
    entry('recording', MicIcon),
    entry('audioFile', FileAudioIcon),
    entry('audioUrl', LinkIcon),
    entry('link', GlobeIcon),
    entry('pdf', FileTextIcon),
  ];
  return (
    <Menu
      label={t('menu.button')}
      align="start"
      look={{ size: 'sm', className: 'capture-menu-button' }}
      trigger={
        <>
          <ScanTextIcon className="ui-icon" aria-hidden="true" />
          <span>{t('menu.button')}</span>
        </>
      }
      entries={entries}
    />
  );
}
