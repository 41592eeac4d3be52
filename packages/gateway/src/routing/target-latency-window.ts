/** How far back a target's error rate and latency percentiles look (5 minutes). */
export const TARGET_WINDOW_MS = 5 * 60_000;
/** The most attempts one target's window keeps (the oldest leave first). */
export const TARGET_WINDOW_MAX_SAMPLES = 2048;

/** A target's recent attempts summed up: how many, the share that failed, and latency percentiles of the answered ones. */
export interface TargetWindowSummary {
  /** Attempts that ended within the window. */
  readonly attempts: number;
  /** Failed attempts over all attempts in the window, 0 to 1 (0 without attempts). */
  readonly errorRate: number;
  /** Nearest-rank percentiles of the answered attempts' latency (to the answer or the stream's head), in ms; absent without one. */
  readonly latencyP50Ms?: number;
  readonly latencyP90Ms?: number;
  readonly latencyP99Ms?: number;
}

/**
 * One target's recent attempts in this process: when each ended, its latency, whether it failed. A ring of at most
 * {@link TARGET_WINDOW_MAX_SAMPLES} entries in parallel typed arrays (no object per attempt); recording is O(1), the
 * summary sorts the answered latencies in the window (for the admin API, not the request path).
 */
export class TargetLatencyWindow {
  readonly #at = new Float64Array(TARGET_WINDOW_MAX_SAMPLES);
  readonly #latency = new Float64Array(TARGET_WINDOW_MAX_SAMPLES);
  readonly #failed = new Uint8Array(TARGET_WINDOW_MAX_SAMPLES);
  #next = 0;
  #size = 0;

  constructor(readonly windowMs = TARGET_WINDOW_MS) {}

  record(at: number, latencyMs: number, failed: boolean): void {
    this.#at[this.#next] = at;
    this.#latency[this.#next] = latencyMs;
    this.#failed[this.#next] = failed ? 1 : 0;
    this.#next = (this.#next + 1) % TARGET_WINDOW_MAX_SAMPLES;
    this.#size = Math.min(this.#size + 1, TARGET_WINDOW_MAX_SAMPLES);
  }

  summary(now: number): TargetWindowSummary {
    const answered: number[] = [];
    let attempts = 0;
    let failures = 0;
    for (let index = 0; index < this.#size; index += 1) {
      if ((this.#at[index] ?? 0) <= now - this.windowMs) continue;
      attempts += 1;
      if (this.#failed[index] === 1) failures += 1;
      else answered.push(this.#latency[index] ?? 0);
    }
    answered.sort((left, right) => left - right);
    const rank = (p: number): number => Math.round(answered[Math.max(0, Math.ceil(p * answered.length) - 1)] ?? 0);
    return {
      attempts,
      errorRate: attempts === 0 ? 0 : Math.round((failures / attempts) * 10_000) / 10_000,
      ...(answered.length === 0 ? {} : { latencyP50Ms: rank(0.5), latencyP90Ms: rank(0.9), latencyP99Ms: rank(0.99) }),
    };
  }
}
