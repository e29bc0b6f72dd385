import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Router } from 'express';
import knex from 'knex';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  bySpecificity,
  createApiClient,
  documentedPath,
  routeEntries,
  type ApiClient,
} from '@noted/api';
import { openApiDocument } from '@noted/api/openapi';
import { createUnitOfWork } from '@noted/db';
import { routingTable } from '@noted/gateway';
import { createLogger } from '@noted/kit';
import { aiRouter, type AiContext } from '@noted/ai';
import { billingRouter, type BillingContext } from '@noted/billing';
import { exportRouter } from '@noted/export';
import { notesRouter } from '@noted/notes';
import { createLiveTokens, realtimeRouter } from '@noted/realtime';
import { openObjectStore, type ObjectStore } from '@noted/storage';
import { usersRouter } from '@noted/users';

interface Layer {
  rawPath?: string;
  route?: { path: string | string[]; methods: Record<string, boolean> };
  handle: { stack?: Layer[] };
}

/** `METHOD /path/{param}` for every route of a router and the routers it mounts. */
const routesOf = (router: Router, prefix = ''): string[] =>
  ((router as unknown as { stack: Layer[] }).stack ?? []).flatMap((layer) => {
    if (layer.route) {
      const paths = Array.isArray(layer.route.path) ? layer.route.path : [layer.route.path];
      const methods = Object.keys(layer.route.methods).filter((method) => method !== '_all');
      return methods.flatMap((method) =>
        paths.map(
          (route) => `${method.toUpperCase()} ${prefix}${route.replace(/:(\w+)/g, '{$1}')}`,
        ),
      );
    }
    const mountedAt = layer.rawPath && layer.rawPath !== '/' ? layer.rawPath : '';
    return layer.handle.stack
      ? routesOf(layer.handle as unknown as Router, prefix + mountedAt)
      : [];
  });

const declared = routeEntries.map(
  ([, route]) => `${route.method.toUpperCase()} ${documentedPath(route.path)}`,
);

