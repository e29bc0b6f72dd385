import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import qs from 'qs';

/** Form parameters as the SDK sends them (bracket notation), parsed by qs: strings all the way down. */
export type Params = Record<string, unknown>;

/** An answer in Stripe's error shape; the SDK turns a 400/404 into StripeInvalidRequestError. */
export class StripeApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly details: { code?: string; param?: string; type?: string } = {},
  ) {
    super(message);
  }
}

export const invalid = (message: string, param?: string) =>
  new StripeApiError(400, message, param === undefined ? {} : { param });

/** An id in a path that names nothing: 404. An id in a parameter: 400, as Stripe answers both. */
export const noSuch = (kind: string, id: string, param?: string) =>
  new StripeApiError(param === undefined ? 404 : 400, `No such ${kind}: '${id}'`, {
    code: 'resource_missing',
    param: param ?? 'id',
  });

const alphabet = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** Stripe-looking ids: a prefix and random base62 characters. */
export const newId = (prefix: string, length = 24): string =>
  `${prefix}_${[...randomBytes(length)].map((byte) => alphabet[byte % 62]).join('')}`;

export const parseParams = (text: string): Params =>
  qs.parse(text, { depth: 5, arrayLimit: 100, parameterLimit: 1000 }) as Params;

/** Refuses parameters Stripe would not know here, with Stripe's message, as it refuses typos. */
export const allowOnly = (params: Params, allowed: readonly string[], prefix = '') => {
  for (const key of Object.keys(params)) {
    if (!allowed.includes(key)) {
      const name = prefix ? `${prefix}[${key}]` : key;
      throw invalid(`Received unknown parameter: ${name}`, name);
    }
  }
};

export const str = (params: Params, key: string, name = key): string | undefined => {
  const value = params[key];
  if (value === undefined) return undefined;
  if (typeof value !== 'string') throw invalid(`Invalid string: ${name}`, name);
  return value;
};

export const bool = (params: Params, key: string, name = key): boolean | undefined => {
  const value = str(params, key, name);
  if (value === undefined) return undefined;
  if (value !== 'true' && value !== 'false') throw invalid(`Invalid boolean: ${value}`, name);
  return value === 'true';
};

export const int = (params: Params, key: string, name = key): number | undefined => {
  const value = str(params, key, name);
  if (value === undefined) return undefined;
  if (!/^-?\d+$/.test(value)) throw invalid(`Invalid integer: ${value}`, name);
  return Number(value);
};

export const oneOf = <T extends string>(
  params: Params,
  key: string,
  values: readonly T[],
): T | undefined => {
  const value = str(params, key);
  if (value !== undefined && !values.includes(value as T)) {
    throw invalid(`Invalid ${key}: must be one of ${values.join(', ')}`, key);
  }
  return value as T | undefined;
};

export const obj = (params: Params, key: string, name = key): Params | undefined => {
  const value = params[key];
  if (value === undefined) return undefined;
  if (typeof value !== 'object' || value === null) throw invalid(`Invalid hash: ${name}`, name);
  return value as Params;
};

/** `metadata[k]=v` sets, `metadata[k]=` unsets one key, `metadata=` unsets all (Stripe's rules). */
export const applyMetadata = (
  current: Record<string, string>,
  params: Params,
  key = 'metadata',
): Record<string, string> => {
  const value = params[key];
  if (value === undefined) return current;
  if (value === '') return {};
  const changes = obj(params, key) ?? {};
  const next = { ...current };
  for (const [name, entry] of Object.entries(changes)) {
    if (typeof entry !== 'string') throw invalid(`Invalid string: ${key}[${name}]`, key);
    if (entry === '') delete next[name];
    else next[name] = entry;
  }
  return next;
};

export const expandList = (params: Params): string[] => {
  const value = params.expand;
  if (value === undefined) return [];
  const list = Array.isArray(value)
    ? value
    : typeof value === 'object'
      ? Object.values(value!)
      : [];
  if (!list.every((entry): entry is string => typeof entry === 'string')) {
    throw invalid('Invalid array: expand', 'expand');
  }
  return list;
};

/** The key from `Authorization: Bearer sk_test_...` (or Basic with the key as user name). */
export const secretKey = (req: IncomingMessage): string | undefined => {
  const header = req.headers.authorization ?? '';
  if (header.startsWith('Bearer ')) return header.slice(7).trim();
  if (header.startsWith('Basic ')) {
    return Buffer.from(header.slice(6), 'base64').toString('utf8').split(':')[0];
  }
  return undefined;
};

export const readBody = async (req: IncomingMessage): Promise<string> => {
  const parts: Buffer[] = [];
  for await (const part of req) parts.push(part as Buffer);
  return Buffer.concat(parts).toString('utf8');
};

export const send = (
  res: ServerResponse,
  status: number,
  body: string,
  headers: Record<string, string>,
) => {
  res.writeHead(status, { 'content-length': Buffer.byteLength(body), ...headers });
  res.end(body);
};

export const errorBody = (error: StripeApiError) =>
  JSON.stringify({
    error: {
      type: error.details.type ?? 'invalid_request_error',
      message: error.message,
      ...(error.details.code ? { code: error.details.code } : {}),
      ...(error.details.param ? { param: error.details.param } : {}),
    },
  });
