import { entitlementNames, type Note } from '@noted/api';
import {
  DownloadIcon,
  FileArchiveIcon,
  FileTextIcon,
  ImageIcon,
  LockIcon,
  Menu,
  ScrollTextIcon,
  errorCode,
  paymentsDisabledIn,
  planLacks,
  useAccountState,
  useShell,
  type IconComponent,
  type MenuEntry,
} from '@noted/ui';
import { useState } from 'react';
import type { NotesApi } from '../api';
import { log } from '../log';
import { useErrorText, useNotesMessages } from '../messages';
import { fileNameOf, saveFile } from '../download';
import './data.css';

/** The ways one note leaves Noted, as the export service offers them. */
export type NoteExportFormat = 'pdf' | 'imageLight' | 'imageDark' | 'markdown' | 'markdownZip';

const fetchers: Record<
  NoteExportFormat,
  { fetch: (api: NotesApi, id: string) => Promise<Response>; extension: string }
> = {
  pdf: { fetch: (api, id) => api.export.pdf(id), extension: 'pdf' },
  imageLight: { fetch: (api, id) => api.export.image(id, 'light'), extension: 'png' },
  imageDark: { fetch: (api, id) => api.export.image(id, 'dark'), extension: 'png' },
  markdown: { fetch: (api, id) => api.export.markdown(id, 'link'), extension: 'md' },
  markdownZip: { fetch: (api, id) => api.export.markdown(id, 'bundle'), extension: 'zip' },
};

/** Formats a plan may leave out (the export_pdf and export_image entitlements). */
const planned: Partial<Record<NoteExportFormat, 'pdf' | 'image'>> = {
  pdf: 'pdf',
  imageLight: 'image',
  imageDark: 'image',
};

const entitlementOf = {
  pdf: entitlementNames.exportPdf,
  image: entitlementNames.exportImage,
} as const;

/**
 * The note page's Export menu: PDF, the card light or dark, Markdown alone or zipped with its
 * images. Each is fetched with the user's token and saved under the server's file name. A
 * format the user's plan leaves out is marked with a lock before it is chosen: with payments,
 * choosing it opens the plan in Settings; on a server without payments (a limit its operator
 * set) it is disabled and says it is not offered here.
 */
export function ExportMenu({
  note,
  api,
  beforeExport,
}: {
  note: Note;
  api: NotesApi;
  /** Runs first: the page saves what was just typed, so the file has it. */
  beforeExport?: () => Promise<void>;
}) {
  const shell = useShell();
  const { t } = useNotesMessages('data');
  const errorText = useErrorText();
  const [busy, setBusy] = useState<NoteExportFormat>();
  const account = useAccountState();
  const paymentsOff = paymentsDisabledIn(account);

  const run = async (format: NoteExportFormat) => {
    setBusy(format);
    try {
      await beforeExport?.();
      const { fetch, extension } = fetchers[format];
      const response = await fetch(api, note.id);
      const file = await response.blob();
      saveFile(file, fileNameOf(response, `${note.title.trim() || 'Untitled'}.${extension}`));
    } catch (failure) {
      log.error('Exporting a note failed.', failure);
      const kind = planned[format];
      // PLAN_REQUIRED names the missing entitlement; a bare 403 on these routes means the same.
      const code = errorCode(failure);
      if (kind && (code === 'PLAN_REQUIRED' || code === 'FORBIDDEN')) {
        if (paymentsOff) {
          // Nothing to buy here: the limit is the server's.
          shell.toast(t(`export.notOnServer.${kind}`), { type: 'warning' });
        } else {
          shell.toast(t(`export.notInPlan.${kind}`), {
            type: 'warning',
            duration: 0,
            action: { label: t('export.seePlan'), run: () => shell.openSettings('plan') },
          });
        }
      } else {
        shell.toast(t('export.failed', { reason: errorText(failure) }));
      }
    } finally {
      setBusy(undefined);
    }
  };

  const entry = (format: NoteExportFormat, icon: IconComponent): MenuEntry => {
    const label = t(`export.formats.${format}`);
    const kind = planned[format];
    const locked = kind !== undefined && planLacks(account, entitlementOf[kind]);
    if (!locked) {
      return { label, icon, disabled: busy !== undefined, onSelect: () => void run(format) };
    }
    return paymentsOff
      ? {
          label,
          icon,
          mark: LockIcon,
          disabled: true,
          hint: t('export.notOffered'),
          accessibleLabel: t('export.lockedOnServer', { format: label }),
          onSelect: () => undefined,
        }
      : {
          label,
          icon,
          mark: LockIcon,
          disabled: busy !== undefined,
          hint: t('export.inPaidPlans'),
          accessibleLabel: t('export.lockedInPlan', { format: label }),
          onSelect: () => shell.openSettings('plan'),
        };
  };

  return (
    <div className="data-export-menu" aria-busy={busy ? true : undefined}>
      <Menu
        label={busy ? t('export.busy') : t('export.menu')}
        look={{ size: 'sm' }}
        trigger={
          <>
            {busy ? (
              <span className="ui-spinner" aria-hidden="true" />
            ) : (
              <DownloadIcon className="ui-icon" aria-hidden="true" />
            )}
            <span className="data-export-label">{busy ? t('export.busy') : t('export.menu')}</span>
          </>
        }
        entries={[
          entry('pdf', ScrollTextIcon),
          entry('imageLight', ImageIcon),
          entry('imageDark', ImageIcon),
          'separator',
          entry('markdown', FileTextIcon),
          entry('markdownZip', FileArchiveIcon),
        ]}
      />
    </div>
  );
}
