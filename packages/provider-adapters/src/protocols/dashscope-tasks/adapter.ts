import {
  isCodecErrorV1,
  type NormalizedProviderFailureV1,
  type ProviderAsyncJobAdapterFactory,
  type ProviderAsyncJobListOperationInputV1,
  type ProviderAsyncJobListPageV2,
  type ProviderAsyncJobOperationInputV1,
  type ProviderAsyncJobOperationResultV1,
  type ProviderAsyncJobSnapshotV2,
  type ProviderAsyncJobStartInputV1,
  type ProviderAsyncJobStartOutcomeV1,
  type ProviderTransport,
  type ProviderTransportResponse,
} from '@tokenforge/model-protocol';
import { classifyAsyncStartError, isProtocolViolationError, readJsonResponse, type JsonResponseOutcome } from '../../codec-kit/index.js';
import { decodeDashScopeCreateResponse } from './decode-create-response.js';
import { decodeDashScopeJobList } from './decode-job-list.js';
import { decodeDashScopeJobSnapshot } from './decode-job-snapshot.js';
import { encodeDashScopeCreateRequest, type DashScopeCreateRequest } from './encode-create-request.js';
import {
  encodeDashScopeCancelRequest,
  encodeDashScopeGetRequest,
  encodeDashScopeListRequest,
  type DashScopeJobRequest,
} from './encode-job-requests.js';
import { mapDashScopeError } from './map-error.js';
import { DASHSCOPE_TASKS_PROTOCOL_FAMILY } from './protocol-family.js';
import { readDashScopeError, readDashScopeTask, readDashScopeTaskList } from './wire-readers.js';

/** Options of {@link createDashScopeTasksAdapterFactory}. */
export interface DashScopeTasksAdapterOptionsV1 {
  /** Clock for HTTP-date `Retry-After` hints, in epoch milliseconds (default `Date.now`). */
  readonly now?: () => number;
  /** Largest answer body in bytes (default 4 MiB). */
  readonly maxBodyBytes?: number;
}

const DEFAULT_MAX_BODY_BYTES = 4 * 1024 * 1024;

type OperationResult<T> = ProviderAsyncJobOperationResultV1<T>;

const failed = (failure: NormalizedProviderFailureV1): OperationResult<never> => ({ status: 'failed', failure });
const protocolViolation = (): OperationResult<never> => failed({ code: 'protocol-violation', retryable: false });

function now(options: DashScopeTasksAdapterOptionsV1 | undefined): number {
  return (options?.now ?? Date.now)();
}

function readOptions(options: DashScopeTasksAdapterOptionsV1 | undefined) {
  return { nowMs: now(options), maxBytes: options?.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES };
}

async function start(input: ProviderAsyncJobStartInputV1, options: DashScopeTasksAdapterOptionsV1 | undefined): Promise<ProviderAsyncJobStartOutcomeV1> {
  let request: DashScopeCreateRequest;
  try {
    request = encodeDashScopeCreateRequest(input.task, input.target.providerModel);
  } catch (error) {
    if (!isCodecErrorV1(error)) throw error;
    const code = error.code === 'unsupported-feature' ? 'unsupported' : 'invalid-request';
    return { acceptance: { state: 'not-accepted' }, responseMetadata: {}, failure: { code, retryable: false } };
  }
  let response: ProviderTransportResponse;
  try {
    response = await input.transport.send({ ...request, signal: input.signal });
  } catch (error) {
    const outcome = classifyAsyncStartError(error, {});
    if (outcome === undefined) throw error;
    return outcome;
  }
  let outcome: JsonResponseOutcome;
  try {
    outcome = await readJsonResponse(response, readOptions(options));
  } catch (error) {
    const classified = classifyAsyncStartError(error, {});
    if (classified === undefined) throw error;
    return classified;
  }
  return decodeDashScopeCreateResponse({ outcome, headers: response.headers, nowMs: now(options) });
}

/**
 * Sends one job request and returns the 2xx body, or the failure the answer stands for: a non-2xx status, or a
 * top-level `code` on HTTP 200 (DashScope's request-level error). Transport failures propagate.
 */
async function send(
  transport: ProviderTransport,
  request: DashScopeJobRequest,
  signal: AbortSignal,
  options: DashScopeTasksAdapterOptionsV1 | undefined,
): Promise<{ readonly ok: true; readonly value: unknown } | { readonly ok: false; readonly result: OperationResult<never> }> {
  const response = await transport.send({ ...request, signal });
  let outcome: JsonResponseOutcome;
  try {
    outcome = await readJsonResponse(response, readOptions(options));
  } catch (error) {
    if (isCodecErrorV1(error)) return { ok: false, result: protocolViolation() };
    throw error;
  }
  const body = outcome.ok ? outcome.value : outcome.errorBody;
  const error = readDashScopeError(body);
  if (!outcome.ok || error?.code !== undefined) {
    return { ok: false, result: failed(mapDashScopeError({ status: outcome.status, headers: response.headers, code: error?.code, nowMs: now(options) })) };
  }
  return { ok: true, value: body };
}

async function get(input: ProviderAsyncJobOperationInputV1, options: DashScopeTasksAdapterOptionsV1 | undefined): Promise<OperationResult<ProviderAsyncJobSnapshotV2>> {
  const answer = await send(input.transport, encodeDashScopeGetRequest(input.providerJobId), input.signal, options);
  if (!answer.ok) return answer.result;
  try {
    const task = readDashScopeTask(answer.value);
    if (task.taskId !== input.providerJobId) return protocolViolation();
    return { status: 'ok', value: decodeDashScopeJobSnapshot(task, now(options)) };
  } catch (error) {
    if (isProtocolViolationError(error)) return protocolViolation();
    throw error;
  }
}

async function list(input: ProviderAsyncJobListOperationInputV1, options: DashScopeTasksAdapterOptionsV1 | undefined): Promise<OperationResult<ProviderAsyncJobListPageV2>> {
  const answer = await send(input.transport, encodeDashScopeListRequest(input.list, input.target.providerModel), input.signal, options);
  if (!answer.ok) return answer.result;
  try {
    return { status: 'ok', value: decodeDashScopeJobList(readDashScopeTaskList(answer.value), input.list) };
  } catch (error) {
    if (isProtocolViolationError(error)) return protocolViolation();
    throw error;
  }
}

async function cancel(input: ProviderAsyncJobOperationInputV1, options: DashScopeTasksAdapterOptionsV1 | undefined): Promise<OperationResult<null>> {
  // Any 2xx without an error code counts as cancelled; the success body itself is undocumented (§5).
  const answer = await send(input.transport, encodeDashScopeCancelRequest(input.providerJobId), input.signal, options);
  return answer.ok ? { status: 'ok', value: null } : answer.result;
}

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
  return Object.freeze({
    protocolFamily: DASHSCOPE_TASKS_PROTOCOL_FAMILY,
    jobOperations: Object.freeze(['get', 'list', 'cancel'] as const),
    createAdapter: () =>
      Object.freeze({
        start: (input: ProviderAsyncJobStartInputV1) => start(input, options),
        get: (input: ProviderAsyncJobOperationInputV1) => get(input, options),
        list: (input: ProviderAsyncJobListOperationInputV1) => list(input, options),
        cancel: (input: ProviderAsyncJobOperationInputV1) => cancel(input, options),
      }),
  });
}
