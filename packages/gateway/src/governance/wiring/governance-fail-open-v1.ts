import type { GovernanceLimitsV1 } from '../v1/governance-store-v1.js';

/** Which limits let requests through when the governance store cannot be reached (each default `false`: closed). */
export interface GovernanceFailOpenV1 {
  readonly requestsPerMinute?: boolean | undefined;
  readonly tokensPerMinute?: boolean | undefined;
  readonly concurrentRequests?: boolean | undefined;
  readonly budget?: boolean | undefined;
}

/**
 * Whether an attempt is let through unmetered while the store is unavailable: only when every limit the tenant and
 * the key hold is marked fail-open. A tenant with no limits at all is let through (it has nothing to enforce).
 */
export function failsOpen(policy: GovernanceFailOpenV1, ...holders: readonly (GovernanceLimitsV1 | undefined)[]): boolean {
  for (const limits of holders) {
    if (limits === undefined) continue;
    for (const name of ['requestsPerMinute', 'tokensPerMinute', 'concurrentRequests', 'budget'] as const) {
      if (limits[name] !== undefined && policy[name] !== true) return false;
    }
  }
  return true;
}
