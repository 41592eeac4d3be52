import { clientKeyDisplayPrefixV1 } from '../v1/client-key-v1.js';
import type { GovernanceStoreV1 } from '../v1/governance-store-v1.js';

/** The actor the audit trail names for changes the gateway makes at start. */
export const STARTUP_ACTOR = 'gateway-start';

/** A catalogue client key: its id and its value (read from the environment). */
export interface StaticClientKey {
  readonly id: string;
  readonly key: string;
}

/** The store id of a static key: the catalogue id and the first characters of its digest (a changed value is a new key). */
export function staticKeyId(clientKeyId: string, digest: string): string {
  return `static.${clientKeyId}.${digest.slice(0, 12)}`;
}

/**
 * Makes each of the catalogue's static `clientKeys` a tenant of its own (id = the key's catalogue id, all models,
 * no limits) holding that key, so that configs written before governance keep working. A tenant that exists is left
 * as the admin API last set it; a static key whose environment value changed gets a new key record and the old one
 * is revoked. Idempotent: a second start with the same keys changes nothing (and creates no governance version).
 */
export async function seedStaticClientKeys(store: GovernanceStoreV1, keys: readonly StaticClientKey[], digestOf: (key: string) => string): Promise<void> {
  if (keys.length === 0) return;
  const tenants = new Set((await store.admin.listTenants()).map((tenant) => tenant.id));
  const existing = await store.admin.listKeys();
  for (const { id, key } of keys) {
    if (!tenants.has(id)) {
      await store.admin.createTenant({ id, name: id, modelAccess: ['*'], limits: {}, disabled: false }, STARTUP_ACTOR);
      tenants.add(id);
    }
    const digest = digestOf(key);
    const keyId = staticKeyId(id, digest);
    const prefix = `static.${id}.`;
    for (const stale of existing) {
      if (stale.id.startsWith(prefix) && stale.id !== keyId && stale.revokedAtMs === undefined) await store.admin.revokeKey(stale.id, STARTUP_ACTOR);
    }
    if (!existing.some((record) => record.id === keyId)) {
      await store.admin.createKey({ id: keyId, tenantId: id, digest, displayPrefix: clientKeyDisplayPrefixV1(key) }, STARTUP_ACTOR);
    }
  }
}
