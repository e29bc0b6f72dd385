import { useEffect, useRef, useState } from 'react';
import { log } from '../log';

/** Why the microphone cannot be recorded from. */
export type RecorderProblem =
  'denied' | 'noDevice' | 'busy' | 'insecure' | 'unsupported' | 'failed';

export type RecorderState =
  | { phase: 'idle' }
  /** Waiting for the browser (and the user) to allow the microphone. */
  | { phase: 'starting' }
  | { phase: 'recording' | 'paused'; elapsedMs: number }
  /** Stopped: `blob` is the recording; `reachedLimit` when the plan's limit stopped it. */
  | { phase: 'done'; blob: Blob; elapsedMs: number; reachedLimit: boolean }
  | { phase: 'problem'; problem: RecorderProblem };

/** What browsers record, best first: Opus in WebM (Chrome, Firefox), then what else there is. */
const preferredTypes = [
  'audio/webm;codecs=opus',
  'audio/webm',
  'audio/ogg;codecs=opus',
  'audio/mp4;codecs=mp4a.40.2',
  'audio/mp4',
];

/** The first preferred type this browser records, or undefined to let it choose. */
export const pickRecordingType = (): string | undefined => {
  if (typeof MediaRecorder === 'undefined' || typeof MediaRecorder.isTypeSupported !== 'function') {
    return undefined;
  }
  return preferredTypes.find((type) => MediaRecorder.isTypeSupported(type));
};

const problemOf = (error: unknown): RecorderProblem => {
  const name =
    typeof error === 'object' && error !== null && 'name' in error ? String(error.name) : '';
  switch (name) {
    case 'NotAllowedError':
    case 'PermissionDeniedError':
    case 'SecurityError':
      return 'denied';
    case 'NotFoundError':
    case 'DevicesNotFoundError':
    case 'OverconstrainedError':
      return 'noDevice';
    case 'NotReadableError':
    case 'TrackStartError':
    case 'AbortError':
      return 'busy';
    default:
      return 'failed';
  }
};

/** How often the clock on screen (and the check against the limit) moves. */
const TICK_MS = 250;

interface Session {
  stream: MediaStream;
  recorder: MediaRecorder;
  /** Time recorded before the current stretch (pauses left out). */
  recordedMs: number;
  /** When the current stretch began; undefined while paused. */
  stretchStart: number | undefined;
  timer: ReturnType<typeof setInterval>;
  /** Settles with the recording once the recorder has stopped and handed over its data. */
  stopped: Promise<Blob>;
  finishing?: Promise<Blob>;
  /** Thrown away: what the recorder still hands over is not shown. */
  discarded?: boolean;
}

const release = (stream: MediaStream) => {
  for (const track of stream.getTracks()) track.stop();
};

/**
 * A voice recording from the microphone with MediaRecorder: start (asking for the
 * microphone), pause and resume, stop (handing over the recording), or cancel (discarded).
 * With `limitSeconds` above zero it stops by itself at that length. The microphone is
 * released whenever the recording ends, and when the component goes away.
 */
