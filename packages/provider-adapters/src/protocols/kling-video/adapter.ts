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
import { decodeKlingCreateResponse } from './decode-create-response.js';
import { decodeKlingJobList, type KlingListSliceAnswer } from './decode-job-list.js';
import { decodeKlingJobSnapshot } from './decode-job-snapshot.js';
import { encodeKlingCreateRequest, type KlingCreateRequest } from './encode-create-request.js';
import { encodeKlingGetRequest, encodeKlingListRequest, type KlingReadRequest } from './encode-job-requests.js';
import { decodeKlingJobId } from './job-id.js';
import { mapKlingError } from './map-error.js';
import { planKlingJobList } from './plan-job-list.js';
import { KLING_VIDEO_PROTOCOL_FAMILY } from './protocol-family.js';
import { readKlingEnvelope, readKlingTask, readKlingTaskList } from './wire-readers.js';

/** Options of {@link createKlingVideoAdapterFactory}. */
export interface KlingVideoAdapterOptionsV1 {
  /** Clock for HTTP-date `Retry-After` hints, in epoch milliseconds (default `Date.now`). */
  readonly now?: () => number;
  /** Largest answer body in bytes (default 4 MiB: Kling answers are small JSON envelopes). */
  readonly maxBodyBytes?: number;
}

/** Default cap of a Kling answer: a list page of 500 tasks fits well within it. */
const DEFAULT_MAX_BODY_BYTES = 4 * 1024 * 1024;

type OperationResult<T> = ProviderAsyncJobOperationResultV1<T>;

const failed = (failure: NormalizedProviderFailureV1): OperationResult<never> => ({ status: 'failed', failure });
const protocolViolation = (): OperationResult<never> => failed({ code: 'protocol-violation', retryable: false });

async function start(input: ProviderAsyncJobStartInputV1, options: KlingVideoAdapterOptionsV1 | undefined): Promise<ProviderAsyncJobStartOutcomeV1> {
  let request: KlingCreateRequest;
  try {
    request = encodeKlingCreateRequest({
      task: input.task,
      providerModel: input.target.providerModel,
      ...(input.providerCallbackUrl === undefined ? {} : { providerCallbackUrl: input.providerCallbackUrl }),
    });
  } catch (error) {
    if (!isCodecErrorV1(error)) throw error;
    // Nothing was sent.
    const code = error.code === 'unsupported-feature' ? 'unsupported' : 'invalid-request';
    return { acceptance: { state: 'not-accepted' }, responseMetadata: {}, failure: { code, retryable: false } };
  }
  const { endpoint, ...wire } = request;
  let response: ProviderTransportResponse;
  try {
    response = await input.transport.send({ ...wire, signal: input.signal });
  } catch (error) {
    const outcome = classifyAsyncStartError(error, {});
    if (outcome === undefined) throw error;
    return outcome;
  }
  let outcome: JsonResponseOutcome;
  try {
    outcome = await readJsonResponse(response, { nowMs: now(options), maxBytes: maxBytes(options) });
  } catch (error) {
    const classified = classifyAsyncStartError(error, {});
    if (classified === undefined) throw error;
    return classified;
  }
  return decodeKlingCreateResponse({ outcome, headers: response.headers, endpoint, nowMs: now(options) });
}

function now(options: KlingVideoAdapterOptionsV1 | undefined): number {
  return (options?.now ?? Date.now)();
}

function maxBytes(options: KlingVideoAdapterOptionsV1 | undefined): number {
  return options?.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
}

/**
 * Sends one read and returns the envelope's `data`, or the failure the answer stands for (HTTP error, `code != 0`,
 * unreadable body). Transport failures propagate: the engine reports them as transport errors.
 */
