import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLogger } from '@noted/kit';
import { startIdentity, type IdentityOptions, type RunningIdentity } from '../index.js';

export const ISSUER = 'http://localhost:8080/realms/noted';
export const WEB_ORIGIN = 'http://localhost:5173';

export const tempDataDir = () => mkdtemp(join(tmpdir(), 'noted-identity-'));
export const removeDir = (dir: string) => rm(dir, { recursive: true, force: true });

export const startTestIdentity = (
  dataDir: string,
  overrides: Partial<IdentityOptions> = {},
): Promise<RunningIdentity> =>
  startIdentity({
    issuer: ISSUER,
    port: 0,
    host: '127.0.0.1',
    dataDir,
    devPassword: 'noted',
    webRedirectOrigins: [WEB_ORIGIN],
    logger: createLogger({ level: 'silent' }),
    ...overrides,
  });

interface StoredCookie {
  value: string;
  path: string;
}

/**
 * Just enough of a browser for the authorization code flow: a cookie jar that honours
 * cookie paths, and requests that never follow redirects on their own.
 */
export class Browser {
  readonly #cookies = new Map<string, StoredCookie>();

  async request(url: string, init: RequestInit = {}): Promise<Response> {
    const target = new URL(url);
    const cookie = [...this.#cookies]
      .filter(([, stored]) => target.pathname.startsWith(stored.path))
      .map(([name, stored]) => `${name}=${stored.value}`)
      .join('; ');
    const headers = new Headers(init.headers);
    if (cookie) headers.set('cookie', cookie);
    const response = await fetch(target, { ...init, headers, redirect: 'manual' });
    for (const line of response.headers.getSetCookie()) this.#store(line);
    return response;
  }

  /** Follows redirects while they stay on `origin`; answers the first response that does not. */
  async follow(url: string, origin: string): Promise<{ response: Response; url: string }> {
    let current = url;
    for (let hops = 0; hops < 10; hops += 1) {
      const response = await this.request(current);
      const location = response.headers.get('location');
      if (response.status < 300 || response.status >= 400 || !location)
        return { response, url: current };
      const next = new URL(location, current);
      if (next.origin !== origin) return { response, url: current };
      current = next.href;
    }
    throw new Error('too many redirects');
  }

  #store(line: string): void {
    const [pair = '', ...attributes] = line.split(';').map((part) => part.trim());
    const separator = pair.indexOf('=');
    const name = pair.slice(0, separator);
    const value = pair.slice(separator + 1);
    const path = attributes.find((a) => a.toLowerCase().startsWith('path='))?.slice(5) ?? '/';
    const expires = attributes.find((a) => a.toLowerCase().startsWith('expires='))?.slice(8);
    const removed = value === '' || (expires !== undefined && Date.parse(expires) <= Date.now());
    if (removed) this.#cookies.delete(name);
    else this.#cookies.set(name, { value, path });
  }
}

/** The value of a hidden or text input, and the form action, from a server-rendered page. */
export const formOf = (html: string) => {
  const action = /<form[^>]*action="([^"]+)"/.exec(html)?.[1];
  const inputs = new Map<string, string>();
  for (const match of html.matchAll(/<input[^>]*name="([^"]+)"[^>]*value="([^"]*)"/g)) {
    inputs.set(match[1] ?? '', match[2] ?? '');
  }
  return { action: action?.replaceAll('&amp;', '&'), inputs };
};
