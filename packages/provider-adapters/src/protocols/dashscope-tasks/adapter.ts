import type { ProviderAsyncJobAdapterFactory } from '@tokenforge/model-protocol';
import { defineAsyncJobFamily, type AsyncJobFamilyOptionsV1 } from '../../codec-kit/index.js';
import { decodeDashScopeCreateResponse } from './decode-create-response.js';
import { decodeDashScopeJobList } from './decode-job-list.js';
import { decodeDashScopeJobSnapshot } from './decode-job-snapshot.js';
import { encodeDashScopeCreateRequest } from './encode-create-request.js';
import { encodeDashScopeCancelRequest, encodeDashScopeGetRequest, encodeDashScopeListRequest } from './encode-job-requests.js';
import { mapDashScopeError } from './map-error.js';
import { DASHSCOPE_TASKS_PROTOCOL_FAMILY } from './protocol-family.js';
import { DASHSCOPE_TASKS_TRANSPORT_METADATA } from './transport-metadata.js';
import { DASHSCOPE_TASKS_WIRE, readDashScopeError, readDashScopeTask, readDashScopeTaskList } from './wire-readers.js';

/** Options of {@link createDashScopeTasksAdapterFactory} (`maxBodyBytes` defaults to 4 MiB). */
export type DashScopeTasksAdapterOptionsV1 = AsyncJobFamilyOptionsV1;

/** The `dashscope-tasks/v1` dialect, declared for the kit (which owns start, body reads and the suite entry). */
export const DASHSCOPE_TASKS_JOB_FAMILY = defineAsyncJobFamily<DashScopeTasksAdapterOptionsV1, ReturnType<typeof encodeDashScopeCreateRequest>>({
  protocolFamily: DASHSCOPE_TASKS_PROTOCOL_FAMILY,
  transportMetadata: DASHSCOPE_TASKS_TRANSPORT_METADATA,
  defaultMaxBodyBytes: 4 * 1024 * 1024,
  encodeStart: (input) => encodeDashScopeCreateRequest(input.task, input.target.providerModel),
  decodeStart: (answer) => decodeDashScopeCreateResponse(answer),
  // A non-2xx status, or a top-level `code` on HTTP 200 (DashScope's request-level error), is the answer's failure.
  readAnswer: ({ outcome, headers, nowMs }) => {
    const body = outcome.ok ? outcome.value : outcome.errorBody;
    const error = readDashScopeError(body);
    if (!outcome.ok || error?.code !== undefined) return { ok: false, failure: mapDashScopeError({ status: outcome.status, headers, code: error?.code, nowMs }) };
    return { ok: true, value: body };
  },
  get: async (input, kit) => {
    const answer = await kit.ask(encodeDashScopeGetRequest(input.providerJobId));
    if (!answer.ok) return answer.result;
    return kit.decode(() => {
      const task = readDashScopeTask(answer.value);
      if (task.taskId !== input.providerJobId) throw DASHSCOPE_TASKS_WIRE.violation('output.task_id', 'is not the task asked for');
      return decodeDashScopeJobSnapshot(task, kit.nowMs());
    });
  },
  list: async (input, kit) => {
    const answer = await kit.ask(encodeDashScopeListRequest(input.list, input.target.providerModel));
    if (!answer.ok) return answer.result;
    return kit.decode(() => decodeDashScopeJobList(readDashScopeTaskList(answer.value), input.list));
  },
  // Any 2xx without an error code counts as cancelled; the success body itself is undocumented (§5).
  cancel: async (input, kit) => {
    const answer = await kit.ask(encodeDashScopeCancelRequest(input.providerJobId));
    return answer.ok ? { status: 'ok', value: null } : answer.result;
  },
});

/**
 * Creates the `dashscope-tasks/v1` async adapter factory (`jobOperations: ['get', 'list', 'cancel']`).
 *
 * - start: `POST` to the video or image synthesis path with `X-DashScope-Async: enable`; the outcome follows the
 *   start table of this folder's README. Never throws for provider or transport failures.
 * - get: `GET /api/v1/tasks/{id}`; list: `GET /api/v1/tasks` (page, model and widened window);
 *   cancel: `POST /api/v1/tasks/{id}/cancel`. A task that is not PENDING answers HTTP 400 `UnsupportedOperation`,
 *   returned as `{status: 'failed', failure: {code: 'conflict'}}` (the engine's PROVIDER_FAILED); get the task to
 *   learn its real state.
 *
 * Provider failures of job operations (HTTP errors, a `code` on HTTP 200, unreadable answers) are
 * `{status: 'failed'}`; transport failures propagate.
 */
export function createDashScopeTasksAdapterFactory(options?: DashScopeTasksAdapterOptionsV1): ProviderAsyncJobAdapterFactory {
  return DASHSCOPE_TASKS_JOB_FAMILY.createAdapterFactory(options);
}
