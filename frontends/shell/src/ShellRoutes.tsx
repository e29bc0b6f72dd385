import { Route, Routes, useParams } from 'react-router';
import { App, type AppProps } from './App';
import type { SharedNoteModule } from './remotes/contracts';
import { sharedNotePath } from './routes';
import { SharedPage, type SharedPageProps } from './SharedPage';

export interface ShellRoutesProps extends AppProps {
  loadSharedNote: () => Promise<SharedNoteModule>;
}

function SharedRoute({ api, loadSharedNote }: Omit<SharedPageProps, 'publicId'>) {
  const { id = '' } = useParams();
  return <SharedPage api={api} publicId={id} loadSharedNote={loadSharedNote} />;
}

/** The shell's route table; the notes remote routes among its own pages below `*`. */
export function ShellRoutes({ loadSharedNote, ...app }: ShellRoutesProps) {
  return (
    <Routes>
      <Route
        path={sharedNotePath}
        element={<SharedRoute api={app.api} loadSharedNote={loadSharedNote} />}
      />
      <Route path="*" element={<App {...app} />} />
    </Routes>
  );
}
