import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { hmacSha256, sha256 } from './hmac-sha256.js';

const hex = (bytes: Uint8Array | ArrayBuffer): string => Array.from(new Uint8Array(bytes), (byte) => byte.toString(16).padStart(2, '0')).join('');

describe('hmacSha256', () => {
  it('matches the FIPS 180-4 and RFC 4231 test vectors', () => {
    expect(hex(sha256(new TextEncoder().encode('abc')))).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    expect(hex(sha256(new Uint8Array(0)))).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
    // RFC 4231 test case 2.
    expect(hex(hmacSha256(new TextEncoder().encode('Jefe'), new TextEncoder().encode('what do ya want for nothing?')))).toBe(
      '5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843',
    );
  });

  it('equals crypto.subtle at every padding boundary', async () => {
    for (let length = 0; length <= 200; length += 1) {
      const message = Uint8Array.from({ length }, (_, index) => (index * 31 + 7) & 0xff);
      expect(hex(sha256(message))).toBe(hex(await crypto.subtle.digest('SHA-256', message)));
    }
  });

  it('equals crypto.subtle for any key and message', async () => {
    await fc.assert(
      fc.asyncProperty(fc.uint8Array({ minLength: 1, maxLength: 150 }), fc.uint8Array({ maxLength: 300 }), async (key, message) => {
        const imported = await crypto.subtle.importKey('raw', key, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
        expect(hex(hmacSha256(key, message))).toBe(hex(await crypto.subtle.sign('HMAC', imported, message)));
      }),
      { numRuns: 300 },
    );
  });
});
