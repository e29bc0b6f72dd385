import { useAiFeature } from '../ai/useAiFeature';
import type { CaptureApi, AudioFate } from './panel';

/** Whether audio captured here is transcribed: the copy promises only what the server does. */
export function useAudioFate(api: Pick<CaptureApi, 'ai'>): AudioFate {
  const mode = useAiFeature(api, 'transcription');
  if (mode === undefined) return 'unknown';
  return mode === 'model' ? 'model' : 'none';
}
