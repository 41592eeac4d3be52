import { describeDemoError } from './demo-clients.js';

/** The columns of the support matrix. */
export const DEMO_CELL_KEYS = ['sync', 'stream', 'async', 'get', 'list', 'cancel'] as const;
export type DemoCellKey = (typeof DEMO_CELL_KEYS)[number];

/** The observed outcome of one cell. */
export interface DemoCell {
  /**
   * `n/a` when the row does not declare the operation; `skipped` when the row needs something this machine does not
   * have (the agent-clients install), `detail` saying what.
   */
  readonly status: 'pass' | 'fail' | 'n/a' | 'skipped';
  /** Wall time of the call in milliseconds, as the client saw it (pass or fail). */
  readonly latencyMs?: number;
  /** A short description of what the client observed. */
  readonly detail?: string;
}

/** Runs one call and times it as the client sees it. */
export async function timedCell(run: () => Promise<string>): Promise<DemoCell> {
  const started = performance.now();
  try {
    const detail = await run();
    return { status: 'pass', latencyMs: performance.now() - started, detail };
  } catch (error) {
    return { status: 'fail', latencyMs: performance.now() - started, detail: describeDemoError(error) };
  }
}
