import { describe, expect, it } from 'vitest';
import { matchClientKey, presentedClientKey } from './authenticate-client.js';
import { clientKeyDigest } from './client-key-digest.js';
import { meaningfulHeaders } from './meaningful-headers.js';

describe('what reaches the ingress codec', () => {
  it('only the headers that change a body, never credentials', () => {
    const headers = new Headers({
      'anthropic-version': '2023-06-01',
      'anthropic-beta': 'prompt-caching-2024-07-31',
      authorization: 'Bearer secret',
      'x-api-key': 'secret',
      'x-goog-api-key': 'secret',
      cookie: 'a=b',
    });
    expect(meaningfulHeaders(headers)).toEqual({ 'anthropic-version': '2023-06-01', 'anthropic-beta': 'prompt-caching-2024-07-31' });
  });
});

describe('client keys', () => {
  const keys = [
    { id: 'a', key: new TextEncoder().encode('key-aaaaaaaa'), digest: clientKeyDigest('key-aaaaaaaa') },
    { id: 'b', key: new TextEncoder().encode('key-bbbbbbbb'), digest: clientKeyDigest('key-bbbbbbbb') },
  ];

  it('reads each dialect’s own place', () => {
    expect(presentedClientKey('bearer', new Headers({ authorization: 'Bearer k1' }), new URLSearchParams())).toBe('k1');
    expect(presentedClientKey('anthropic', new Headers({ 'x-api-key': 'k2' }), new URLSearchParams())).toBe('k2');
    expect(presentedClientKey('anthropic', new Headers({ authorization: 'Bearer k3' }), new URLSearchParams())).toBe('k3');
    expect(presentedClientKey('gemini', new Headers({ 'x-goog-api-key': 'k4' }), new URLSearchParams('key=k5'))).toBe('k4');
    expect(presentedClientKey('gemini', new Headers(), new URLSearchParams('key=k5'))).toBe('k5');
    expect(presentedClientKey('bearer', new Headers({ 'x-api-key': 'k2' }), new URLSearchParams())).toBeUndefined();
  });

  it('matches the right key and nothing else', () => {
    expect(matchClientKey('key-bbbbbbbb', keys)).toBe('b');
    expect(matchClientKey('key-bbbbbbb', keys)).toBeUndefined();
    expect(matchClientKey('', keys)).toBeUndefined();
    expect(matchClientKey(undefined, keys)).toBeUndefined();
  });
});
