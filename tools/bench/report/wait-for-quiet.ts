/**
 * Before a pooled run: wait (bounded) until the machine is quiet, so a build or test run that just ended does not
 * land in the first process's rounds. The one-minute load average decays slowly, so the wait polls it.
 */

/** Options of {@link waitForQuiet}. */
export interface WaitForQuietOptions {
  /** The one-minute load average now. */
  readonly load: () => number;
  /** Quiet means a load average at or below this. */
  readonly threshold: number;
  /** Give up after this many milliseconds and measure anyway. */
  readonly maxWaitMs: number;
  /** Polling interval. */
  readonly pollMs: number;
  /** Sleeps `ms` (injected for tests). */
  readonly sleep: (ms: number) => Promise<void>;
}

/** What {@link waitForQuiet} did. */
export interface QuietWait {
  readonly waitedMs: number;
  readonly loadBefore: number;
  readonly loadAfter: number;
  /** False when the time ran out first. */
  readonly quiet: boolean;
}

/** Polls the load average until it is at or below the threshold, at most `maxWaitMs`. */
export async function waitForQuiet(options: WaitForQuietOptions): Promise<QuietWait> {
  const loadBefore = options.load();
  let waitedMs = 0;
  let load = loadBefore;
  while (load > options.threshold && waitedMs < options.maxWaitMs) {
    const step = Math.min(options.pollMs, options.maxWaitMs - waitedMs);
    await options.sleep(step);
    waitedMs += step;
    load = options.load();
  }
  return { waitedMs, loadBefore, loadAfter: load, quiet: load <= options.threshold };
}
