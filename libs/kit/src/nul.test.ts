import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as z from 'zod';
import {
  AppError,
  routeEntries,
  type Contract,
  type ErrorBody,
  type ServiceName,
} from '@noted/api';
import { createHttpApp, finishHttpApp, listen, type RunningServer } from './http.js';
import { createLogger } from './logger.js';
import { assertNoNul, nulPath } from './nul.js';
import { serveRoutes, type Handler } from './routes.js';

const logger = createLogger({ level: 'silent' });

/** `[[[ … leaf … ]]]`, `depth` arrays deep, as JSON text (the parser builds it without recursing). */
const deepArray = (depth: number, leaf = '0') => `${'['.repeat(depth)}${leaf}${']'.repeat(depth)}`;
const deepObject = (depth: number, leaf = '0') =>
  `${'{"a":'.repeat(depth)}${leaf}${'}'.repeat(depth)}`;

const DEPTH = 20_000;

describe('nulPath', () => {
  it('names where a NUL is, the first in the text, in a string or a key', () => {
    expect(nulPath({ title: 'ok', tags: ['a', 'b', 'c\u0000'] })).toBe('tags.2');
    expect(nulPath('a\u0000b')).toBe('(body)');
    expect(nulPath({ first: [{ 'x\u0000y': 1 }], second: 'z\u0000' })).toBe('first.0.x\\0y');
    expect(nulPath({ first: { deep: ['\u0000'] }, second: '\u0000' })).toBe('first.deep.0');
    expect(nulPath({ title: 'fine', tags: ['\\u0000 as text'], count: 3, none: null })).toBe(
      undefined,
    );
  });

  it('reads a value nested far deeper than the call stack goes', () => {
    expect(nulPath(JSON.parse(deepArray(200_000)))).toBe(undefined);
    expect(nulPath(JSON.parse(deepObject(200_000, '"\\u0000"')))).toBe(
      `${Array(16).fill('a').join('.')}.…`,
    );
  });

  it('ends on a value that refers to itself', () => {
    const looped: Record<string, unknown> = { name: 'loop' };
    looped.self = looped;
    expect(nulPath(looped)).toBe(undefined);
  });

  it('refuses with VALIDATION_FAILED naming the field', () => {
    expect(() => assertNoNul(['\u0000'])).toThrow(AppError);
    expect(() => assertNoNul({ images: JSON.parse(deepArray(DEPTH, '"\\u0000"')) })).toThrow(
      expect.objectContaining({
        code: 'VALIDATION_FAILED',
        message: `images.${Array(15).fill('0').join('.')}.…: contains a NUL character (U+0000), which Noted cannot store`,
      }) as Error,
    );
  });
});

/** A stand-in for every handler: the point is what happens before a handler runs. */
const stub: Handler<Contract> = () => undefined as never;

const SERVICES: ServiceName[] = ['notes', 'ai', 'users', 'billing', 'realtime', 'export'];

const pathOf = (route: Contract) =>
  route.path.replace(/:[A-Za-z]+/g, '6f1c2f9e-0f4e-4a51-9f0e-6f4d7f1b2c3d');

/** The keys a body schema names, so the deep value also lands where the schema reads. */
const keysOf = (schema: z.ZodType): string[] =>
  schema instanceof z.ZodObject ? Object.keys(schema.shape as Record<string, unknown>) : [];

describe('a JSON body nested 20,000 levels deep, on every route of every service', () => {
  let server: RunningServer;

  beforeAll(async () => {
    const app = createHttpApp({ service: 'test', logger, ready: () => true });
    for (const service of SERVICES) {
      const ids = routeEntries.filter(([, route]) => route.service === service).map(([id]) => id);
      const handlers = Object.fromEntries(ids.map((id) => [id, stub]));
      app.use(serveRoutes(service, handlers as Parameters<typeof serveRoutes>[1]));
    }
    finishHttpApp(app, logger);
    server = await listen(app, 0, '127.0.0.1');
  });

  afterAll(async () => {
    await server?.close();
  });

  const withBody = routeEntries.filter(([, route]) => route.body !== undefined);

  it('is answered 400, or reaches the handler, and never 500', async () => {
    expect(withBody.length).toBeGreaterThan(10);
    const deep = deepArray(DEPTH);
    for (const [id, route] of withBody) {
      const fields = [...keysOf(route.body as z.ZodType), 'extra'];
      const bodies = [
        deep,
        deepObject(DEPTH),
        `{${fields.map((key) => `${JSON.stringify(key)}:${deep}`).join(',')}}`,
      ];
      for (const body of bodies) {
        const response = await fetch(`${server.url}${pathOf(route)}`, {
          method: route.method.toUpperCase(),
          headers: { 'content-type': 'application/json' },
          body,
        });
        const text = await response.text();
        expect(response.status, `${id}: ${text.slice(0, 200)}`).toBeLessThan(500);
        if (response.status >= 400) {
          const { error } = JSON.parse(text) as ErrorBody;
          expect(error.code, id).toBe('VALIDATION_FAILED');
          expect(error.message.length, id).toBeLessThan(500);
        }
      }
    }
  });

  it('names a NUL at the bottom of a body a loose contract lets through', async () => {
    // The Stripe webhook keeps what it does not know (it checks the signed bytes itself).
    const loose = withBody.find(([, route]) => {
      const parsed = (route.body as z.ZodType).safeParse({
        id: 'evt_1',
        type: 't',
        object: 'event',
        extra: 1,
      });
      return parsed.success && 'extra' in (parsed.data as object);
    });
    expect(loose, 'a route whose body keeps unknown keys').toBeDefined();
    const [id, route] = loose as [string, Contract];
    const response = await fetch(`${server.url}${pathOf(route)}`, {
      method: route.method.toUpperCase(),
      headers: { 'content-type': 'application/json' },
      body: `{"id":"evt_1","type":"t","object":"event","extra":${deepArray(DEPTH, '"\\u0000"')}}`,
    });
    expect(response.status, id).toBe(400);
    const { error } = (await response.json()) as ErrorBody;
    expect(error).toMatchObject({
      code: 'VALIDATION_FAILED',
      message: `extra.${Array(15).fill('0').join('.')}.…: contains a NUL character (U+0000), which Noted cannot store`,
    });
  });
});
