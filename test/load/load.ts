/**
 * What the load scripts share: signing users in, seeding their notes through the API, and one
 * autocannon run measured on the client, its thresholds checked.
 */
import autocannon from 'autocannon';
import { passwordGrant } from '@noted/testing';
import { words } from '../bench/words.js';

export interface Target {
  /** The gateway's origin, e.g. http://localhost:8080. */
  baseUrl: string;
  /** The realm tokens come from (the development provider's under the gateway, or Keycloak's). */
  realmUrl: string;
  password: string;
  /** Seconds each script sends load for. */
  duration: number;
  connections: number;
}

/**
 * What a script must stay within. Set for 10 closed-loop clients on CI's shared 2-core machine
 * (the client, the services and Postgres on the same cores), at about twice the figures
 * measured there while other builds ran: a failure is a regression of that order, not noise.
 */
export interface Thresholds {
  /** 95th percentile of response time, in ms. */
  p95Ms: number;
  /** 99th percentile of response time, in ms. */
  p99Ms: number;
  /** Connection errors, timeouts and non-2xx answers together. */
  errors: number;
}

export interface LoadScript {
  name: string;
  /** What the script's clients do, one line. */
  does: string;
  thresholds: Thresholds;
  /** Signs its users in and prepares their data; returns the requests each client loops over. */
  prepare: (target: Target, log: (line: string) => void) => Promise<autocannon.Request[]>;
}

export interface Outcome {
  name: string;
  requests: number;
  /** Completed requests per second over the run. */
  rps: number;
  p50: number;
  p95: number;
  p99: number;
  max: number;
  errors: number;
  /** Answers by status code, and the first refused answer, for the log when errors > 0. */
  statuses: Record<string, number>;
  firstRefusal?: string;
  failed: string[];
}

export interface User {
  email: string;
  token: string;
  headers: Record<string, string>;
}

/** A user of the development provider (any email signs in) or of Keycloak. */
export const signIn = async (target: Target, email: string): Promise<User> => {
  const { accessToken, expiresIn } = await passwordGrant({
    realmUrl: target.realmUrl,
    email,
    password: target.password,
  });
  if (expiresIn > 0 && expiresIn < target.duration + 60) {
    throw new Error(
      `access tokens last ${expiresIn} s, too short for ${target.duration} s of load: shorten --duration`,
    );
  }
  return {
    email,
    token: accessToken,
    headers: { authorization: `Bearer ${accessToken}`, 'content-type': 'application/json' },
  };
};

