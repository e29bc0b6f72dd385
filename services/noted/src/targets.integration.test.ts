import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeJwt } from 'jose';
import { passwordGrant } from '@noted/testing';
import type { AiHitList, Note, NotePage, User, UserUsage } from '@noted/api';
import { freePort, json, testInfra } from './test/app.js';

const { databaseUrl, natsUrl } = testInfra;
const main = fileURLToPath(new URL('./main.ts', import.meta.url));

const startProcess = (target: string, env: Record<string, string>): ChildProcess => {
  const child = spawn(
    process.execPath,
    ['--conditions=@noted/source', '--import', 'tsx', main, `--target=${target}`],
    {
      env: { ...process.env, ...env, LOG_LEVEL: 'warn' },
      stdio: ['ignore', 'inherit', 'inherit'],
    },
  );
  return child;
};

const waitReady = async (url: string, child: ChildProcess) => {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`${url}: process exited with ${child.exitCode}`);
    const ok = await fetch(`${url}/readyz`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`${url} did not become ready`);
};

describe.runIf(databaseUrl && natsUrl)(
  'noted --target in separate processes (Postgres, NATS)',
  () => {
    const children: ChildProcess[] = [];
    let gateway = '';
    let shared: Record<string, string> = {};
    let readyUrl: Record<'users' | 'notes', string> = { users: '', notes: '' };

    beforeAll(async () => {
      const [
        port,
        identityPort,
        usersHttp,
        usersGrpc,
        notesHttp,
        notesGrpc,
        aiHttp,
        aiGrpc,
        billingHttp,
        billingGrpc,
        exportHttp,
        exportGrpc,
      ] = await Promise.all(Array.from({ length: 12 }, freePort));
      shared = {
        DATABASE_URL: databaseUrl ?? '',
        NATS_URL: natsUrl ?? '',
        NOTED_INTERNAL_SECRET: randomBytes(32).toString('base64url'),
        NOTED_DATA_DIR: mkdtempSync(path.join(tmpdir(), 'noted-targets-')),
        NOTED_BIND_HOST: '127.0.0.1',
        // Each process serves its metrics on a port of its own.
        NOTED_METRICS_PORT: '0',
        // Not e5: on the suites' shared Postgres it would set out to embed every suite's chunks.
        AI_LOCAL_EMBEDDINGS: 'use',
        PORT: String(port),
        IDENTITY_PORT: String(identityPort),
        IDENTITY_URL: `http://127.0.0.1:${identityPort}`,
        USERS_HTTP_PORT: String(usersHttp),
        USERS_GRPC_ADDR: `127.0.0.1:${usersGrpc}`,
        USERS_URL: `http://127.0.0.1:${usersHttp}`,
        NOTES_HTTP_PORT: String(notesHttp),
        NOTES_GRPC_ADDR: `127.0.0.1:${notesGrpc}`,
        NOTES_URL: `http://127.0.0.1:${notesHttp}`,
        AI_HTTP_PORT: String(aiHttp),
        AI_GRPC_ADDR: `127.0.0.1:${aiGrpc}`,
        AI_URL: `http://127.0.0.1:${aiHttp}`,
        BILLING_HTTP_PORT: String(billingHttp),
        BILLING_GRPC_ADDR: `127.0.0.1:${billingGrpc}`,
        BILLING_URL: `http://127.0.0.1:${billingHttp}`,
        EXPORT_HTTP_PORT: String(exportHttp),
        EXPORT_GRPC_ADDR: `127.0.0.1:${exportGrpc}`,
        EXPORT_URL: `http://127.0.0.1:${exportHttp}`,
        // A note quota charge left pending by a killed process is looked into after 2 s.
        NOTES_QUOTA_SWEEP_AFTER_SECONDS: '2',
        NOTES_QUOTA_SWEEP_INTERVAL_SECONDS: '0.5',
      };
      readyUrl = { users: `http://127.0.0.1:${usersHttp}`, notes: `http://127.0.0.1:${notesHttp}` };
      const notes = startProcess('notes', shared);
      const ai = startProcess('ai', shared);
      const billing = startProcess('billing', shared);
      // export alone: it reads the notes process over gRPC and keeps only the Notion connections.
      const exporter = startProcess('export', shared);
      // users apart from the gateway (and the development identity provider it runs), as the
      // chart deploys them: a deleted account's account is deleted across processes.
      const users = startProcess('users', shared);
      const front = startProcess('gateway', shared);
      children.push(notes, ai, billing, exporter, users, front);
      gateway = `http://localhost:${port}`;
      await Promise.all([
        waitReady(`http://127.0.0.1:${usersHttp}`, users),
        waitReady(`http://127.0.0.1:${notesHttp}`, notes),
        waitReady(`http://127.0.0.1:${aiHttp}`, ai),
        waitReady(`http://127.0.0.1:${billingHttp}`, billing),
        waitReady(`http://127.0.0.1:${exportHttp}`, exporter),
        waitReady(gateway, front),
      ]);
    }, 120_000);

    afterAll(async () => {
      await Promise.all(
        children.map(
          (child) =>
            new Promise<void>((resolve) => {
              if (child.exitCode !== null) return resolve();
              child.once('exit', () => resolve());
              child.kill('SIGTERM');
            }),
        ),
      );
    });

    it('signs in, creates, lists, reads, updates and deletes across processes', async () => {
      const { accessToken } = await passwordGrant({
        realmUrl: `${gateway}/realms/noted`,
        email: `multi-${randomUUID()}@example.com`,
        password: 'noted',
      });
      const call = (method: string, route: string, body?: unknown) =>
        fetch(`${gateway}${route}`, {
          method,
          headers: { authorization: `Bearer ${accessToken}`, 'content-type': 'application/json' },
          body: body === undefined ? undefined : JSON.stringify(body),
        });
      const created = await call('POST', '/api/note/create/direct', { title: 'Across processes' });
      expect(created.status).toBe(201);
      const note = await json<Note>(created);
      expect((await json<NotePage>(call('GET', '/api/notes'))).items[0]?.id).toBe(note.id);
      expect((await call('PUT', `/api/notes/${note.id}`, { note: 'body' })).status).toBe(200);
      expect((await json<Note>(call('GET', `/api/notes/${note.id}`))).note).toBe('body');
      // The export process reads the note from the notes process.
      const markdown = await call('GET', `/export/note/markdown?id=${note.id}`);
      expect(markdown.status).toBe(200);
      expect(await markdown.text()).toMatch(/^---\ntitle: Across processes\n[\s\S]*---\nbody$/);
      // The ai process indexes the note from its events through NATS, and finds it.
      let found: string[] = [];
      for (let attempt = 0; attempt < 100 && !found.includes(note.id); attempt += 1) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        // Until the ai process has reached the notes process, search answers 503.
        const answer = await call('GET', '/ai/note/assist/search?query=processes');
        if (answer.ok) found = (await json<AiHitList>(answer)).items.map((hit) => hit.note.id);
      }
      expect(found).toContain(note.id);
      expect((await call('DELETE', `/api/notes/${note.id}`)).status).toBe(204);
      // billing alone, without Stripe: the free plan, payments disabled.
      expect(await json(call('GET', '/api/stripe/subscription-status'))).toMatchObject({
        planName: 'free',
        paymentsEnabled: false,
      });
    });

    it("deletes a deleted account's development account, which runs in the gateway's process", async () => {
      const realmUrl = `${gateway}/realms/noted`;
      const email = `leaving-${randomUUID()}@example.com`;
      const { accessToken } = await passwordGrant({ realmUrl, email, password: 'noted' });
      const call = (method: string, route: string, body?: unknown) =>
        fetch(`${gateway}${route}`, {
          method,
          headers: { authorization: `Bearer ${accessToken}`, 'content-type': 'application/json' },
          body: body === undefined ? undefined : JSON.stringify(body),
        });
      const user = await json<User>(call('GET', '/user'));
      expect((await call('DELETE', '/user', { confirm: email })).status).toBe(202);
      // The users process deletes the account at the provider (IDENTITY_URL) from user.deleted:
      // the same email then signs in as another subject, to a new, empty account.
      let subject = user.authId;
      for (let attempt = 0; attempt < 100 && subject === user.authId; attempt += 1) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        subject = decodeJwt(
          (await passwordGrant({ realmUrl, email, password: 'noted' })).accessToken,
        ).sub as string;
      }
      expect(subject).not.toBe(user.authId);
    });

    it('counts exactly the notes made when the notes process, then the users process, is killed with creates in flight', async () => {
      const { accessToken } = await passwordGrant({
        realmUrl: `${gateway}/realms/noted`,
        email: `killed-${randomUUID()}@example.com`,
        password: 'noted',
      });
      const call = (method: string, route: string, body?: unknown) =>
        fetch(`${gateway}${route}`, {
          method,
          headers: { authorization: `Bearer ${accessToken}`, 'content-type': 'application/json' },
          body: body === undefined ? undefined : JSON.stringify(body),
        });
      const counts = async () => ({
        used: (await json<UserUsage>(call('GET', '/user/usage'))).notes.used,
        notes: (await json<NotePage>(call('GET', '/api/notes?limit=100'))).total,
      });
      /** Sends creates, kills the process (`kill -9`) once the first is answered, starts it again. */
      const killDuring = async (target: 'notes' | 'users', index: number) => {
        let answered: () => void = () => {};
        const first = new Promise<void>((resolve) => (answered = resolve));
        const creates = Array.from({ length: 10 }, (_, n) =>
          call('POST', '/api/note/create/direct', { title: `${target} ${n}` }).then(
            (response) => {
              answered();
              return response.status;
            },
            () => 0,
          ),
        );
        await first;
        const killed = children[index]!;
        const exited = new Promise((resolve) => killed.once('exit', resolve));
        killed.kill('SIGKILL');
        await exited;
        await Promise.all(creates);
        const again = startProcess(target, shared);
        children[index] = again;
        await waitReady(readyUrl[target], again);
      };
      await killDuring('notes', 0);
      await killDuring('users', 4);
      // Pending charges of creates that died are given back by the sweep, the others settled by
      // their note.created: the month's count ends equal to the notes there are.
      let now = { used: -1, notes: 0 };
      for (let attempt = 0; attempt < 150; attempt += 1) {
        const answer = await counts().catch(() => undefined);
        if (answer) now = answer;
        if (now.used === now.notes && attempt > 20) break;
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
      expect(now.notes).toBeGreaterThan(0);
      expect(now.used).toBe(now.notes);
    });

    it('stops on SIGTERM within the grace period', async () => {
      const [child] = children;
      if (!child) throw new Error('no process');
      const exited = new Promise<number | null>((resolve) =>
        child.once('exit', (code) => resolve(code)),
      );
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
    });
  },
);
