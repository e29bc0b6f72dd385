import type { ApiClient } from '@noted/api';
import type { ComponentModule } from './loader';

/** Props of `notes/NotesApp`, the module the notes remote exposes as './NotesApp'. */
export interface NotesAppProps {
  api: ApiClient;
}

export type NotesAppModule = ComponentModule<NotesAppProps>;
