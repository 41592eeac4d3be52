import type { AsyncJobStateV2 } from '@tokenforge/model-protocol';

/** The task states DashScope defines (`task_status` on GET, `status` on list; note `CANCELED` with one L). */
export const DASHSCOPE_TASK_STATUSES = ['PENDING', 'RUNNING', 'SUSPENDED', 'SUCCEEDED', 'FAILED', 'CANCELED', 'UNKNOWN'] as const;
/** One of {@link DASHSCOPE_TASK_STATUSES}. */
export type DashScopeTaskStatus = (typeof DASHSCOPE_TASK_STATUSES)[number];

/**
 * Maps DashScope's task status to the normalized state (fact sheet §5):
 *
 * - `PENDING` queued (the only state in which cancel works), `RUNNING` running, `SUCCEEDED` succeeded (for
 *   multi-output tasks: at least one output succeeded; see `outputCounts`), `FAILED` failed, `CANCELED` cancelled;
 * - `UNKNOWN` unknown: DashScope answers it for a task that does not exist or expired (data is kept 24 hours). The
 *   adapter is stateless and cannot tell "never existed" from "expired", so it reports `unknown` and leaves the
 *   "polled before, now gone" decision to the host, which knows its history;
 * - `SUSPENDED` unknown: it is in the SDK's constants but undocumented; calling it `queued` would be a guess;
 * - any other value, or none: unknown (never a guessed `queued`).
 */
export function mapDashScopeJobState(status: string | undefined): AsyncJobStateV2 {
  if (status === undefined || !(DASHSCOPE_TASK_STATUSES as readonly string[]).includes(status)) return 'unknown';
  const known = status as DashScopeTaskStatus;
  switch (known) {
    case 'PENDING':
      return 'queued';
    case 'RUNNING':
      return 'running';
    case 'SUCCEEDED':
      return 'succeeded';
    case 'FAILED':
      return 'failed';
    case 'CANCELED':
      return 'cancelled';
    case 'SUSPENDED':
    case 'UNKNOWN':
      return 'unknown';
    default: {
      const unreachable: never = known;
      return unreachable;
    }
  }
}
