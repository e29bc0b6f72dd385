import type { ApiClient } from '@noted/api';
import { useMemo } from 'react';
import type { SharedNoteModule, SharedNoteProps } from './remotes/contracts';
import { RemoteModule } from './remotes/RemoteModule';
import { Layout } from './Layout';

/** Where a shared note lives: /notes/s/{publicId}. */
export const sharedNoteId = (pathname: string): string | undefined =>
  /^\/notes\/s\/([A-Za-z0-9_-]{1,64})\/?$/.exec(pathname)?.[1];

export interface SharedPageProps {
  api: Pick<ApiClient, 'public'>;
  publicId: string;
  loadSharedNote: () => Promise<SharedNoteModule>;
}

/** The layout without sidebar or account: a shared note is read without signing in. */
export function SharedPage({ api, publicId, loadSharedNote }: SharedPageProps) {
  const props = useMemo<SharedNoteProps>(() => ({ api, publicId }), [api, publicId]);
  return (
    <Layout>
      <RemoteModule load={loadSharedNote} props={props} title="shared note" />
    </Layout>
  );
}
