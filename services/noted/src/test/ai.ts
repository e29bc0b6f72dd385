import type { AiStreamEvent, ApiClient } from '@noted/api';

/** Waits until the AI index holds `count` notes of the user (it follows note events). */
export const indexed = async (client: ApiClient, count: number, timeoutMs = 10_000) => {
  for (let attempt = 0; attempt < timeoutMs / 50; attempt += 1) {
    const settings = await client.ai.settings();
    if (settings.index.notes >= count && settings.index.pending === 0) return settings;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`the AI index did not reach ${count} notes`);
};

/** Every event of a streamed answer, in order. */
export const streamed = async (
  run: (onEvent: (event: AiStreamEvent) => void) => Promise<void>,
): Promise<AiStreamEvent[]> => {
  const events: AiStreamEvent[] = [];
  await run((event) => events.push(event));
  return events;
};

export const textOf = (events: AiStreamEvent[]) =>
  events.flatMap((event) => (event.type === 'token' ? [event.text] : [])).join('');
