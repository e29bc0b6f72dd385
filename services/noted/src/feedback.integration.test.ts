import { randomUUID } from 'node:crypto';
import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ErrorBody, FeedbackList, FeedbackReceipt } from '@noted/api';
import { getTestApp, infraLabel, json, type TestApp } from './test/app.js';

const PNG = Buffer.concat([
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  Buffer.alloc(256, 3),
]);
const asDataUrl = (bytes: Buffer) => `data:image/png;base64,${bytes.toString('base64')}`;

/**
 * Feedback through the gateway, as the web page sends it: signed out and signed in, limited per
 * account and per address (every request here comes from 127.0.0.1, so the address's count
 * runs through the whole suite), and read back by an operator of IDENTITY_ADMIN_EMAILS.
 */
describe(`feedback (${infraLabel})`, () => {
  let app: TestApp;
  let ada: string;
  let operator: string;
  const operatorEmail = `ops-${randomUUID()}@example.com`;

  const send = (token: string | undefined, body: unknown, headers: Record<string, string> = {}) =>
    fetch(`${app.url}/api/feedback`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        ...(token ? { authorization: `Bearer ${token}` } : {}),
        ...headers,
      },
      body: JSON.stringify(body),
    });
  const codeOf = async (response: Response) => (await json<ErrorBody>(response)).error.code;
  const listed = async () =>
    json<FeedbackList>(app.api(operator, 'GET', '/api/admin/feedback?limit=100'));

  beforeAll(async () => {
    app = await getTestApp({
      env: {
        IDENTITY_ADMIN_EMAILS: operatorEmail,
        FEEDBACK_PER_USER_PER_HOUR: '2',
        FEEDBACK_PER_IP_PER_HOUR: '4',
      },
    });
    ada = await app.tokenFor(`ada-${randomUUID()}@example.com`);
    operator = await app.tokenFor(operatorEmail);
  }, 120_000);

  afterAll(async () => {
    await app?.stop();
  });

  it('refuses what the contract does not take, counting none of it', async () => {
    const refusals: [unknown, string][] = [
      [{ kind: 'rant', message: 'x' }, 'VALIDATION_FAILED'],
      [{ kind: 'idea', message: '   ' }, 'VALIDATION_FAILED'],
      [{ kind: 'idea', message: 'x'.repeat(5001) }, 'VALIDATION_FAILED'],
      [{ kind: 'idea', message: 'x', email: 'not an email' }, 'VALIDATION_FAILED'],
      [{ kind: 'idea', message: 'x', page: 'https://elsewhere.example/' }, 'VALIDATION_FAILED'],
      [
        { kind: 'idea', message: 'x', screenshot: 'https://example.com/a.png' },
        'VALIDATION_FAILED',
      ],
      [
        { kind: 'idea', message: 'x', screenshot: asDataUrl(Buffer.from('<svg/>')) },
        'NOT_AN_IMAGE',
      ],
    ];
    for (const [body, code] of refusals) {
      const response = await send(undefined, body);
      // Against the schema is 400; an image by its bytes is a matter of content, 422.
      expect(response.status).toBe(code === 'NOT_AN_IMAGE' ? 422 : 400);
      expect(await codeOf(response)).toBe(code);
    }
  });

  it('takes feedback signed out, with a screenshot an operator can read back', async () => {
    const response = await send(undefined, {
      kind: 'problem',
      message: 'Sync stopped',
      email: 'someone@example.com',
      page: '/notes',
      screenshot: asDataUrl(PNG),
    });
    expect(response.status).toBe(201);
    const receipt = await json<FeedbackReceipt>(response);
    expect(receipt).toEqual({ id: expect.any(String), createdAt: expect.any(String) });

    const item = (await listed()).items.find((i) => i.id === receipt.id);
    expect(item).toMatchObject({
      kind: 'problem',
      message: 'Sync stopped',
      email: 'someone@example.com',
      userId: null,
      page: '/notes',
      hasScreenshot: true,
      userAgent: expect.any(String),
    });
    const image = await app.api(operator, 'GET', `/api/admin/feedback/${receipt.id}/screenshot`);
    expect(image.status).toBe(200);
    expect(image.headers.get('content-type')).toBe('image/png');
    expect(Buffer.from(await image.arrayBuffer()).equals(PNG)).toBe(true);
  });

  it("takes feedback signed in under the account's email, and a forged identity as no one's", async () => {
    const me = await json<{ userId: string; email: string }>(app.api(ada, 'GET', '/user'));
    const mine = await json<FeedbackReceipt>(
      await send(ada, { kind: 'idea', message: 'Dark mode', email: 'typed@example.com' }),
    );
    // A client cannot speak for a user: the gateway drops the header, and the request is anonymous.
    const forged = await new SignJWT({ uid: me.userId, email: me.email })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject('someone')
      .sign(new TextEncoder().encode('x'.repeat(32)));
    const anonymous = await json<FeedbackReceipt>(
      await send(undefined, { kind: 'praise', message: 'Nice' }, { 'x-noted-identity': forged }),
    );
    const { items } = await listed();
    expect(items.find((i) => i.id === mine.id)).toMatchObject({
      userId: me.userId,
      email: me.email,
    });
    expect(items.find((i) => i.id === anonymous.id)).toMatchObject({ userId: null, email: null });
  });

  it('refuses a bad token instead of taking the feedback as anonymous', async () => {
    const response = await send(`${ada}x`, { kind: 'idea', message: 'x' });
    expect(response.status).toBe(401);
  });

  it('limits feedback per account and per address with 429 and Retry-After; a forged address changes nothing', async () => {
    // Ada has sent 1 of her 2; the address 3 of its 4.
    expect((await send(ada, { kind: 'idea', message: 'Second' })).status).toBe(201);
    const perAccount = await send(ada, { kind: 'idea', message: 'Third' });
    expect(perAccount.status).toBe(429);
    expect(Number(perAccount.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await json<ErrorBody>(perAccount)).toMatchObject({
      error: { code: 'RATE_LIMITED', message: expect.stringMatching(/one account/) },
    });

    const perAddress = await send(
      undefined,
      { kind: 'idea', message: 'From elsewhere, it says' },
      { 'x-noted-client-ip': '203.0.113.1' },
    );
    expect(perAddress.status).toBe(429);
    expect(Number(perAddress.headers.get('retry-after'))).toBeGreaterThan(3000);
    expect((await json<ErrorBody>(perAddress)).error.message).toMatch(/one address/);
  });

  it('shows the feedback to operators only: 403 to anyone else, 401 signed out', async () => {
    const refused = await app.api(ada, 'GET', '/api/admin/feedback');
    expect(refused.status).toBe(403);
    expect(await json<ErrorBody>(refused)).toEqual({
      error: { code: 'FORBIDDEN', message: 'Only operators can read feedback' },
    });
    const { items } = await listed();
    const first = items[0]?.id ?? '';
    expect((await app.api(ada, 'GET', `/api/admin/feedback/${first}/screenshot`)).status).toBe(403);
    expect((await app.api(undefined, 'GET', '/api/admin/feedback')).status).toBe(401);

    const page = await json<FeedbackList>(
      app.api(operator, 'GET', '/api/admin/feedback?kind=idea&limit=1'),
    );
    expect(page.items).toHaveLength(1);
    expect(page.items[0]?.message).toBe('Second');
    expect(page.nextCursor).toEqual(expect.any(String));
    const next = await json<FeedbackList>(
      app.api(
        operator,
        'GET',
        `/api/admin/feedback?kind=idea&limit=1&cursor=${page.nextCursor ?? ''}`,
      ),
    );
    expect(next.items.map((i) => i.message)).toEqual(['Dark mode']);
  });
});
