import { hostname } from 'node:os';
import type { TargetHealthSnapshot } from '../routing/target-health-snapshot.js';
import type { TargetRouter } from '../routing/target-router.js';

/** This instance's view of its targets, what `GET /admin/v1/targets` serves. */
export interface GatewayTargetsReport {
  /** `<hostname>:<pid>`: which gateway process this is (state is per process). */
  readonly instance: string;
  /** When the report was taken (ISO 8601). */
  readonly at: string;
  /** Each target of the catalogue in force: health, cooldown, requests in flight, recent latency and error rate. */
  readonly targets: readonly TargetHealthSnapshot[];
}

/**
 * This process's per-target health, cooldown state, requests in flight and recent error rate and latency percentiles,
 * for the admin API (which owns the route and its admin key and adds each target's upstream pool use).
 */
export function describeTargets(router: Pick<TargetRouter, 'snapshot'>, now: () => Date = () => new Date()): GatewayTargetsReport {
  return { instance: `${hostname()}:${process.pid}`, at: now().toISOString(), targets: router.snapshot() };
}
