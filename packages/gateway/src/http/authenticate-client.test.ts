import { describe, expect, it } from 'vitest';
import type { RuntimeClientKey } from '../runtime/resolve-catalogue.js';
import { matchClientKey } from './authenticate-client.js';
import { clientKeyDigest } from './client-key-digest.js';

const configured = (id: string, value: string): RuntimeClientKey => {
  const key = new TextEncoder().encode(value);
  return { id, key, digest: clientKeyDigest(key) };
};
const KEYS = [configured('first', 'first-key-0123456789'), configured('second', 'second-key-abcdefghijkl'), configured('short', 'k-123456')];

describe('matchClientKey', () => {
  it('names the configured key that matches, in any position, and nothing else', () => {
    expect(matchClientKey('first-key-0123456789', KEYS)).toBe('first');
    expect(matchClientKey('second-key-abcdefghijkl', KEYS)).toBe('second');
    expect(matchClientKey('k-123456', KEYS)).toBe('short');
    expect(matchClientKey('first-key-012345678', KEYS)).toBeUndefined();
    expect(matchClientKey('first-key-0123456789x', KEYS)).toBeUndefined();
    expect(matchClientKey('', KEYS)).toBeUndefined();
    expect(matchClientKey(undefined, KEYS)).toBeUndefined();
    expect(matchClientKey('first-key-0123456789', [])).toBeUndefined();
  });

  it('compares with the digest taken when the key was configured, not with a digest of the key per request', () => {
    const stale: RuntimeClientKey = { id: 'stale', key: new TextEncoder().encode('not-this-one-0000'), digest: clientKeyDigest('this-one-1111') };
    expect(matchClientKey('this-one-1111', [stale])).toBe('stale');
    expect(matchClientKey('not-this-one-0000', [stale])).toBeUndefined();
  });

  it('digests text as its UTF-8 bytes', () => {
    expect(clientKeyDigest('clé-ünïcode')).toEqual(clientKeyDigest(new TextEncoder().encode('clé-ünïcode')));
    expect(matchClientKey('clé-ünïcode', [configured('unicode', 'clé-ünïcode')])).toBe('unicode');
  });
});
