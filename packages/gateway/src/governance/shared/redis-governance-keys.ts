/**
 * Redis key names of the shared store. Everything of one tenant (and of its keys) sits under the hash tag
 * `{t:<tenant>}`, so one admission's keys share one slot; the outbox and the version counter are global. The shared
 * store therefore needs one Redis primary (with replicas or Sentinel as wanted), not Redis Cluster: a settlement
 * writes its tenant's keys and the global outbox in one script.
 */
export const redisGovernanceKeys = {
  /** `tf:{t:<tenant>}:` (tenant ids are letters, digits, `.`, `_`, `-`: never a brace). */
  tenantPrefix: (tenantId: string): string => `tf:{t:${tenantId}}:`,
  /** The key-level prefix inside the tenant's tag. */
  keyPrefix: (tenantId: string, keyId: string): string => `tf:{t:${tenantId}}:k:${keyId}:`,
  outbox: 'tf:governance:outbox',
  deadLetter: 'tf:governance:outbox-dead',
  outboxGroup: 'ledger-writers',
  version: 'tf:governance:version',
  /** The failed console sign-ins of one client address (a sorted set of failure times). */
  signInFailures: (address: string): string => `tf:console:sign-in-failures:${address}`,
} as const;

/** The five keys of one limit holder: request log, token log, token weights, slots, budget. */
export function holderKeys(prefix: string): readonly [string, string, string, string, string] {
  return [`${prefix}rq`, `${prefix}tk`, `${prefix}tkn`, `${prefix}sl`, `${prefix}bg`];
}
