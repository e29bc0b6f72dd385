import type { ApiClient } from '@noted/api';
import { useMemo } from 'react';
import type { SharedNoteModule, SharedNoteProps } from './remotes/contracts';
import { RemoteModule } from './remotes/RemoteModule';
import { Layout } from './Layout';

export interface SharedPageProps {
  api: Pick<ApiClient, 'public'>;
  publicId: string;
  loadSharedNote: () => Promise<SharedNoteModule>;
}

/** /notes/s/:id in the layout without sidebar or account: a shared note is read signed out. */
export function SharedPage({ api, publicId, loadSharedNote }: SharedPageProps) {
  const props = useMemo<SharedNoteProps>(() => ({ api, publicId }), [api, publicId]);
  return (
    <Layout>
      <RemoteModule load={loadSharedNote} props={props} title="shared note" />
    </Layout>
  );
}
