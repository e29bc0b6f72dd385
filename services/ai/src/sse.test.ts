import { describe, expect, it } from 'vitest';
import { createStreamLimiter } from './sse.js';

describe('streamed answers per user', () => {
  it('refuses one more than the limit with RATE_LIMITED, and frees a place when one ends', () => {
    const streams = createStreamLimiter(2);
    const first = streams.acquire('ada');
    streams.acquire('ada');
    expect(() => streams.acquire('ada')).toThrow(expect.objectContaining({ code: 'RATE_LIMITED' }));
    // Another user is not held back by Ada's answers.
    expect(() => streams.acquire('bob')).not.toThrow();
    first();
    first();
    expect(() => streams.acquire('ada')).not.toThrow();
    expect(() => streams.acquire('ada')).toThrow(expect.objectContaining({ code: 'RATE_LIMITED' }));
  });
});
