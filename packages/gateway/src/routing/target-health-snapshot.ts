import type { TargetWindowSummary } from './target-latency-window.js';

/** Where a target stands in this process's outlier detection. */
export type TargetHealthState = 'healthy' | 'cooling-down' | 'probing';

/** One target's health as this process sees it (state per process, never shared between instances). */
export interface TargetHealthSnapshot {
  /** `<model>#<index>`, as the catalogue defines it. */
  readonly ref: string;
  /** The catalogue's provider of the target. */
  readonly provider: string;
  /** The public model the target serves. */
  readonly model: string;
  /** `healthy`; `cooling-down` (skipped until {@link TargetHealthSnapshot.cooldownRemainingMs} has passed); `probing` (one request is finding out). */
  readonly state: TargetHealthState;
  /** Failures of the counted classes within the current window. */
  readonly recentFailures: number;
  /** Milliseconds until the cooldown ends (0 when not cooling down). */
  readonly cooldownRemainingMs: number;
  /** Requests this process has in flight at the target. */
  readonly inFlight: number;
  /** Recent latency (exponentially weighted), in milliseconds; absent before the first success. */
  readonly latencyEwmaMs?: number;
  /** The attempts of the last 5 minutes in this process: how many, the error rate, latency p50, p90 and p99. */
  readonly recent?: TargetWindowSummary;
}
