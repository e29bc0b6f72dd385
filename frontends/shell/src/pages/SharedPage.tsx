import { useShell } from '@noted/ui';
import { useMemo } from 'react';
import { useParams } from '@noted/router';
import { useShellApp } from '../context';
import { PlainLayout } from '../layout/Layouts';
import type { SharedNoteProps } from '../remotes/contracts';
import { RemoteModule } from '../remotes/RemoteModule';

/** /notes/s/:id in the layout without sidebar: a shared note is read signed out. */
export function SharedPage() {
  const { id = '' } = useParams();
  const { api, loadSharedNote, pwa } = useShellApp();
  const shell = useShell();
  const props = useMemo<SharedNoteProps>(() => ({ api, publicId: id, shell }), [api, id, shell]);
  return (
    <PlainLayout>
      <RemoteModule
        load={loadSharedNote}
        props={props}
        name="sharedNote"
        onError={pwa.recoverFromLoadError}
      />
    </PlainLayout>
  );
}
