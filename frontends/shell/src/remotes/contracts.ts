import type { ApiClient } from '@noted/api';
import type { ShellServices } from '@noted/ui';
import type { ComponentModule } from './loader';

/** Props of `notes/NotesApp`, the module the notes remote exposes as './NotesApp'. */
export interface NotesAppProps {
  api: ApiClient;
  shell: ShellServices;
}

export type NotesAppModule = ComponentModule<NotesAppProps>;

/** Props of `notes/SharedNote`: the public page of a shared note, for anyone with the link. */
export interface SharedNoteProps {
  api: Pick<ApiClient, 'public'>;
  publicId: string;
  shell: ShellServices;
}

export type SharedNoteModule = ComponentModule<SharedNoteProps>;
