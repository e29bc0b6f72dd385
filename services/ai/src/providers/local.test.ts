import { AppError } from '@noted/api';
import { describe, expect, it } from 'vitest';
import { HASHED_DIMENSIONS, HASHED_EMBEDDING_MODEL, dot } from '../local/embeddings.js';
import { createLocalProvider } from './local.js';
import { chatText } from './port.js';

const ctx = { userId: 'user-1', purpose: 'test' };
const HASHED = { kind: 'hashed' } as const;

describe('local provider', () => {
  it('offers hashed embeddings and no chat, transcription, vision or retrieval model', async () => {
    const provider = createLocalProvider(HASHED);
    expect(provider.name).toBe('local');
    expect(provider.models).toEqual({
      chat: null,
      embeddings: HASHED_EMBEDDING_MODEL,
      retrieval: null,
      transcription: null,
      vision: null,
    });
    await expect(provider.embedForRetrieval(['x'], 'query', ctx)).rejects.toMatchObject({
      code: 'AI_MODEL_REQUIRED',
    });
  });

  it('embeds texts in order as unit vectors without usage', async () => {
    const provider = createLocalProvider(HASHED);
    const result = await provider.embed(['budget meeting', 'pasta recipe', ''], ctx);
    expect(result.model).toBe(HASHED_EMBEDDING_MODEL);
    expect(result.usage).toBeUndefined();
    expect(result.vectors).toHaveLength(3);
    const [budget, recipe, empty] = result.vectors;
    expect(budget).toHaveLength(HASHED_DIMENSIONS);
    expect(dot(budget!, budget!)).toBeCloseTo(1, 5);
    expect(dot(recipe!, recipe!)).toBeCloseTo(1, 5);
    expect(dot(empty!, empty!)).toBe(0);
    const again = await provider.embed(['budget meeting'], ctx);
    expect(Array.from(again.vectors[0]!)).toEqual(Array.from(budget!));
  });

  it('refuses to chat with AI_MODEL_REQUIRED naming the settings to set', async () => {
    const chunks = createLocalProvider(HASHED).chat([{ role: 'user', content: 'hi' }], {}, ctx);
    const answer = chatText(chunks);
    await expect(answer).rejects.toBeInstanceOf(AppError);
    await expect(answer).rejects.toMatchObject({
      code: 'AI_MODEL_REQUIRED',
      message: expect.stringContaining('OPENAI_CHAT_MODEL'),
    });
  });

  it('refuses to transcribe with AI_MODEL_REQUIRED naming the settings to set', async () => {
    const audio = { data: new Uint8Array([1, 2, 3]), fileName: 'a.webm', mimeType: 'audio/webm' };
    await expect(createLocalProvider(HASHED).transcribe(audio, ctx)).rejects.toMatchObject({
      code: 'AI_MODEL_REQUIRED',
      message: expect.stringContaining('OPENAI_TRANSCRIPTION_MODEL'),
    });
  });

  it('closes', async () => {
    await expect(createLocalProvider(HASHED).close()).resolves.toBeUndefined();
  });
});
