import type { Note } from '@noted/api';
import { errorCode } from '@noted/ui';
import { useEffect, useRef } from 'react';
import type { NotesApi } from '../api';
import { log } from '../log';

/** How often a note being read is asked for: every 2 s, every 5 s after the first minute. */
export const POLL_FIRST_MS = 2_000;
export const POLL_LATER_MS = 5_000;
export const POLL_SLOWER_AFTER_MS = 60_000;

/** What of a note the page shows of its capture: a change in any of it is shown. */
const shownOf = (note: Note) => JSON.stringify([note.updatedAt, note.capture]);

/**
 * While `note` is being read (`capture.status` processing), asks for it again every 2 s (5 s
 * after a minute) and hands each changed version to `onUpdate`, until it is ready, failed or
 * waiting, the component goes away, or the note is gone.
 */
export function useCapturePolling(
  api: Pick<NotesApi, 'notes'>,
  note: Note,
  onUpdate: (note: Note) => void,
) {
  const processing = note.capture?.status === 'processing';
  const latest = useRef({ api, note, onUpdate });
  useEffect(() => {
    latest.current = { api, note, onUpdate };
  });

  const { id } = note;
  useEffect(() => {
    if (!processing) return;
    let active = true;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const began = Date.now();
    const schedule = () => {
      const delay = Date.now() - began >= POLL_SLOWER_AFTER_MS ? POLL_LATER_MS : POLL_FIRST_MS;
      timer = setTimeout(() => void poll(), delay);
    };
    const poll = async () => {
      try {
        const next = await latest.current.api.notes.get(id);
        if (!active) return;
        if (shownOf(next) !== shownOf(latest.current.note)) latest.current.onUpdate(next);
        if (next.capture?.status === 'processing') schedule();
      } catch (error) {
        if (!active) return;
        if (errorCode(error) === 'NOT_FOUND') return;
        log.warn('Asking how far the capture is failed; asking again.', error);
        schedule();
      }
    };
    schedule();
    return () => {
      active = false;
      clearTimeout(timer);
    };
  }, [id, processing]);
}
