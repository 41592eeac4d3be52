import { createOpaqueStateSeal, type OpaqueStateSeal } from '@tokenforge/provider-adapters';
import type { ResolvedCatalogue } from '../runtime/resolve-catalogue.js';

const seals = new WeakMap<ResolvedCatalogue, OpaqueStateSeal>();
let processKey: Uint8Array | undefined;

/**
 * The seal of opaque reasoning state carried across dialects, keyed (the seal derives its own key) by, in order:
 * `persistedKey`, the runtime's key from a persisted secret (governance on: the embedded store's data directory, or
 * the shared store's `TOKENFORGE_KEY_HASHING_SECRET`), so sealed values open after a restart and on every instance;
 * else the catalogue's signing key (`jobs.signingKeyEnv`); else a random key of this process (then a value sealed
 * before a restart, or by another instance, is dropped on replay, never forwarded).
 */
export function opaqueStateSealFor(catalogue: ResolvedCatalogue, persistedKey?: Uint8Array): OpaqueStateSeal {
  let seal = seals.get(catalogue);
  if (seal === undefined) {
    processKey ??= crypto.getRandomValues(new Uint8Array(32));
    seal = createOpaqueStateSeal(persistedKey ?? catalogue.signingKey ?? processKey);
    seals.set(catalogue, seal);
  }
  return seal;
}