const id = '00000000-0000-4000-8000-000000000000';
const events = { onEvent: () => {} };
/** One call of every method of the client (a method added without a call here fails). */
const everyCall = (
  client: ApiClient,
  visit: (url: string) => void,
): Record<string, () => Promise<unknown>> => ({
  me: () => client.me(),
  'notes.list': () => client.notes.list(),
  'notes.get': () => client.notes.get(id),
  'notes.create': () => client.notes.create({ title: 't' }),
  'notes.update': () => client.notes.update(id, { title: 't' }),
  'notes.remove': () => client.notes.remove(id),
  'notes.pinned': () => client.notes.pinned(),
  'notes.pin': () => client.notes.pin(id),
  'notes.unpin': () => client.notes.unpin(id),
  'notes.share': () => client.notes.share(id),
  'notes.unshare': () => client.notes.unshare(id),
  'notes.batch': () => client.notes.batch([id]),
  'notes.changedBetween': () => client.notes.changedBetween('2026-01-01', '2026-02-01'),
  'links.get': () => client.links.get(id),
  'links.add': () => client.links.add(id, id),
  'links.remove': () => client.links.remove(id, id),
  'links.graph': () => client.links.graph(),
  'images.read': () => client.images.read(`/api/notes/${id}/images/a.webp`),
  'images.upload': () => client.images.upload(id, new Blob(['x'])),
  'images.remove': () => client.images.remove(id, 'u'),
  'capture.image': () => client.capture.image(new Blob(['x'])),
  'capture.audio': () =>
    Promise.all([
      client.capture.audio(new Blob(['x']), 'a.webm', 'recording'),
      client.capture.audio(new Blob(['x']), 'a.mp3', 'upload'),
    ]),
  'capture.audioUrl': () => client.capture.audioUrl('https://example.com/a.mp3'),
  'capture.link': () => client.capture.link('https://example.com/'),
  'capture.pdf': () => client.capture.pdf(new Blob(['x'])),
  'capture.retry': () => client.capture.retry(id),
  'capture.dismissTags': () => client.capture.dismissTags(id),
  // The address, the file sent to it (this server's upload route), then the note.
  'capture.upload': () => client.capture.upload('pdf', new Blob(['%PDF-']), 'a.pdf'),
  'capture.file': () => client.capture.file(`/api/notes/${id}/files/a.pdf`),
  'todos.recent': () => client.todos.recent(),
  'todos.set': () => client.todos.set(id, 0, true),
  'review.due': () => client.review.due(),
  'review.dueOf': () => client.review.dueOf(id),
  'review.mark': () => client.review.mark({ noteId: id, outcome: 'forgot' }),
  'tags.list': () => client.tags.list(),
  'tags.rename': () => client.tags.rename('a', 'b'),
  'tags.remove': () => client.tags.remove('a'),
  'ai.settings': () => client.ai.settings(),
  'ai.updateSettings': () => client.ai.updateSettings({ excludedTags: [] }),
  'ai.assist': () => client.ai.assist({ action: 'fix_grammar', text: 't' }, events),
  'ai.askAi': () => client.ai.askAi({ question: 'q', text: 't' }, events),
  'ai.summarizeNote': () => client.ai.summarizeNote(id),
  'ai.summarizePeriod': () => client.ai.summarizePeriod('day'),
  'ai.search': () => client.ai.search({ query: 'q' }),
  'ai.related': () => client.ai.related({ noteId: id }),
  'knowledge.answer': () => client.knowledge.answer({ question: 'q' }, events),
  'knowledge.chats': () => client.knowledge.chats(),
  'knowledge.chat': () => client.knowledge.chat(id),
  'knowledge.removeChat': () => client.knowledge.removeChat(id),
  'knowledge.generate': () => client.knowledge.generate({ chatId: id, messageId: id }),
  'generate.byContent': () => client.generate.byContent({ content: 'c' }),
  'generate.byTranscription': () => client.generate.byTranscription({ transcription: 't' }),
  'generate.analyzeImages': () => client.generate.analyzeImages({ imageUrls: ['u'] }),
  'public.note': () => client.public.note('p'.repeat(22)),
  'public.imageUrl': async () => visit(client.public.imageUrl('p'.repeat(22), 'a.webp')),
  'users.bySub': () => client.users.bySub('s'),
  'users.bySubAtOldPath': () => client.users.bySubAtOldPath('s'),
  'users.check': () => client.users.check(),
  'users.create': () => client.users.create({ sub: 's' }),
  'users.usage': () => client.users.usage(),
  'users.delete': () => client.users.delete({ confirm: 'a@example.com' }),
  'billing.plans': () => client.billing.plans(),
  'billing.status': () => client.billing.status(),
  'billing.verify': () => client.billing.verify('cs_test_1'),
  'billing.checkout': () => client.billing.checkout({ plan: 'standard' }),
  'billing.change': () => client.billing.change({ plan: 'premium' }),
  'billing.cancel': () => client.billing.cancel(),
  'billing.portal': () => client.billing.portal(),
  'live.token': () => client.live.token(),
  'export.pdf': () => client.export.pdf(id),
  'export.image': () => client.export.image(id, 'dark'),
  'export.markdown': () => client.export.markdown(id, 'bundle'),
  'export.all': () => client.export.all(),
  'export.accountData': () => client.export.accountData(),
  'notion.get': () => client.notion.get(),
  'notion.connect': () => client.notion.connect({ token: 'ntn_x' }),
  'notion.disconnect': () => client.notion.disconnect(),
  'notion.sync': () => client.notion.sync(),
  'imports.file': () => client.imports.file(new Blob(['# A note']), { fileName: 'a.md' }),
  'feedback.send': () => client.feedback.send({ kind: 'idea', message: 'm' }),
  'feedback.mine': () => client.feedback.mine({ limit: 5 }),
  'feedback.mineScreenshot': () => client.feedback.mineScreenshot(id),
  'admin.feedback': () => client.admin.feedback({ kind: 'problem' }),
  'admin.feedbackScreenshot': () => client.admin.feedbackScreenshot(id),
});

/** The names of every method of the client but the generic `request`. */
const methodsOf = (value: object, prefix = ''): string[] =>
  Object.entries(value).flatMap(([key, member]) =>
    typeof member === 'function'
      ? key === 'request'
        ? []
        : [`${prefix}${key}`]
      : methodsOf(member as object, `${prefix}${key}.`),
  );

