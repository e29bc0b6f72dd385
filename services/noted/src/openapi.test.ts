import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Router } from 'express';
import knex from 'knex';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openApiDocument } from '@noted/api/openapi';
import { forwardedPrefixes } from '@noted/gateway';
import { createLogger } from '@noted/kit';
import { aiRoutes, type AiContext } from '@noted/ai';
import { notesRoutes } from '@noted/notes';
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
      return Object.keys(layer.route.methods).flatMap((method) =>
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

const forwardedTo = (prefixes: readonly string[], route: string) => {
  const routePath = route.slice(route.indexOf(' ') + 1);
  return prefixes.some((prefix) => routePath === prefix || routePath.startsWith(`${prefix}/`));
};

describe("the gateway's OpenAPI document", () => {
  const document = openApiDocument('http://localhost:8080');
  const documented = Object.entries(document.paths ?? {}).flatMap(([route, item]) =>
    ['get', 'put', 'post', 'delete', 'patch']
      .filter((method) => method in (item ?? {}))
      .map((method) => `${method.toUpperCase()} ${route}`),
  );
  const db = knex({ client: 'pg' });
  let objects: ObjectStore;
  let served: { users: string[]; notes: string[]; ai: string[] };

  beforeAll(async () => {
    objects = await openObjectStore({ root: mkdtempSync(path.join(tmpdir(), 'noted-openapi-')) });
    served = {
      users: routesOf(
        usersRouter({
          knex: db,
          freePlan: { notesPerMonth: 10, recordingTimeLimit: 60 },
          fallbackEmailDomain: 'example.com',
        }),
      ),
      notes: routesOf(
        notesRoutes({
          knex: db,
          published: () => {},
          quota: { consume: async () => async () => {}, close: () => {} },
          objects,
          logger: createLogger({ level: 'silent' }),
          publicUrl: 'http://localhost:8080',
        }),
      ),
      ai: routesOf(aiRoutes({} as AiContext)),
    };
  });

  afterAll(async () => {
    await objects?.close();
    await db.destroy();
  });

  it('describes every route the services serve, and each is one the gateway forwards', () => {
    for (const [service, routes] of Object.entries(served)) {
      expect(routes.length).toBeGreaterThan(0);
      for (const route of routes) {
        expect(documented, `${route} (${service})`).toContain(route);
        const prefixes = forwardedPrefixes[service as keyof typeof forwardedPrefixes];
        expect(forwardedTo(prefixes, route), `${route} is forwarded to ${service}`).toBe(true);
      }
    }
  });

  it('describes no route that no service serves', () => {
    const all = [...served.users, ...served.notes, ...served.ai];
    for (const route of documented) expect(all, route).toContain(route);
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
