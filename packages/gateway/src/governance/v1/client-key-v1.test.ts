import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  CLIENT_KEY_PATTERN_V1,
  clientKeyDisplayPrefixV1,
  digestsEqualV1,
  generateClientKeyV1,
  hashClientKeyV1,
} from './client-key-v1.js';

describe('client keys', () => {
  it('generates tf- keys of 43 base62 characters, all different', () => {
    const keys = new Set(Array.from({ length: 200 }, () => generateClientKeyV1()));
    expect(keys.size).toBe(200);
    for (const key of keys) expect(key).toMatch(CLIENT_KEY_PATTERN_V1);
  });

  it('skips bytes that would bias the alphabet', () => {
    let call = 0;
    const random = (size: number): Uint8Array => {
      call += 1;
      return new Uint8Array(size).fill(call === 1 ? 255 : 61);
    };
    expect(generateClientKeyV1(random)).toBe(`tf-${'z'.repeat(43)}`);
    expect(call).toBe(2);
  });

  it('hashes with HMAC-SHA256 under the server secret, and compares digests in constant time', () => {
    const key = generateClientKeyV1();
    const digest = hashClientKeyV1(key, 'secret-a');
    expect(digest).toBe(createHmac('sha256', 'secret-a').update(key).digest('hex'));
    expect(hashClientKeyV1(key, 'secret-b')).not.toBe(digest);
    expect(digestsEqualV1(digest, hashClientKeyV1(key, 'secret-a'))).toBe(true);
    expect(digestsEqualV1(digest, hashClientKeyV1(`${key}x`, 'secret-a'))).toBe(false);
    expect(digestsEqualV1(digest, digest.slice(1))).toBe(false);
  });

  it('keeps tf- and four characters for display', () => {
    expect(clientKeyDisplayPrefixV1('tf-3a9Cdefghij')).toBe('tf-3a9C');
  });
});
