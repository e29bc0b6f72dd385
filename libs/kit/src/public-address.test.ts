import { describe, expect, it } from 'vitest';
import { isPublicAddress, literalHostRefusal } from './public-address.js';

const refusal = (url: string, allowed?: string[]) => literalHostRefusal(new URL(url), allowed);

describe('literalHostRefusal', () => {
  it('refuses every spelling of a loopback, private, link-local or reserved literal', () => {
    for (const url of [
      'http://127.0.0.1:22/',
      'http://2130706433/',
      'http://0x7f.1/',
      'http://0177.0.0.1/',
      'http://127.1/',
      'http://169.254.169.254/latest/meta-data/',
      'http://10.0.0.1/a.mp3',
      'http://172.16.5.4/',
      'http://192.168.1.1/',
      'http://100.64.0.1/',
      'http://0.0.0.0/',
      'http://[::1]/',
      'http://[::]/',
      'http://[::ffff:127.0.0.1]/',
      'http://[::ffff:a9fe:a9fe]/',
      'http://[fd00::1]/',
      'http://[fe80::1]/',
      'http://224.0.0.1/',
      'http://255.255.255.255/',
      'https://localhost/',
      'http://LOCALHOST:8080/',
      'http://app.localhost/',
    ]) {
      expect(refusal(url), url).toBe('private address');
    }
  });

  it('leaves public literals and names to the fetch, which checks what they resolve to', () => {
    for (const url of [
      'https://93.184.215.14/',
      'https://[2606:2800:21f:cb07:6820:80da:af6b:8b2c]/',
      'https://example.com/',
      'https://localhost.example.com/',
      'https://10.0.0.1.nip.io/',
    ]) {
      expect(refusal(url), url).toBeUndefined();
    }
  });

  it('takes what the allow list names, by address or range, and nothing else', () => {
    expect(refusal('http://127.0.0.1:9/', ['127.0.0.1'])).toBeUndefined();
    expect(refusal('http://localhost:9/', ['127.0.0.1'])).toBeUndefined();
    expect(refusal('http://10.1.2.3/', ['10.0.0.0/8'])).toBeUndefined();
    expect(refusal('http://[::ffff:10.1.2.3]/', ['10.0.0.0/8'])).toBeUndefined();
    expect(refusal('http://10.1.2.3/', ['127.0.0.1', 'not an address'])).toBe('private address');
  });
});

describe('isPublicAddress', () => {
  it('is true only for global unicast', () => {
    expect(isPublicAddress('8.8.8.8')).toBe(true);
    expect(isPublicAddress('2001:4860:4860::8888')).toBe(true);
    expect(isPublicAddress('192.0.2.1')).toBe(false);
    expect(isPublicAddress('2001:db8::1')).toBe(false);
    expect(isPublicAddress('not an address')).toBe(false);
  });
});
