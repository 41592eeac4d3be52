import type { ProviderAsyncJobListInputV2, ProviderAsyncJobListPageV2, ProviderAsyncJobSnapshotV2 } from '@tokenforge/model-protocol';
import { ProtocolViolationError } from '../../codec-kit/index.js';
import { decodeKlingJobSnapshot } from './decode-job-snapshot.js';
import type { KlingListSlice } from './plan-job-list.js';
import type { KlingWireTask } from './wire-readers.js';

/** One endpoint's answer to its slice. */
export interface KlingListSliceAnswer {
  /** The slice that was requested. */
  readonly slice: KlingListSlice;
  /** The tasks of the answer's `data` array. */
  readonly tasks: readonly KlingWireTask[];
}

function inWindow(item: ProviderAsyncJobSnapshotV2, afterMs: number | undefined, beforeMs: number | undefined): boolean {
  // A job without a creation time cannot be placed; it stays in, so reconciliation never misses it.
  if (item.createdAt === undefined) return true;
  const createdMs = Date.parse(item.createdAt);
  return (afterMs === undefined || createdMs >= afterMs) && (beforeMs === undefined || createdMs < beforeMs);
}

/**
 * Merges the text2video and image2video answers of one host page (see `planKlingJobList`) into a list page:
 *
 * - items: text2video tasks then image2video tasks, in the provider's order, each decoded like a get; the creation
 *   window, which Kling cannot filter, is applied here (jobs without `created_at` are kept);
 * - `total` (`lower-bound`; Kling reports no total): without a window, per endpoint `(p-1) * size + count` when the
 *   slice holds any task (pages before it were full), else 0, summed; with a window only this page's kept items
 *   (earlier pages may hold jobs outside the window), never more;
 * - `pagesForWindow`: the host's page number once both endpoints answered a short slice (both lists end here), else
 *   absent (unknown).
 *
 * @throws {ProtocolViolationError} for a slice with more tasks than requested, or a task that decodes badly.
 */
export function decodeKlingJobList(answers: readonly KlingListSliceAnswer[], list: ProviderAsyncJobListInputV2): ProviderAsyncJobListPageV2 {
  const afterMs = list.createdAfter === undefined ? undefined : Date.parse(list.createdAfter);
  const beforeMs = list.createdBefore === undefined ? undefined : Date.parse(list.createdBefore);
  const windowed = afterMs !== undefined || beforeMs !== undefined;
  const items: ProviderAsyncJobSnapshotV2[] = [];
  let seenThroughPage = 0;
  let allShort = true;
  for (const { slice, tasks } of answers) {
    if (tasks.length > slice.pageSize) {
      throw new ProtocolViolationError('invalid-event', 'Kling list data holds more tasks than the page size');
    }
    if (tasks.length > 0) seenThroughPage += (slice.pageNum - 1) * slice.pageSize + tasks.length;
    if (tasks.length === slice.pageSize) allShort = false;
    tasks.forEach((task, index) => {
      const item = decodeKlingJobSnapshot(task, slice.endpoint, `${slice.endpoint}.data[${index}]`);
      if (inWindow(item, afterMs, beforeMs)) items.push(item);
    });
  }
  return {
    items,
    total: windowed ? items.length : seenThroughPage,
    totalKind: 'lower-bound',
    ...(allShort ? { pagesForWindow: list.pageNum } : {}),
  };
}
