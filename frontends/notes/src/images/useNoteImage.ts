import { useEffect, useState } from 'react';
import type { NotesApi } from '../api';
import { log } from '../log';

export type NoteImageState =
  | { status: 'loading' }
  | { status: 'shown'; objectUrl: string }
  | { status: 'failed'; error: unknown };

type Loaded = { key: string; objectUrl: string } | { key: string; error: unknown };

/**
 * A note image read with the bearer token (note images are private) and shown through an
 * object URL, revoked when the image is no longer shown. `attempt` reads it again.
 */
export function useNoteImage(
  api: Pick<NotesApi, 'images'>,
  url: string,
  attempt = 0,
): NoteImageState {
  const key = `${url}#${attempt}`;
  const [loaded, setLoaded] = useState<Loaded>();

  useEffect(() => {
    let active = true;
    let objectUrl: string | undefined;
    api.images.read(url).then(
      (blob) => {
        if (!active) return;
        objectUrl = URL.createObjectURL(blob);
        setLoaded({ key, objectUrl });
      },
      (error: unknown) => {
        if (!active) return;
        log.error('Loading a note image failed.', error);
        setLoaded({ key, error });
      },
    );
    return () => {
      active = false;
      if (objectUrl) URL.revokeObjectURL(objectUrl);
    };
  }, [api, url, key]);

  if (loaded?.key !== key) return { status: 'loading' };
  return 'error' in loaded
    ? { status: 'failed', error: loaded.error }
    : { status: 'shown', objectUrl: loaded.objectUrl };
}
