import type { ProviderAsyncJobListInputV2, ProviderAsyncJobListPageV2, ProviderAsyncJobSnapshotV2 } from '@tokenforge/model-protocol';
import { ProtocolViolationError } from '../../codec-kit/index.js';
import { convertDashScopeEpochMs } from './convert-timestamps.js';
import { mapDashScopeJobState } from './map-job-state.js';
import type { DashScopeWireTaskList } from './wire-readers.js';

const RAW_STATE = /^[A-Za-z0-9_.:-]{1,64}$/;
const TASK_ID = /^[\x21-\x7e]{1,256}$/;

/**
 * Turns a `GET /tasks` answer into a list page (fact sheet §5 edge case 7: `status`, not `task_status`; times are
 * epoch milliseconds; `start_time` / `end_time` may be missing). Items carry state, `createdAt` (`gmt_create`) and
 * `finishedAt` (`end_time`); a list item has no results or errors (get the task for those).
 *
 * - Without a window: `total` is DashScope's `total` (`exact`); if it reported none, a lower bound as for Kling.
 * - With a window: DashScope filtered a window widened to whole seconds, and the adapter drops items outside the
 *   exact window, so the provider's total may count a few edge jobs: `total` is then the kept items of this page
 *   (`lower-bound`), never more.
 * - `pagesForWindow` is DashScope's `total_page` (pages of the widened window at this page size), when reported.
 *
 * @throws {ProtocolViolationError} for more items than the page size, a bad id or a time out of range.
 */
export function decodeDashScopeJobList(answer: DashScopeWireTaskList, list: ProviderAsyncJobListInputV2): ProviderAsyncJobListPageV2 {
  if (answer.items.length > list.pageSize) throw new ProtocolViolationError('invalid-event', 'DashScope list data holds more items than the page size');
  const afterMs = list.createdAfter === undefined ? undefined : Date.parse(list.createdAfter);
  const beforeMs = list.createdBefore === undefined ? undefined : Date.parse(list.createdBefore);
  const windowed = afterMs !== undefined || beforeMs !== undefined;
  const items: ProviderAsyncJobSnapshotV2[] = [];
  answer.items.forEach((item, index) => {
    if (!TASK_ID.test(item.taskId)) throw new ProtocolViolationError('invalid-event', `DashScope data[${index}].task_id is not a usable id`);
    if (item.gmtCreate !== undefined && ((afterMs !== undefined && item.gmtCreate < afterMs) || (beforeMs !== undefined && item.gmtCreate >= beforeMs))) return;
    items.push({
      providerJobId: item.taskId,
      state: mapDashScopeJobState(item.status),
      ...(item.status !== undefined && RAW_STATE.test(item.status) ? { rawState: item.status } : {}),
      ...(item.gmtCreate === undefined ? {} : { createdAt: convertDashScopeEpochMs(item.gmtCreate, `data[${index}].gmt_create`) }),
      ...(item.endTime === undefined ? {} : { finishedAt: convertDashScopeEpochMs(item.endTime, `data[${index}].end_time`) }),
    });
  });
  const pagesForWindow = answer.totalPage === undefined ? {} : { pagesForWindow: answer.totalPage };
  if (!windowed && answer.total !== undefined && answer.total >= items.length) {
    return { items, total: answer.total, totalKind: 'exact', ...pagesForWindow };
  }
  const seenThroughPage = items.length === 0 ? 0 : (list.pageNum - 1) * list.pageSize + items.length;
  return { items, total: windowed ? items.length : seenThroughPage, totalKind: 'lower-bound', ...pagesForWindow };
}
