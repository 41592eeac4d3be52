import type { TargetHealthState } from './target-health-snapshot.js';
import { TargetLatencyWindow, type TargetWindowSummary } from './target-latency-window.js';

/** A cooldown policy with its defaults filled in. */
export interface CooldownPolicy {
  readonly failures: number;
  readonly windowMs: number;
  readonly cooldownMs: number;
  /** The failure codes that count. */
  readonly classes: ReadonlySet<string>;
}

/** The defaults of a catalogue `cooldown` block. */
export const DEFAULT_COOLDOWN = { failures: 3, windowMs: 10_000, cooldownMs: 30_000, classes: ['network', 'timeout', 'overloaded', 'provider-error'] } as const;

/** How much a new latency sample weighs in the moving average. */
const LATENCY_SMOOTHING = 0.3;

/**
 * One target's health in this process: requests in flight, recent latency, and outlier ejection. Failures of the
 * policy's classes within its window start a cooldown; when it ends, the first request to ask claims the single
 * probe (a claim lapses after one more cooldown if no result came back); the probe's result ends it.
 * Pure state over an injected clock: `now` is passed in by the caller.
 */
export class TargetHealth {
  readonly #policy: CooldownPolicy | undefined;
  #failures: number[] = [];
  #cooldownUntil = 0;
  #probeClaimedUntil = 0;
  #inFlight = 0;
  #latencyEwmaMs: number | undefined;
  readonly #window = new TargetLatencyWindow();

  constructor(policy: CooldownPolicy | undefined) {
    this.#policy = policy;
  }

  get inFlight(): number {
    return this.#inFlight;
  }

  get latencyEwmaMs(): number | undefined {
    return this.#latencyEwmaMs;
  }

  /** The error rate and latency percentiles of the recent attempts (see {@link TargetLatencyWindow}). */
  recent(now: number): TargetWindowSummary {
    return this.#window.summary(now);
  }

  /** `healthy`, `cooling-down` (skip it), or `probing` (its cooldown ended; one request may try it). */
  state(now: number): TargetHealthState {
    if (this.#cooldownUntil === 0) return 'healthy';
    return now < this.#cooldownUntil ? 'cooling-down' : 'probing';
  }

  /** Failures of the counted classes within the window ending at `now`. */
  recentFailures(now: number): number {
    const windowMs = this.#policy?.windowMs ?? 0;
    return this.#failures.filter((at) => at > now - windowMs).length;
  }

  /** Milliseconds of cooldown left at `now`. */
  cooldownRemainingMs(now: number): number {
    return Math.max(0, this.#cooldownUntil - now);
  }

  /**
   * Whether a request may use the target now: always when healthy; never while cooling down; once the cooldown has
   * ended, only the request that claims the probe (the claim is taken by this call).
   */
  admits(now: number): boolean {
    const state = this.state(now);
    if (state === 'healthy') return true;
    if (state === 'cooling-down' || now < this.#probeClaimedUntil) return false;
    this.#probeClaimedUntil = now + (this.#policy?.cooldownMs ?? 0);
    return true;
  }

  /** An attempt started; call the returned function once with its result. */
  begin(): void {
    this.#inFlight += 1;
  }

  /**
   * The attempt got an answer (or a failure of a class that does not count: the target is reachable). With
   * `stillOpen` (a stream whose head arrived) the request stays in flight until {@link TargetHealth.ended}.
   */
  succeeded(latencyMs: number, stillOpen = false, now?: number): void {
    if (now !== undefined) this.#window.record(now, latencyMs, false);
    if (!stillOpen) this.#inFlight = Math.max(0, this.#inFlight - 1);
    this.#latencyEwmaMs = this.#latencyEwmaMs === undefined ? latencyMs : this.#latencyEwmaMs + LATENCY_SMOOTHING * (latencyMs - this.#latencyEwmaMs);
    this.#failures = [];
    this.#cooldownUntil = 0;
    this.#probeClaimedUntil = 0;
  }

  /** A stream that {@link TargetHealth.succeeded} left open has ended. */
  ended(): void {
    this.#inFlight = Math.max(0, this.#inFlight - 1);
  }

  /** The attempt failed with `code` at `now`. */
  failed(code: string, now: number, latencyMs: number): void {
    this.#window.record(now, latencyMs, true);
    const policy = this.#policy;
    if (policy === undefined || !policy.classes.has(code)) {
      this.succeeded(latencyMs);
      return;
    }
    this.#inFlight = Math.max(0, this.#inFlight - 1);
    if (this.#cooldownUntil !== 0) {
      // A failed probe (or a failure of a last-resort attempt while cooling down): another full cooldown.
      this.#cooldownUntil = now + policy.cooldownMs;
      this.#probeClaimedUntil = 0;
      return;
    }
    this.#failures = [...this.#failures.filter((at) => at > now - policy.windowMs), now];
    if (this.#failures.length >= policy.failures) {
      this.#cooldownUntil = now + policy.cooldownMs;
      this.#failures = [];
    }
  }
}
