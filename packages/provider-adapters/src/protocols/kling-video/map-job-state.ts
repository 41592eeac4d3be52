import type { AsyncJobStateV2 } from '@tokenforge/model-protocol';

/** The task states Kling documents (`task_status`; note `succeed`, not `succeeded`). */
export const KLING_TASK_STATUSES = ['submitted', 'processing', 'succeed', 'failed'] as const;
/** One of {@link KLING_TASK_STATUSES}. */
export type KlingTaskStatus = (typeof KLING_TASK_STATUSES)[number];

/**
 * Maps Kling's `task_status` to the normalized state: `submitted` queued, `processing` running, `succeed`
 * succeeded, `failed` failed. Anything else (or no status) is `unknown`, never a guessed `queued`: a host keeps
 * polling it with its own backoff and deadline (fact sheet §0). Kling has no cancel, so `cancelled` never appears.
 */
export function mapKlingJobState(status: string | undefined): AsyncJobStateV2 {
  if (status === undefined || !(KLING_TASK_STATUSES as readonly string[]).includes(status)) return 'unknown';
  const known = status as KlingTaskStatus;
  switch (known) {
    case 'submitted':
      return 'queued';
    case 'processing':
      return 'running';
    case 'succeed':
      return 'succeeded';
    case 'failed':
      return 'failed';
    default: {
      const unreachable: never = known;
      return unreachable;
    }
  }
}