export function useRecorder({ limitSeconds }: { limitSeconds: number }) {
  const [state, setState] = useState<RecorderState>({ phase: 'idle' });
  const session = useRef<Session | undefined>(undefined);
  /** The browser is being asked for the microphone. */
  const asking = useRef(false);
  const mounted = useRef(true);
  const limitMs = limitSeconds > 0 ? limitSeconds * 1000 : Infinity;
  const limitRef = useRef(limitMs);
  useEffect(() => {
    limitRef.current = limitMs;
  }, [limitMs]);

  const show = (next: RecorderState) => {
    if (mounted.current) setState(next);
  };

  const elapsedOf = (current: Session) =>
    Math.min(
      current.recordedMs +
        (current.stretchStart === undefined ? 0 : Date.now() - current.stretchStart),
      limitRef.current,
    );

  const end = (current: Session) => {
    clearInterval(current.timer);
    if (current.recorder.state !== 'inactive') current.recorder.stop();
    release(current.stream);
  };

  const finish = (reachedLimit = false): Promise<Blob> | undefined => {
    const current = session.current;
    if (!current) return undefined;
    if (current.finishing) return current.finishing;
    const elapsedMs = elapsedOf(current);
    current.recordedMs = elapsedMs;
    current.stretchStart = undefined;
    end(current);
    current.finishing = current.stopped.then((blob) => {
      if (session.current === current) session.current = undefined;
      if (!current.discarded) show({ phase: 'done', blob, elapsedMs, reachedLimit });
      return blob;
    });
    return current.finishing;
  };

  const start = async () => {
    if (session.current || asking.current) return;
    const media = typeof navigator === 'undefined' ? undefined : navigator.mediaDevices;
    if (!media || typeof media.getUserMedia !== 'function') {
      // Browsers hide the microphone from pages not served over https.
      show({
        phase: 'problem',
        problem: globalThis.isSecureContext === false ? 'insecure' : 'unsupported',
      });
      return;
    }
    if (typeof MediaRecorder === 'undefined') {
      show({ phase: 'problem', problem: 'unsupported' });
      return;
    }
    show({ phase: 'starting' });
    asking.current = true;
    let stream: MediaStream;
    try {
      stream = await media.getUserMedia({ audio: true });
    } catch (error) {
      log.warn('The microphone could not be had.', error);
      show({ phase: 'problem', problem: problemOf(error) });
      return;
    } finally {
      asking.current = false;
    }
    if (!mounted.current) {
      release(stream);
      return;
    }
    const mimeType = pickRecordingType();
    let recorder: MediaRecorder;
    try {
      recorder = new MediaRecorder(stream, mimeType ? { mimeType } : undefined);
    } catch (error) {
      log.warn('The recorder could not be made.', error);
      release(stream);
      show({ phase: 'problem', problem: 'unsupported' });
      return;
    }
    const chunks: Blob[] = [];
    recorder.addEventListener('dataavailable', (event: BlobEvent) => {
      if (event.data && event.data.size > 0) chunks.push(event.data);
    });
    const stopped = new Promise<Blob>((resolve) => {
      recorder.addEventListener(
        'stop',
        () => resolve(new Blob(chunks, { type: recorder.mimeType || mimeType || 'audio/webm' })),
        { once: true },
      );
    });
    const current: Session = {
      stream,
      recorder,
      recordedMs: 0,
      stretchStart: Date.now(),
      stopped,
      timer: setInterval(() => {
        if (session.current !== current || current.stretchStart === undefined) return;
        const elapsedMs = elapsedOf(current);
        if (elapsedMs >= limitRef.current) void finish(true);
        else show({ phase: 'recording', elapsedMs });
      }, TICK_MS),
    };
    recorder.addEventListener('error', (event) => {
      log.error('Recording failed.', event);
      if (session.current !== current) return;
      session.current = undefined;
      end(current);
      show({ phase: 'problem', problem: 'failed' });
    });
    session.current = current;
    // Data every second, so a recording stopped by a crash of the tab is not all lost.
    recorder.start(1000);
    show({ phase: 'recording', elapsedMs: 0 });
  };

  const pause = () => {
    const current = session.current;
    if (!current || current.stretchStart === undefined || current.finishing) return;
    current.recorder.pause();
    current.recordedMs = elapsedOf(current);
    current.stretchStart = undefined;
    show({ phase: 'paused', elapsedMs: current.recordedMs });
  };

  const resume = () => {
    const current = session.current;
    if (!current || current.stretchStart !== undefined || current.finishing) return;
    current.recorder.resume();
    current.stretchStart = Date.now();
    show({ phase: 'recording', elapsedMs: current.recordedMs });
  };

  /** Stops and hands over the recording (undefined when nothing is being recorded). */
  const stop = () => finish(false);

  /** Throws the recording away (the one in progress or the one stopped). */
  const discard = () => {
    const current = session.current;
    session.current = undefined;
    if (current) {
      current.discarded = true;
      end(current);
    }
    show({ phase: 'idle' });
  };

  useEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
      const current = session.current;
      session.current = undefined;
      if (current) end(current);
    };
  }, []);

  return { state, start, pause, resume, stop, discard };
}

export type Recorder = ReturnType<typeof useRecorder>;

/** A recording is there that leaving would lose: being made, paused, or made and not saved. */
export const holdsRecording = ({ phase }: RecorderState) =>
  phase === 'recording' || phase === 'paused' || phase === 'done';
