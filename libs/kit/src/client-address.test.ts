import { describe, expect, it } from 'vitest';
import { addressGroup } from './client-address.js';

describe('addressGroup (what a caller is counted under)', () => {
  it('keeps an IPv4 address, and reads an IPv4-mapped IPv6 address as one', () => {
    expect(addressGroup('203.0.113.7')).toBe('203.0.113.7');
    expect(addressGroup('::ffff:203.0.113.7')).toBe('203.0.113.7');
    expect(addressGroup('::ffff:cb00:7107')).toBe('203.0.113.7');
  });

  it('counts every IPv6 address of one /56 as one caller, and the next /56 apart', () => {
    const group = addressGroup('2001:db8:aa:1200::1');
    expect(group).toBe('2001:db8:aa:1200::/56');
    expect(addressGroup('2001:0db8:00aa:12ff:ffff:ffff:ffff:ffff')).toBe(group);
    expect(addressGroup('2001:db8:aa:1300::1')).not.toBe(group);
    expect(addressGroup('::1')).toBe('0:0:0:0::/56');
  });

  it('leaves what is no address as it is', () => {
    expect(addressGroup('unknown')).toBe('unknown');
  });
});
