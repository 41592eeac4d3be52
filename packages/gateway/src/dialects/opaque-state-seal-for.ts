import { createOpaqueStateSeal, type OpaqueStateSeal } from '@tokenforge/provider-adapters';
import type { ResolvedCatalogue } from '../runtime/resolve-catalogue.js';

const seals = new WeakMap<ResolvedCatalogue, OpaqueStateSeal>();
let processKey: Uint8Array | undefined;

/**
 * The seal of opaque reasoning state carried across dialects: keyed by the catalogue's signing key (`jobs.signingKeyEnv`,
 * the embedded catalogue's default; the seal derives its own key from it), else by a random key of this process (then
 * a value sealed before a restart, or by another instance, is dropped on replay, never forwarded).
 */
export function opaqueStateSealFor(catalogue: ResolvedCatalogue): OpaqueStateSeal {
  let seal = seals.get(catalogue);
  if (seal === undefined) {
    processKey ??= crypto.getRandomValues(new Uint8Array(32));
    seal = createOpaqueStateSeal(catalogue.signingKey ?? processKey);
    seals.set(catalogue, seal);
  }
  return seal;
}
