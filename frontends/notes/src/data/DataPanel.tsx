import type { ApiClient } from '@noted/api';
import { ShellContext, type ShellServices } from '@noted/ui';
import { Suspense, useId } from 'react';
import { I18nextProvider } from 'react-i18next';
import { useNotesMessages } from '../messages';
import { ExportAll } from './ExportAll';
import { ImportNotes } from './ImportNotes';
import { NotionPanel } from './NotionPanel';
import './data.css';

/** The calls the settings' data panel makes; a whole ApiClient fits. */
export type DataApi = Pick<ApiClient, 'export' | 'imports' | 'notion'>;

/** Props of the module exposed as './DataPanel': the user's notes out of and into Noted. */
export interface DataPanelProps {
  api: DataApi;
  shell: ShellServices;
}

function Panel({ api }: { api: DataApi }) {
  const { t } = useNotesMessages('data');
  const id = useId();
  return (
    <section className="data-panel" aria-labelledby={id}>
      <h3 id={id} className="ui-overline">
        {t('panel.title')}
      </h3>
      <ExportAll api={api} />
      <ImportNotes api={api} />
      <NotionPanel api={api} />
      <ExportAll api={api} what="account" />
    </section>
  );
}

/** Settings' "Your data": export everything, import files, the Notion connection, all one's data. */
export function DataPanel({ api, shell }: DataPanelProps) {
  return (
    <I18nextProvider i18n={shell.i18n}>
      <ShellContext.Provider value={shell}>
        <Suspense fallback={null}>
          <Panel api={api} />
        </Suspense>
      </ShellContext.Provider>
    </I18nextProvider>
  );
}

export default DataPanel;
