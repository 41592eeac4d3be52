import type { ProviderAsyncJobListInputV2 } from '@tokenforge/model-protocol';
import { formatDashScopeFilterTime } from './convert-timestamps.js';

/** A job request of this family, ready for the transport (without the signal). */
export interface DashScopeJobRequest {
  readonly method: 'GET' | 'POST';
  readonly path: string;
  readonly query?: Readonly<Record<string, string>>;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: { readonly type: 'none' };
}

const HEADERS = Object.freeze({ accept: 'application/json' });

/** `GET /api/v1/tasks/{task_id}`. */
export function encodeDashScopeGetRequest(taskId: string): DashScopeJobRequest {
  return { method: 'GET', path: `/api/v1/tasks/${encodeURIComponent(taskId)}`, headers: HEADERS, body: { type: 'none' } };
}

/** `POST /api/v1/tasks/{task_id}/cancel` with no body. */
export function encodeDashScopeCancelRequest(taskId: string): DashScopeJobRequest {
  return { method: 'POST', path: `/api/v1/tasks/${encodeURIComponent(taskId)}/cancel`, headers: HEADERS, body: { type: 'none' } };
}

/**
 * `GET /api/v1/tasks?page_no=&page_size=&model_name=[&start_time=][&end_time=]`. `model_name` narrows the list to
 * the target's model (one binding, one model). The creation window is sent widened to whole seconds in UTC+8 (see
 * `formatDashScopeFilterTime`); the adapter applies the exact window afterwards.
 */
export function encodeDashScopeListRequest(list: ProviderAsyncJobListInputV2, providerModel: string): DashScopeJobRequest {
  return {
    method: 'GET',
    path: '/api/v1/tasks',
    query: {
      page_no: String(list.pageNum),
      page_size: String(list.pageSize),
      model_name: providerModel,
      ...(list.createdAfter === undefined ? {} : { start_time: formatDashScopeFilterTime(list.createdAfter, 'down') }),
      ...(list.createdBefore === undefined ? {} : { end_time: formatDashScopeFilterTime(list.createdBefore, 'up') }),
    },
    headers: HEADERS,
    body: { type: 'none' },
  };
}
