import { get as httpGet, type Agent, type IncomingMessage } from 'node:http';
import { get as httpsGet } from 'node:https';
import { PassThrough, type Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';
import { RequestFilteringHttpAgent, RequestFilteringHttpsAgent } from 'request-filtering-agent';
import { AppError } from '@noted/api';

export interface FetchLimits {
  /** The most bytes of body taken, counted after decompression. */
  maxBytes: number;
  /** For the whole fetch: every redirect, the connections and the last byte of the body. */
  timeoutMs: number;
  maxRedirects: number;
}

export interface Fetched {
  /** The URL finally fetched, after redirects. */
  url: string;
  /** The media type, lower-case, without parameters. */
  contentType: string;
  charset?: string;
  body: Buffer;
  bytes: number;
}

export interface SafeFetchOptions {
  /**
   * Addresses (IPs or CIDRs) fetched although private, for tests and local development. A host
   * name is resolved and its addresses checked, so allowing 127.0.0.1 also allows `localhost`
   * where that resolves to 127.0.0.1.
   */
  allowPrivateAddresses?: string[];
  userAgent?: string;
}

export interface FetchAccept {
  /** Whether the media type served (lower-case, no parameters) is one the caller can use. */
  types: (mime: string) => boolean;
  limits: FetchLimits;
  /** Stops the fetch; it then rejects with the signal's reason. */
  signal?: AbortSignal;
  /** The Accept header sent; any type by default (`types` decides what is taken). */
  header?: string;
}

export type SafeFetch = (url: string, accept: FetchAccept) => Promise<Fetched>;

const DEFAULT_USER_AGENT = 'NotedBot/1.0 (+https://noted.example)';

const refusedForm = () =>
  new AppError('URL_REFUSED', 'Only http and https addresses can be fetched');
const refusedAddress = () =>
  new AppError('URL_REFUSED', 'That address is private and cannot be fetched');
const tooLarge = (limit: number) =>
  new AppError('PAYLOAD_TOO_LARGE', `The address serves more than ${limit} bytes`, { limit });

/**
 * The error request-filtering-agent fails a connection with when the address (given, or
 * resolved at connect time) is private, reserved or denied. It has no code, only this message.
 */
const isAddressRefusal = (error: unknown) =>
  error instanceof Error &&
  !('code' in error) &&
  /^DNS lookup \S+\(family:\S*, host:.*\) is not allowed\b/.test(error.message);

/**
 * The URL as WHATWG parses it (which is also what Node's http client connects to, so the
 * decimal, octal and hex IPv4 forms are already dotted quads here), if it is one to fetch: http
 * or https, no user name or password.
 */
const parseTarget = (url: string | URL): URL => {
  let target: URL;
  try {
    target = new URL(url);
  } catch {
    throw refusedForm();
  }
  if (target.protocol !== 'http:' && target.protocol !== 'https:') throw refusedForm();
  if (target.username !== '' || target.password !== '') throw refusedForm();
  return target;
};

const parseContentType = (header: string | undefined) => {
  const [type = '', ...params] = (header ?? '').split(';');
  const contentType = type.trim().toLowerCase() || 'application/octet-stream';
  const charset = params
    .map((param) => param.trim().match(/^charset\s*=\s*"?([^";\s]+)"?$/i)?.[1])
    .find((value) => value !== undefined)
    ?.toLowerCase();
  return { contentType, charset };
};

/**
 * A decoder for the Content-Encoding, or undefined for one this client cannot read. Bytes are
 * counted after it, so a small compressed body that inflates past the cap is stopped there.
 */
const decoderFor = (encoding: string | undefined): Transform | undefined => {
  const codings = (encoding ?? '')
    .split(',')
    .map((coding) => coding.trim().toLowerCase())
    .filter((coding) => coding !== '' && coding !== 'identity');
  if (codings.length === 0) return new PassThrough();
  if (codings.length > 1) return undefined;
  switch (codings[0]) {
    case 'gzip':
    case 'x-gzip':
      return createGunzip();
    case 'deflate':
      return createInflate();
    case 'br':
      return createBrotliDecompress();
    default:
      return undefined;
  }
};

/** Past the deadline, in words for the note: the site (after redirects), and how long it had. */
const timedOut = (target: URL, timeoutMs: number) => {
  const seconds = Math.max(1, Math.round(timeoutMs / 1000));
  const within = `${seconds} ${seconds === 1 ? 'second' : 'seconds'}`;
  return new AppError(
    'FETCH_TIMEOUT',
    `${target.hostname} did not send everything within ${within}; the site may be slow or down. ` +
      'Try again later',
    { timeoutMs },
  );
};

const isRedirect = (status: number) => [301, 302, 303, 307, 308].includes(status);

/**
 * A fetcher of user-given URLs that cannot be pointed inside the network (SSRF). Every
 * connection goes through request-filtering-agent, which checks the address actually connected
 * to (after DNS resolution, so a name that resolves to a private address, or re-resolves to
 * one, is refused), for the first request and for every redirect, which are followed here one
 * by one. Refusals are AppErrors: URL_REFUSED for the URL or its address, FETCH_FAILED for a
 * failed or unusable answer, PAYLOAD_TOO_LARGE, and FETCH_TIMEOUT once `limits.timeoutMs` has
 * passed since the call, wherever it is then: resolving, connecting, waiting for headers,
 * following a redirect or reading a body that trickles.
 */
export const createSafeFetch = (options: SafeFetchOptions = {}): SafeFetch => {
  const filter = { allowIPAddressList: options.allowPrivateAddresses ?? [] };
  const agents: Record<'http:' | 'https:', Agent> = {
    'http:': new RequestFilteringHttpAgent(filter),
    'https:': new RequestFilteringHttpsAgent(filter),
  };
  const userAgent = options.userAgent ?? DEFAULT_USER_AGENT;

  return async (url, accept) => {
    const { limits } = accept;
    accept.signal?.throwIfAborted();
    let target = parseTarget(url);

    const stop = new AbortController();
    const timer = setTimeout(
      () => stop.abort(timedOut(target, limits.timeoutMs)),
      limits.timeoutMs,
    );
    const onCallerAbort = () => stop.abort(accept.signal?.reason);
    accept.signal?.addEventListener('abort', onCallerAbort, { once: true });

    const open = (to: URL) =>
      new Promise<IncomingMessage>((resolve, reject) => {
        const get = to.protocol === 'https:' ? httpsGet : httpGet;
        const request = get(
          to,
          {
            agent: agents[to.protocol as 'http:' | 'https:'],
            headers: {
              'user-agent': userAgent,
              accept: accept.header ?? '*/*',
              'accept-encoding': 'gzip, deflate, br',
            },
          },
          resolve,
        );
        const onStop = () => {
          request.destroy();
          reject(stop.signal.reason);
        };
        if (stop.signal.aborted) onStop();
        stop.signal.addEventListener('abort', onStop, { once: true });
        request.once('close', () => stop.signal.removeEventListener('abort', onStop));
        // Errors after the answer came are the body's, and are read there.
        request.on('error', (error) => {
          if (stop.signal.aborted) return reject(stop.signal.reason);
          if (isAddressRefusal(error)) return reject(refusedAddress());
          reject(
            new AppError('FETCH_FAILED', 'The address could not be reached', {
              reason: (error as NodeJS.ErrnoException).code ?? error.message,
            }),
          );
        });
      });

    try {
      for (let redirects = 0; ; redirects += 1) {
        const response = await open(target);
        const status = response.statusCode ?? 0;
        const location = response.headers.location;
        if (isRedirect(status) && location) {
          response.destroy();
          if (redirects >= limits.maxRedirects) {
            throw new AppError('FETCH_FAILED', 'The address redirects too many times', {
              maxRedirects: limits.maxRedirects,
            });
          }
          let next: URL;
          try {
            next = new URL(location, target);
          } catch {
            throw refusedForm();
          }
          target = parseTarget(next);
          continue;
        }
        return await readBody(response, target, accept, stop.signal);
      }
    } finally {
      clearTimeout(timer);
      accept.signal?.removeEventListener('abort', onCallerAbort);
    }
  };
};

/** Checks the answer, then reads its body up to the cap, destroying the socket on any refusal. */
const readBody = async (
  response: IncomingMessage,
  target: URL,
  accept: FetchAccept,
  stop: AbortSignal,
): Promise<Fetched> => {
  const { maxBytes } = accept.limits;
  const refuse = (error: AppError) => {
    response.destroy();
    return error;
  };
  const status = response.statusCode ?? 0;
  if (status < 200 || status > 299) {
    throw refuse(new AppError('FETCH_FAILED', `The address answered ${status}`, { status }));
  }
  const { contentType, charset } = parseContentType(response.headers['content-type']);
  if (!accept.types(contentType)) {
    throw refuse(
      new AppError('FETCH_FAILED', `The address serves ${contentType}, not what was expected`, {
        contentType,
      }),
    );
  }
  // The declared length is of the encoded body; a compressed one is counted again decoded.
  const declared = Number(response.headers['content-length']);
  if (Number.isFinite(declared) && declared > maxBytes) throw refuse(tooLarge(maxBytes));
  const decoder = decoderFor(response.headers['content-encoding']);
  if (!decoder) {
    throw refuse(
      new AppError('FETCH_FAILED', 'The address serves an encoding that cannot be read', {
        contentEncoding: response.headers['content-encoding'],
      }),
    );
  }

  const chunks: Buffer[] = [];
  let bytes = 0;
  // Kept aside: the pipeline may reject with what destroying the response caused instead.
  let overCap: AppError | undefined;
  const onStop = () => response.destroy(stop.reason);
  if (stop.aborted) onStop();
  stop.addEventListener('abort', onStop, { once: true });
  try {
    await pipeline(response, decoder, async (decoded: AsyncIterable<Buffer>) => {
      for await (const chunk of decoded) {
        bytes += chunk.length;
        if (bytes > maxBytes) throw (overCap = tooLarge(maxBytes));
        chunks.push(chunk);
      }
    });
  } catch (error) {
    response.destroy();
    if (stop.aborted) throw stop.reason;
    if (overCap) throw overCap;
    throw new AppError('FETCH_FAILED', 'The address could not be read to the end', {
      reason: (error as NodeJS.ErrnoException).code ?? (error as Error).message,
    });
  } finally {
    stop.removeEventListener('abort', onStop);
  }
  return { url: target.href, contentType, charset, body: Buffer.concat(chunks, bytes), bytes };
};
