import { describe, expect, it } from 'vitest';
import { checkCallbackUrl } from './callback-url-policy.js';

const strict = { allowLoopback: false };
const local = { allowLoopback: true };
const refusal = (url: string, policy = strict) => {
  const checked = checkCallbackUrl(url, policy);
  return 'refusal' in checked ? checked.refusal : 'ok';
};

describe('checkCallbackUrl', () => {
  it('accepts public https URLs', () => {
    expect(refusal('https://hooks.example.com/tokenforge?x=1')).toBe('ok');
    expect(refusal('https://93.184.216.34:8443/hook')).toBe('ok');
  });

  it('refuses plain http, userinfo, and anything that is not a URL', () => {
    expect(refusal('http://hooks.example.com/')).toBe('scheme-not-allowed');
    expect(refusal('ftp://hooks.example.com/')).toBe('scheme-not-allowed');
    expect(refusal('https://user:pass@hooks.example.com/')).toBe('credentials-in-url');
    expect(refusal('not a url')).toBe('not-a-url');
    expect(refusal(`https://hooks.example.com/${'a'.repeat(2100)}`)).toBe('not-a-url');
  });

  it('refuses private, link-local, metadata and loopback addresses and metadata host names by the upstream policy', () => {
    for (const url of ['https://10.1.2.3/', 'https://192.168.0.10/', 'https://169.254.169.254/latest', 'https://[fd00::1]/', 'https://127.0.0.1/', 'https://[::1]/', 'https://metadata.google.internal/', 'https://100.64.0.1/']) {
      expect(refusal(url), url).toBe('address-not-allowed');
    }
  });

  it('allows loopback, over http too, only where the operator allows it', () => {
    expect(refusal('http://127.0.0.1:8080/hook', local)).toBe('ok');
    expect(refusal('http://localhost:8080/hook', local)).toBe('ok');
    expect(refusal('https://[::1]:8443/hook', local)).toBe('ok');
    expect(refusal('http://hooks.example.com/', local)).toBe('scheme-not-allowed');
    expect(refusal('http://10.0.0.1/', local)).toBe('address-not-allowed');
  });
});
