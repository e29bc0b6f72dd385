import type { AiStreamEvent, NoteRef } from '@noted/api';
import { useCallback, useEffect, useRef, useState } from 'react';
import { log } from '../log';

export type DoneEvent = Extract<AiStreamEvent, { type: 'done' }>;

/** What a streamed call of the client is handed. */
export interface StreamOptions {
  signal: AbortSignal;
  onEvent: (event: AiStreamEvent) => void;
}

/** An answer as it streams in, and how it ended. */
export interface Answer {
  status: 'streaming' | 'done' | 'stopped' | 'failed';
  text: string;
  citations: NoteRef[];
  /** The `done` event: which method and model wrote it, the stored message's id. */
  done?: DoneEvent;
  error?: unknown;
}

/**
 * One streamed answer at a time: tokens are added as they come, `stop` aborts the request (the
 * client closes the connection, which stops generation upstream), and leaving the page stops it.
 */
export function useAnswerStream() {
  const [answer, setAnswer] = useState<Answer>();
  const running = useRef<AbortController>(undefined);

  useEffect(() => () => running.current?.abort(), []);

  /** Runs `call` and resolves with the answer as it ended; `onChat` gets a new chat's id. */
  const start = useCallback(
    async (
      call: (options: StreamOptions) => Promise<void>,
      onChat?: (chatId: string) => void,
    ): Promise<Answer> => {
      running.current?.abort();
      const controller = new AbortController();
      running.current = controller;
      let current: Answer = { status: 'streaming', text: '', citations: [] };
      const show = (next: Answer) => {
        current = next;
        if (running.current === controller) setAnswer(next);
      };
      show(current);
      try {
        await call({
          signal: controller.signal,
          onEvent: (event) => {
            if (event.type === 'token') show({ ...current, text: current.text + event.text });
            else if (event.type === 'citations') show({ ...current, citations: event.notes });
            else if (event.type === 'done') show({ ...current, done: event });
            else if (event.type === 'chat') onChat?.(event.chatId);
          },
        });
        show({ ...current, status: 'done' });
      } catch (error) {
        if (controller.signal.aborted) {
          show({ ...current, status: 'stopped' });
        } else {
          log.warn('An AI answer failed.', error);
          show({ ...current, status: 'failed', error });
        }
      }
      if (running.current === controller) running.current = undefined;
      return current;
    },
    [],
  );

  const stop = useCallback(() => running.current?.abort(), []);

  /** Forgets the answer shown, stopping it first if it is still coming. */
  const clear = useCallback(() => {
    const controller = running.current;
    running.current = undefined;
    controller?.abort();
    setAnswer(undefined);
  }, []);

  return { answer, start, stop, clear };
}
