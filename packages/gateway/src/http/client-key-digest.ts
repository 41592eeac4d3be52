import { hash } from 'node:crypto';

/** The SHA-256 digest a client key is compared by (taken once per configured key, when the catalogue resolves). */
export function clientKeyDigest(key: Uint8Array | string): Buffer {
  return hash('sha256', key, 'buffer');
}