describe("the gateway's OpenAPI document", () => {
  const document = openApiDocument('http://localhost:8080');
  const documented = Object.entries(document.paths ?? {}).flatMap(([route, item]) =>
    ['get', 'put', 'post', 'delete', 'patch']
      .filter((method) => method in (item ?? {}))
      .map((method) => `${method.toUpperCase()} ${route}`),
  );
  const db = knex({ client: 'pg' });
  let objects: ObjectStore;
  let served: Record<'users' | 'notes' | 'ai' | 'billing' | 'realtime' | 'export', string[]>;

  beforeAll(async () => {
    objects = await openObjectStore({ root: mkdtempSync(path.join(tmpdir(), 'noted-openapi-')) });
    served = {
      users: routesOf(
        usersRouter({
          knex: db,
          unitOfWork: createUnitOfWork(db, () => {}),
          freePlan: { notesPerMonth: 10, recordingTimeLimit: 60 },
          fallbackEmailDomain: 'example.com',
          feedbackLimits: { perUserPerHour: 10, perIpPerHour: 20 },
          internalSecret: 'x'.repeat(32),
        }),
      ),
      notes: routesOf(
        notesRouter({
          knex: db,
          unitOfWork: createUnitOfWork(db, () => {}),
          quota: {
            consume: async () => async () => {},
            refund: async () => {},
            recordingLimit: async () => 60,
            close: () => {},
          },
          objects,
          logger: createLogger({ level: 'silent' }),
          publicUrl: 'http://localhost:8080',
          reviewFirstDueSeconds: 86_400,
        }),
      ),
      ai: routesOf(aiRouter({} as AiContext)),
      billing: routesOf(billingRouter({} as BillingContext)),
      realtime: routesOf(realtimeRouter(createLiveTokens({ secret: 'x'.repeat(32), ttlMs: 1 }))),
      export: routesOf(exportRouter({} as Parameters<typeof exportRouter>[0])),
    };
  });

  afterAll(async () => {
    await objects?.close();
    await db.destroy();
  });

  it('serves, documents and routes exactly the declared routes', () => {
    const all = Object.values(served).flat();
    expect(new Set(all).size).toBe(all.length);
    expect([...all].sort()).toEqual([...declared].sort());
    expect([...documented].sort()).toEqual([...declared].sort());
    const table = routesOf(
      routingTable({
        notes: (_req, res) => res.end(),
        ai: (_req, res) => res.end(),
        users: (_req, res) => res.end(),
        billing: (_req, res) => res.end(),
        realtime: (_req, res) => res.end(),
        export: (_req, res) => res.end(),
      }),
    );
    expect([...table].sort()).toEqual([...declared].sort());
  });

  it('has a client method for every declared route, and calls each where its contract says', async () => {
    const called: string[] = [];
    const record = (method: string, address: string) => {
      const { pathname } = new URL(address);
      const route = [...routeEntries]
        .sort(([, a], [, b]) => bySpecificity(a.path, b.path))
        .find(
          ([, r]) =>
            r.method.toUpperCase() === method &&
            new RegExp(`^${r.path.replace(/:\w+/g, '[^/]+')}$`).test(pathname),
        );
      called.push(
        route ? `${method} ${documentedPath(route[1].path)}` : `${method} ${pathname} (no route)`,
      );
    };
    const client = createApiClient({
      baseUrl: 'http://noted.test',
      getToken: async () => 't',
      fetch: async (input, init) => {
        record(init?.method ?? 'GET', String(input));
        return String(input).endsWith('/api/config/s3credentials')
          ? Response.json({ uploadId: id, url: `/api/uploads/${'a'.repeat(43)}`, fields: {} })
          : Response.json({});
      },
    });
    const calls = everyCall(client, (url) => record('GET', url));
    expect(Object.keys(calls).sort()).toEqual(methodsOf(client).sort());
    for (const call of Object.values(calls)) await call().catch(() => undefined);
    // Stripe, not a client of Noted, calls the webhook; the live connection is a WebSocket.
    const forClients = declared.filter(
      (route) => route !== 'POST /api/stripe/webhook' && route !== 'GET /ws',
    );
    expect([...new Set(called)].sort()).toEqual(forClients.sort());
  });

  it('gives an edit made on an older version its 409 CONFLICT answer', () => {
    const update = document.paths?.['/api/notes/{id}']?.put;
    const conflict = update?.responses?.['409'] as
      { description: string; content?: Record<string, { schema?: unknown }> } | undefined;
    expect(conflict?.description).toContain('CONFLICT');
    expect(conflict?.content?.['application/json']?.schema).toEqual({
      $ref: '#/components/schemas/Error',
    });
  });
});