async function read(
  transport: ProviderTransport,
  request: KlingReadRequest,
  signal: AbortSignal,
  options: KlingVideoAdapterOptionsV1 | undefined,
): Promise<{ readonly ok: true; readonly data: unknown } | { readonly ok: false; readonly result: OperationResult<never> }> {
  const response = await transport.send({ ...request, signal });
  let outcome: JsonResponseOutcome;
  try {
    outcome = await readJsonResponse(response, { nowMs: now(options), maxBytes: maxBytes(options) });
  } catch (error) {
    if (isCodecErrorV1(error)) return { ok: false, result: protocolViolation() };
    throw error;
  }
  let envelope;
  try {
    envelope = readKlingEnvelope(outcome.ok ? outcome.value : outcome.errorBody);
  } catch {
    envelope = undefined;
  }
  if (outcome.ok && envelope === undefined) return { ok: false, result: protocolViolation() };
  if (!outcome.ok || envelope === undefined || envelope.code !== 0) {
    return { ok: false, result: failed(mapKlingError({ status: outcome.status, headers: response.headers, code: envelope?.code, nowMs: now(options) })) };
  }
  return { ok: true, data: envelope.data };
}

async function get(input: ProviderAsyncJobOperationInputV1, options: KlingVideoAdapterOptionsV1 | undefined): Promise<OperationResult<ProviderAsyncJobSnapshotV2>> {
  const address = decodeKlingJobId(input.providerJobId);
  // Not an id this family handed out: nothing to ask Kling.
  if (address === undefined) return failed({ code: 'invalid-request', retryable: false });
  const answer = await read(input.transport, encodeKlingGetRequest(address), input.signal, options);
  if (!answer.ok) return answer.result;
  try {
    const task = readKlingTask(answer.data);
    if (task.taskId !== address.taskId) return protocolViolation();
    return { status: 'ok', value: decodeKlingJobSnapshot(task, address.endpoint) };
  } catch (error) {
    if (isProtocolViolationError(error)) return protocolViolation();
    throw error;
  }
}

async function list(input: ProviderAsyncJobListOperationInputV1, options: KlingVideoAdapterOptionsV1 | undefined): Promise<OperationResult<ProviderAsyncJobListPageV2>> {
  const slices = planKlingJobList(input.list);
  if (slices === undefined) return failed({ code: 'invalid-request', retryable: false });
  const answers: KlingListSliceAnswer[] = [];
  for (const slice of slices) {
    const answer = await read(input.transport, encodeKlingListRequest(slice.endpoint, slice.pageNum, slice.pageSize), input.signal, options);
    if (!answer.ok) return answer.result;
    try {
      answers.push({ slice, tasks: readKlingTaskList(answer.data) });
    } catch (error) {
      if (isProtocolViolationError(error)) return protocolViolation();
      throw error;
    }
  }
  try {
    return { status: 'ok', value: decodeKlingJobList(answers, input.list) };
  } catch (error) {
    if (isProtocolViolationError(error)) return protocolViolation();
    throw error;
  }
}

/**
 * Creates the `kling-video/v1` async adapter factory (`jobOperations: ['get', 'list']`; Kling has no cancel, so
 * the engine refuses it before binding a transport).
 *
 * - start: `POST /v1/videos/text2video` or `/image2video` (chosen by the task's `image`); the outcome follows the
 *   start table of this folder's README. Never throws for provider or transport failures.
 * - get: the job id `<endpoint>:<task_id>` selects `GET /v1/videos/<endpoint>/<task_id>`.
 * - list: both endpoints, merged per `planKlingJobList` / `decodeKlingJobList`.
 *
 * Provider failures of get and list (HTTP errors, `code != 0`, unreadable answers) are `{status: 'failed'}`;
 * transport failures propagate.
 */
export function createKlingVideoAdapterFactory(options?: KlingVideoAdapterOptionsV1): ProviderAsyncJobAdapterFactory {
  return Object.freeze({
    protocolFamily: KLING_VIDEO_PROTOCOL_FAMILY,
    jobOperations: Object.freeze(['get', 'list'] as const),
    createAdapter: () =>
      Object.freeze({
        start: (input: ProviderAsyncJobStartInputV1) => start(input, options),
        get: (input: ProviderAsyncJobOperationInputV1) => get(input, options),
        list: (input: ProviderAsyncJobListOperationInputV1) => list(input, options),
      }),
  });
}
