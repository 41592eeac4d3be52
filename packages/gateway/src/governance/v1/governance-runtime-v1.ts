import { digestsEqualV1, hashClientKeyV1 } from './client-key-v1.js';
import type { ClientKeyRecordV1, GovernanceSnapshotV1, GovernanceStoreV1, TenantRecordV1 } from './governance-store-v1.js';

/** Options of {@link createGovernanceRuntimeV1}. */
export interface GovernanceRuntimeOptionsV1 {
  /** Where the snapshot and the governance version come from. */
  readonly store: Pick<GovernanceStoreV1, 'loadSnapshot' | 'currentVersion'>;
  /** The key-hashing secret (the same on every instance). */
  readonly keyHashingSecret: string | Uint8Array;
  /** How often the governance version is polled; default 1000 ms. */
  readonly pollIntervalMs?: number;
  /** The clock key expiry is judged by; default `Date.now`. */
  readonly clock?: () => number;
  /** Called when a poll or reload fails; the snapshot in use is kept. */
  readonly onReloadError?: (error: unknown) => void;
}

/** Who a presented key is, once authenticated. */
export interface GovernanceIdentityV1 {
  readonly tenant: TenantRecordV1;
  readonly key: ClientKeyRecordV1;
}

/** Why a presented key is refused: unknown, or known and refused (the operator log names which, never the key). */
export type AuthenticationRefusalV1 = 'unknown-key' | 'revoked-key' | 'expired-key' | 'tenant-disabled';

/** The answer to {@link GovernanceRuntimeV1.authenticate}. */
export type AuthenticationResultV1 =
  | ({ readonly kind: 'authenticated' } & GovernanceIdentityV1)
  | { readonly kind: 'refused'; readonly reason: AuthenticationRefusalV1; readonly keyId?: string; readonly tenantId?: string };

/** The snapshot an instance authenticates and admits by, kept current with the store's governance version. */
export interface GovernanceRuntimeV1 {
  /** Loads the first snapshot and starts polling. */
  start(): Promise<void>;
  /** Stops polling. */
  stop(): void;
  /** Checks the version now and reloads when it changed (call it after an admin change made on this instance). */
  refresh(): Promise<void>;
  /** The governance version this instance has applied (for readiness and metrics). */
  appliedVersion(): number;
  /** Authenticates a presented key: HMAC digest lookup, constant-time digest compare, revocation, expiry, tenant. */
  authenticate(presentedKey: string): AuthenticationResultV1;
  /** Whether the identity may use a public model: the tenant's names and `*` patterns, narrowed by the key's. */
  mayUseModel(identity: GovernanceIdentityV1, publicModel: string): boolean;
}

type ModelMatcher = (publicModel: string) => boolean;

function compileModelAccess(patterns: readonly string[]): ModelMatcher {
  const names = new Set<string>();
  const expressions: RegExp[] = [];
  for (const pattern of patterns) {
    if (!pattern.includes('*')) {
      names.add(pattern);
      continue;
    }
    const source = pattern
      .split('*')
      .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
      .join('.*');
    expressions.push(new RegExp(`^${source}$`, 's'));
  }
  return (publicModel) => names.has(publicModel) || expressions.some((expression) => expression.test(publicModel));
}

interface AppliedSnapshot {
  readonly version: number;
  readonly keysByDigest: ReadonlyMap<string, ClientKeyRecordV1>;
  readonly tenants: ReadonlyMap<string, TenantRecordV1>;
  readonly tenantAccess: ReadonlyMap<string, ModelMatcher>;
  readonly keyAccess: ReadonlyMap<string, ModelMatcher>;
}

function apply(snapshot: GovernanceSnapshotV1): AppliedSnapshot {
  const keysByDigest = new Map<string, ClientKeyRecordV1>();
  const keyAccess = new Map<string, ModelMatcher>();
  for (const key of snapshot.keys) {
    keysByDigest.set(key.digest, key);
    if (key.modelAccess !== undefined) keyAccess.set(key.id, compileModelAccess(key.modelAccess));
  }
  const tenants = new Map<string, TenantRecordV1>();
  const tenantAccess = new Map<string, ModelMatcher>();
  for (const tenant of snapshot.tenants) {
    tenants.set(tenant.id, tenant);
    tenantAccess.set(tenant.id, compileModelAccess(tenant.modelAccess));
  }
  return { version: snapshot.version, keysByDigest, tenants, tenantAccess, keyAccess };
}

/**
 * Creates the runtime the admit and authenticate stages read: the snapshot lives in memory, so no database is on a
 * request's path; it is reloaded whenever the store's governance version differs from the applied one (polled every
 * `pollIntervalMs`, and at once on {@link GovernanceRuntimeV1.refresh}).
 */
export function createGovernanceRuntimeV1(options: GovernanceRuntimeOptionsV1): GovernanceRuntimeV1 {
  const clock = options.clock ?? Date.now;
  const pollIntervalMs = options.pollIntervalMs ?? 1000;
  let applied: AppliedSnapshot = apply({ version: -1, tenants: [], keys: [] });
  let timer: NodeJS.Timeout | undefined;
  let pending: Promise<void> | undefined;

  const reloadIfChanged = async (): Promise<void> => {
    const version = await options.store.currentVersion();
    if (version === applied.version) return;
    const snapshot = await options.store.loadSnapshot();
    if (snapshot.version >= applied.version) applied = apply(snapshot);
  };
  const refresh = (): Promise<void> => {
    pending ??= reloadIfChanged().finally(() => {
      pending = undefined;
    });
    return pending;
  };
  const poll = (): void => {
    timer = setTimeout(() => {
      refresh()
        .catch((error: unknown) => options.onReloadError?.(error))
        .finally(() => {
          if (timer !== undefined) poll();
        });
    }, pollIntervalMs);
    timer.unref();
  };

  return {
    async start() {
      await refresh();
      poll();
    },
    stop() {
      if (timer !== undefined) clearTimeout(timer);
      timer = undefined;
    },
    async refresh() {
      // A poll may be under way with the version read before the change: wait for it, then check again.
      await pending?.catch(() => undefined);
      await refresh();
    },
    appliedVersion: () => applied.version,
    authenticate(presentedKey) {
      const digest = hashClientKeyV1(presentedKey, options.keyHashingSecret);
      const key = applied.keysByDigest.get(digest);
      if (key === undefined || !digestsEqualV1(digest, key.digest)) return { kind: 'refused', reason: 'unknown-key' };
      const known = { keyId: key.id, tenantId: key.tenantId };
      if (key.revokedAtMs !== undefined) return { kind: 'refused', reason: 'revoked-key', ...known };
      if (key.expiresAtMs !== undefined && clock() >= key.expiresAtMs) return { kind: 'refused', reason: 'expired-key', ...known };
      const tenant = applied.tenants.get(key.tenantId);
      if (tenant === undefined || tenant.disabled) return { kind: 'refused', reason: 'tenant-disabled', ...known };
      return { kind: 'authenticated', tenant, key };
    },
    mayUseModel(identity, publicModel) {
      const tenantAllows = applied.tenantAccess.get(identity.tenant.id) ?? compileModelAccess(identity.tenant.modelAccess);
      if (!tenantAllows(publicModel)) return false;
      if (identity.key.modelAccess === undefined) return true;
      const keyAllows = applied.keyAccess.get(identity.key.id) ?? compileModelAccess(identity.key.modelAccess);
      return keyAllows(publicModel);
    },
  };
}
