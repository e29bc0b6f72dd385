import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { AppError } from '@noted/api';
import { createLogger } from '@noted/kit';
import { createSafeFetch } from './fetch.js';
import { outcomeOf } from './reader.js';

const logger = createLogger({ level: 'silent' });

describe('what a failed reading does to the capture', () => {
  it('fails a URL past its deadline at once, with words for the note, rather than trying it again', async () => {
    // A server that takes the request and never answers.
    const server = createServer(() => undefined);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const fetch = createSafeFetch({ allowPrivateAddresses: ['127.0.0.1'] });
      const error = await fetch(`http://127.0.0.1:${port}/article`, {
        types: () => true,
        limits: { maxBytes: 1024, timeoutMs: 300, maxRedirects: 0 },
      }).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(outcomeOf(error, false, logger)).toEqual({
        kind: 'failed',
        error: {
          code: 'FETCH_TIMEOUT',
          message:
            '127.0.0.1 did not send everything within 1 second; the site may be slow or down. ' +
            'Try again later',
        },
      });
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('tries a provider that timed out again, until the last delivery', () => {
    const timeout = new AppError('TIMEOUT', 'The AI provider did not answer within 60 s');
    expect(outcomeOf(timeout, false, logger)).toEqual({ kind: 'retry', error: timeout });
    expect(outcomeOf(timeout, true, logger)).toMatchObject({
      kind: 'failed',
      error: { code: 'TIMEOUT' },
    });
  });
});
