import { createHmac } from 'node:crypto';

const LABEL = 'tokenforge opaque reasoning state key v1';

/**
 * The key of the opaque reasoning state seal from a persisted secret: the embedded store's `opaque-state-secret` file,
 * or, with the shared store, `TOKENFORGE_KEY_HASHING_SECRET` (required and the same on every instance already), under
 * a label of its own so the seal never uses the key-hashing key itself. Every instance and every restart that reads
 * the same secret opens what another sealed.
 */
export function opaqueStateKeyFrom(secret: string): Uint8Array {
  return new Uint8Array(createHmac('sha256', secret).update(LABEL).digest());
}
