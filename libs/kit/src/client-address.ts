import { isIPv4, isIPv6 } from 'node:net';
import type { Request } from 'express';

/**
 * The caller's address as the gateway saw it (express's `req.ip`, under its trust-proxy
 * setting). The gateway deletes any copy a client sends and sets its own, as it does the
 * identity; services read it only to count a caller's requests, never to let one in.
 */
export const CLIENT_ADDRESS_HEADER = 'x-noted-client-ip';

/** The caller's address: the gateway's header, else this server's own view (a direct call). */
export const clientAddressOf = (req: Request): string =>
  req.header(CLIENT_ADDRESS_HEADER)?.trim() || req.ip || req.socket.remoteAddress || 'unknown';

/** The eight 16-bit groups of an IPv6 address, `::` expanded; undefined when it is none. */
const ipv6Groups = (address: string): number[] | undefined => {
  if (!isIPv6(address)) return undefined;
  const [head = '', tail] = address.split('::') as [string, string | undefined];
  const parse = (part: string) => (part === '' ? [] : part.split(':'));
  const left = parse(head);
  const right = tail === undefined ? [] : parse(tail);
  // An embedded IPv4 tail (::ffff:192.0.2.1) is two groups.
  const last = right.length > 0 ? right : left;
  const dotted = last.at(-1);
  if (dotted?.includes('.')) {
    const [a = 0, b = 0, c = 0, d = 0] = dotted.split('.').map(Number);
    last.splice(-1, 1, ((a << 8) | b).toString(16), ((c << 8) | d).toString(16));
  }
  const missing = 8 - left.length - right.length;
  return [...left, ...Array<string>(Math.max(0, missing)).fill('0'), ...right].map((group) =>
    parseInt(group, 16),
  );
};

/**
 * What one caller's requests are counted under: an IPv4 address as it is, an IPv6 address by
 * its /56 (one household or customer is given a /56 or a /64 and can use any address in it),
 * an IPv4-mapped IPv6 address as its IPv4 address. The gateway's own limits group the same way.
 */
export const addressGroup = (address: string): string => {
  if (isIPv4(address)) return address;
  const groups = ipv6Groups(address);
  if (!groups) return address;
  const mapped = groups.slice(0, 5).every((group) => group === 0) && groups[5] === 0xffff;
  if (mapped) {
    const [high = 0, low = 0] = groups.slice(6);
    return [high >> 8, high & 0xff, low >> 8, low & 0xff].join('.');
  }
  const [a = 0, b = 0, c = 0, d = 0] = groups;
  return `${[a, b, c, d & 0xff00].map((group) => group.toString(16)).join(':')}::/56`;
};