/** One API call with a user's token; throws with the answer when it is not 2xx. */
export const call = async <T>(
  target: Target,
  user: User,
  method: string,
  path: string,
  body?: unknown,
): Promise<T> => {
  const response = await fetch(`${target.baseUrl}${path}`, {
    method,
    headers: user.headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${text.slice(0, 300)}`);
  return (text ? JSON.parse(text) : undefined) as T;
};

/**
 * Waits until the AI index holds a user's `count` notes: it follows note events, and indexing
 * in the background would otherwise share the machine with the load that is measured.
 */
export const waitIndexed = async (target: Target, user: User, count: number) => {
  const deadline = Date.now() + 180_000;
  for (;;) {
    const settings = await call<{ index: { notes: number } }>(target, user, 'GET', '/ai/settings');
    if (settings.index.notes >= count) return;
    if (Date.now() > deadline) {
      throw new Error(
        `the AI index held ${settings.index.notes} of ${count} notes of ${user.email} after 180 s`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
};

/** Deterministic pseudo-random numbers, so every run seeds and asks the same. */
export const sequence = (seed: number) => {
  let state = seed >>> 0 || 1;
  return (below: number) => {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return (state >>> 0) % below;
  };
};

export const tags = ['work', 'home', 'ideas', 'reading', 'travel'];

/** One item of a list, by a sequence. */
export const pickFrom = <T>(list: readonly T[], next: (below: number) => number): T => {
  const item = list[next(list.length)];
  if (item === undefined) throw new Error('nothing to pick from');
  return item;
};

/** A note of everyday words: a 3-word title, 40-120 words of body, 1-2 tags. */
export const noteOf = (index: number) => {
  const next = sequence(index + 1);
  const pick = () => words[next(words.length)] ?? 'note';
  return {
    title: Array.from({ length: 3 }, pick).join(' '),
    note: Array.from({ length: 40 + next(81) }, pick).join(' '),
    tags: [...new Set([tags[index % tags.length] ?? 'work', tags[next(tags.length)] ?? 'home'])],
  };
};

/** Creates `count` notes for a user through the API, a few at a time; returns their ids. */
export const seedNotes = async (
  target: Target,
  user: User,
  count: number,
  first = 0,
): Promise<string[]> => {
  const ids: string[] = [];
  let next = 0;
  const worker = async () => {
    while (next < count) {
      const index = next;
      next += 1;
      const created = await call<{ id: string }>(
        target,
        user,
        'POST',
        '/api/note/create/direct',
        noteOf(first + index),
      );
      ids.push(created.id);
    }
  };
  await Promise.all(Array.from({ length: 4 }, worker));
  return ids;
};

/** A request whose path and headers are chosen for each send (a user, a page, a word). */
export const dynamic = (
  build: (context: Record<string, unknown>) =>
    | {
        method?: 'GET' | 'POST' | 'PUT' | 'DELETE';
        path: string;
        headers: Record<string, string>;
        body?: string;
      }
    | undefined,
  onResponse?: (status: number, body: string, context: Record<string, unknown>) => void,
): autocannon.Request => ({
  setupRequest: (request, context) => {
    const built = build(context as Record<string, unknown>);
    // Nothing to send (an earlier step of the loop failed): autocannon starts the loop again.
    if (!built) return undefined as unknown as autocannon.Request;
    return {
      ...request,
      method: built.method ?? 'GET',
      path: built.path,
      headers: { ...request.headers, ...built.headers },
      body: built.body ?? '',
    };
  },
  ...(onResponse
    ? {
        onResponse: (status: number, body: string, context: object) =>
          onResponse(status, body, context as Record<string, unknown>),
      }
    : {}),
});

const percentile = (sorted: number[], p: number) =>
  Number((sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? 0).toFixed(1));

/**
 * Runs one script's requests on `connections` clients for `duration` seconds (closed loop:
 * each client sends its next request when the last one answered) and checks its thresholds.
 * Percentiles are exact, from every response time (autocannon's own table has no p95).
 */
export const runLoad = async (
  target: Target,
  script: LoadScript,
  requests: autocannon.Request[],
): Promise<Outcome> => {
  const times: number[] = [];
  let firstRefusal: string | undefined;
  // Every request records its first refusal (autocannon counts them but keeps no body).
  const watched = requests.map((request) => ({
    ...request,
    onResponse: (status: number, body: string, context: object, headers: unknown) => {
      if (status >= 400 && firstRefusal === undefined) {
        firstRefusal = `${status} ${body.slice(0, 300)}`;
      }
      if (typeof request.onResponse === 'function') {
        request.onResponse(status, body, context, headers as autocannon.Request['headers']);
      }
    },
  }));
  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    const instance = autocannon(
      {
        url: target.baseUrl,
        connections: target.connections,
        duration: target.duration,
        timeout: 30,
        requests: watched,
      },
      (error, finished) => (error ? reject(error as Error) : resolve(finished)),
    );
    instance.on('response', (_client, _status, _bytes, responseTime) => {
      times.push(responseTime);
    });
  });
  times.sort((a, b) => a - b);
  const statuses = Object.fromEntries(
    Object.entries(result.statusCodeStats ?? {}).map(([status, { count }]) => [
      status,
      Number(count ?? 0),
    ]),
  );
  const errors = result.errors + result.non2xx;
  const outcome: Outcome = {
    name: script.name,
    requests: times.length,
    rps: Math.round((times.length / result.duration) * 10) / 10,
    p50: percentile(times, 0.5),
    p95: percentile(times, 0.95),
    p99: percentile(times, 0.99),
    max: Number((times.at(-1) ?? 0).toFixed(1)),
    errors,
    statuses,
    ...(firstRefusal ? { firstRefusal } : {}),
    failed: [],
  };
  const { thresholds } = script;
  if (outcome.requests === 0) outcome.failed.push('no request completed');
  if (outcome.p95 > thresholds.p95Ms) {
    outcome.failed.push(`p95 ${outcome.p95} ms > ${thresholds.p95Ms} ms`);
  }
  if (outcome.p99 > thresholds.p99Ms) {
    outcome.failed.push(`p99 ${outcome.p99} ms > ${thresholds.p99Ms} ms`);
  }
  if (errors > thresholds.errors) {
    outcome.failed.push(
      `${errors} errors > ${thresholds.errors} (${result.errors} connection errors or timeouts, ${result.non2xx} non-2xx)`,
    );
  }
  return outcome;
};
