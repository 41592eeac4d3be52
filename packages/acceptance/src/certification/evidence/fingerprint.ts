import { createHash } from 'node:crypto';

/** Hex characters kept of a SHA-256 digest: 64 bits, enough to match, too few to be worth reversing. */
export const FINGERPRINT_HEX_LENGTH = 16;

/** A truncated SHA-256 fingerprint: `sha256:` and 16 hex characters. */
export type Fingerprint = `sha256:${string}`;

/** Pattern of a {@link Fingerprint}. */
export const FINGERPRINT_PATTERN = /^sha256:[0-9a-f]{16}$/;

/**
 * Fingerprints `value` under a purpose label, so a job id and a case id with equal text never share a fingerprint.
 */
export function fingerprint(purpose: string, value: string): Fingerprint {
  const digest = createHash('sha256').update(`tokenforge-certification/v1\u0000${purpose}\u0000${value}`, 'utf8').digest('hex');
  return `sha256:${digest.slice(0, FINGERPRINT_HEX_LENGTH)}`;
}

/** JSON with object keys sorted at every level, so equal documents fingerprint equally whatever their key order. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, item: unknown) => {
    if (item === null || typeof item !== 'object' || Array.isArray(item)) return item;
    const record = item as Record<string, unknown>;
    return Object.fromEntries(Object.keys(record).sort().map((key) => [key, record[key]]));
  });
}
