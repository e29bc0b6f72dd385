import type { AiFeature, AiSettings } from '@noted/api';
import { useEffect, useState } from 'react';
import type { NotesApi } from '../api';
import { log } from '../log';

type FeatureMode = AiSettings['features'][AiFeature];

// One read of the settings per client and page: the features change when the server's
// configuration does, which a reload picks up.
const asked = new WeakMap<object, Promise<AiSettings | undefined>>();

const settingsOf = (api: Pick<NotesApi, 'ai'>): Promise<AiSettings | undefined> => {
  let settings = asked.get(api.ai);
  if (!settings) {
    settings = api.ai.settings().catch((error: unknown) => {
      log.warn('Reading what the AI can do here failed.', error);
      asked.delete(api.ai);
      return undefined;
    });
    asked.set(api.ai, settings);
  }
  return settings;
};

/**
 * How a feature works on this server (`GET /ai/settings`): by a model, without one, or not at
 * all; undefined until known (or when it cannot be read), so copy that depends on it stays
 * neutral rather than promising.
 */
export function useAiFeature(
  api: Pick<NotesApi, 'ai'>,
  feature: AiFeature,
): FeatureMode | undefined {
  const [mode, setMode] = useState<FeatureMode>();
  useEffect(() => {
    let current = true;
    void settingsOf(api).then((settings) => {
      if (current) setMode(settings?.features[feature]);
    });
    return () => {
      current = false;
    };
  }, [api, feature]);
  return mode;
}
