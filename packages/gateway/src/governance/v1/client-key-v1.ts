import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** Base62 characters after `tf-` in a generated key: 43 of them carry about 256 bits. */
export const CLIENT_KEY_RANDOM_LENGTH_V1 = 43;

/** Characters of a key kept for display: `tf-` and the first 4 random characters (`tf-3a9C`). */
export const CLIENT_KEY_DISPLAY_PREFIX_LENGTH_V1 = 7;

/** The shape of a generated client key. */
export const CLIENT_KEY_PATTERN_V1 = /^tf-[0-9A-Za-z]{43}$/;

/**
 * A new client key, `tf-` and {@link CLIENT_KEY_RANDOM_LENGTH_V1} uniformly random base62 characters (rejection
 * sampling, no modulo bias). It is shown once; only its {@link hashClientKeyV1} digest and display prefix are kept.
 */
export function generateClientKeyV1(random: (size: number) => Uint8Array = randomBytes): string {
  let key = 'tf-';
  while (key.length < 3 + CLIENT_KEY_RANDOM_LENGTH_V1) {
    for (const byte of random(64)) {
      if (byte >= 248) continue;
      key += BASE62[byte % 62];
      if (key.length === 3 + CLIENT_KEY_RANDOM_LENGTH_V1) break;
    }
  }
  return key;
}

/** HMAC-SHA256 of a presented key under the server's key-hashing secret, lowercase hex: what the store keeps. */
export function hashClientKeyV1(key: string, secret: Uint8Array | string): string {
  return createHmac('sha256', secret).update(key, 'utf8').digest('hex');
}

/** The first characters of a key, for people to recognise it in the admin API and the console. */
export function clientKeyDisplayPrefixV1(key: string): string {
  return key.slice(0, CLIENT_KEY_DISPLAY_PREFIX_LENGTH_V1);
}

/** Compares two hex digests in constant time (false when their lengths differ). */
export function digestsEqualV1(left: string, right: string): boolean {
  const a = Buffer.from(left, 'utf8');
  const b = Buffer.from(right, 'utf8');
  return a.length === b.length && timingSafeEqual(a, b);
}
