import type { GatewayBalanceV1 } from '../catalogue/gateway-catalogue-v1.js';

/** A target as the balancer sees it. */
export interface BalanceCandidate<Target> {
  readonly target: Target;
  /** Lower tiers first. */
  readonly tier: number;
  /** Share under `weighted`. */
  readonly weight: number;
  readonly inFlight: number;
  /** Undefined before the first measured answer. */
  readonly latencyEwmaMs: number | undefined;
  /** False while it cools down (or another request holds its probe): tried only after every admitted target. */
  readonly admitted: boolean;
}

/** `weighted` order: repeatedly draw one of the rest with probability proportional to its weight. */
function weightedOrder<Target>(candidates: readonly BalanceCandidate<Target>[], random: () => number): BalanceCandidate<Target>[] {
  const rest = [...candidates];
  const ordered: BalanceCandidate<Target>[] = [];
  while (rest.length > 0) {
    const total = rest.reduce((sum, candidate) => sum + candidate.weight, 0);
    let point = random() * total;
    let index = rest.findIndex((candidate) => (point -= candidate.weight) < 0);
    if (index === -1) index = rest.length - 1;
    ordered.push(...rest.splice(index, 1));
  }
  return ordered;
}

function orderTier<Target>(tier: readonly BalanceCandidate<Target>[], balance: GatewayBalanceV1, random: () => number): BalanceCandidate<Target>[] {
  switch (balance) {
    case 'ordered':
      return [...tier];
    case 'weighted':
      return weightedOrder(tier, random);
    case 'least-in-flight':
      // Stable: equal counts keep catalogue order.
      return [...tier].sort((a, b) => a.inFlight - b.inFlight);
    case 'latency':
      // Unmeasured targets first, so each gets measured.
      return [...tier].sort((a, b) => (a.latencyEwmaMs ?? -1) - (b.latencyEwmaMs ?? -1));
    default: {
      const never: never = balance;
      return never;
    }
  }
}

/**
 * The order a request tries its model's targets in: tiers lowest first, each tier in the balance's order, the
 * targets that are not admitted (cooling down) after all others in that same order, as a last resort. Pure: the
 * random source is passed in. Candidates come in catalogue order.
 */
export function orderTargets<Target>(candidates: readonly BalanceCandidate<Target>[], balance: GatewayBalanceV1, random: () => number = Math.random): Target[] {
  // A model with one target (the usual case) has one order, whatever the balance: no tiers, copies or draws.
  if (candidates.length === 1) return [(candidates[0] as BalanceCandidate<Target>).target];
  const tiers = [...new Set(candidates.map((candidate) => candidate.tier))].sort((a, b) => a - b);
  const ordered = tiers.flatMap((tier) => orderTier(candidates.filter((candidate) => candidate.tier === tier), balance, random));
  return [...ordered.filter((candidate) => candidate.admitted), ...ordered.filter((candidate) => !candidate.admitted)].map((candidate) => candidate.target);
}
