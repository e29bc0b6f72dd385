import ipaddr from 'ipaddr.js';
import * as z from 'zod';

/**
 * Whether an IP address is one of the public internet: ipaddr.js's `unicast` range, after an
 * IPv4-mapped IPv6 address (::ffff:10.0.0.1) is read as the IPv4 address it carries. Loopback,
 * private, link-local (169.254.0.0/16, where cloud metadata answers), carrier-grade NAT,
 * unique-local, multicast, reserved, documentation and 6to4/Teredo forms are not.
 */
export const isPublicAddress = (address: string): boolean => {
  if (!ipaddr.isValid(address)) return false;
  const parsed = ipaddr.process(address);
  return parsed.range() === 'unicast';
};

/** Whether `address` is one of `allowed` (addresses or CIDRs), compared as IPs. */
const isAllowed = (address: string, allowed: readonly string[]) => {
  const parsed = ipaddr.process(address);
  return allowed.some((entry) => {
    try {
      if (entry.includes('/')) {
        const [range, bits] = ipaddr.parseCIDR(entry);
        return parsed.kind() === range.kind() && parsed.match(range, bits);
      }
      return ipaddr.process(entry).toNormalizedString() === parsed.toNormalizedString();
    } catch {
      return false;
    }
  });
};

/**
 * Why a URL's host will not be fetched, when its very text says so: a literal IP address that is
 * not public (the WHATWG parser has already turned 2130706433, 0x7f.1 and 0177.0.0.1 into
 * 127.0.0.1, and kept IPv6 in brackets), or `localhost` and its subdomains, which name loopback
 * by definition (RFC 6761). A name is otherwise resolved only when fetched, where the fetch
 * checks the addresses it connects to; this check lets a request be refused before anything is
 * made of it. `allowed` are addresses taken although private (tests, local development).
 */
export const literalHostRefusal = (
  url: URL,
  allowed: readonly string[] = [],
): 'private address' | undefined => {
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1').toLowerCase();
  if (host === 'localhost' || host.endsWith('.localhost')) {
    return isAllowed('127.0.0.1', allowed) || isAllowed('::1', allowed)
      ? undefined
      : 'private address';
  }
  if (!ipaddr.isValid(host)) return undefined;
  if (isPublicAddress(host) || isAllowed(host, allowed)) return undefined;
  return 'private address';
};

/**
 * CAPTURE_FETCH_ALLOW_ADDRESSES: addresses a capture may fetch although they are private (a comma
 * list of IPs or CIDRs), for local development and tests only. Read by the service that takes a
 * capture's URL (refused at once when its host is a private literal) and the one that fetches it.
 */
export const allowedAddressesSetting = z
  .string()
  .default('')
  .transform((list) =>
    list
      .split(',')
      .map((address) => address.trim())
      .filter(Boolean),
  );
