import type { ClientKeyRecordV1, GovernanceSnapshotV1, TenantRecordV1 } from '../v1/governance-store-v1.js';

/** Why a presented key was refused (the client sees one 401 for all; the operator log names the reason). */
export type KeyRefusalReason = 'unknown' | 'revoked' | 'expired' | 'tenant-disabled';

/** Who a request is, as the snapshot knows it. */
export interface GovernancePrincipal {
  readonly tenant: TenantRecordV1;
  readonly key: ClientKeyRecordV1;
}

/** The answer to a key lookup. */
export type KeyLookup = { readonly kind: 'found'; readonly principal: GovernancePrincipal } | { readonly kind: 'refused'; readonly reason: KeyRefusalReason };

/** Whether `model` matches a model access entry: an exact name, `*`, or a prefix pattern ending in `*` (`gpt-*`). */
export function modelPatternMatches(pattern: string, model: string): boolean {
  if (pattern === '*') return true;
  if (pattern.endsWith('*')) return model.startsWith(pattern.slice(0, -1));
  return pattern === model;
}

/**
 * One governance snapshot, indexed for the request path: keys by digest, tenants by id. Built once per governance
 * version; every lookup is a map read.
 */
export class GovernanceSnapshotView {
  readonly version: number;
  readonly #keysByDigest = new Map<string, ClientKeyRecordV1>();
  readonly #tenants = new Map<string, TenantRecordV1>();

  constructor(snapshot: GovernanceSnapshotV1) {
    this.version = snapshot.version;
    for (const tenant of snapshot.tenants) this.#tenants.set(tenant.id, tenant);
    for (const key of snapshot.keys) this.#keysByDigest.set(key.digest, key);
  }

  /** The key whose HMAC digest is `digest`, checked for revocation, expiry and its tenant's state at `nowMs`. */
  lookup(digest: string, nowMs: number): KeyLookup {
    const key = this.#keysByDigest.get(digest);
    if (key === undefined) return { kind: 'refused', reason: 'unknown' };
    const tenant = this.#tenants.get(key.tenantId);
    if (tenant === undefined) return { kind: 'refused', reason: 'unknown' };
    if (key.revokedAtMs !== undefined) return { kind: 'refused', reason: 'revoked' };
    if (key.expiresAtMs !== undefined && key.expiresAtMs <= nowMs) return { kind: 'refused', reason: 'expired' };
    if (tenant.disabled) return { kind: 'refused', reason: 'tenant-disabled' };
    return { kind: 'found', principal: { tenant, key } };
  }

  /** The tenant `id`, if the snapshot has it. */
  tenant(id: string): TenantRecordV1 | undefined {
    return this.#tenants.get(id);
  }
}

/** Whether `principal` may use `model`: its tenant's model access, narrowed by its key's when the key has one. */
export function mayUseModel(principal: GovernancePrincipal, model: string): boolean {
  if (!principal.tenant.modelAccess.some((pattern) => modelPatternMatches(pattern, model))) return false;
  const narrowed = principal.key.modelAccess;
  return narrowed === undefined || narrowed.some((pattern) => modelPatternMatches(pattern, model));
}
