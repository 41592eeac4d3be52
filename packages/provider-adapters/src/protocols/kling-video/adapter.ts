import type { ProviderAsyncJobAdapterFactory } from '@tokenforge/model-protocol';
import { defineAsyncJobFamily, type AsyncJobFamilyOptionsV1 } from '../../codec-kit/index.js';
import { decodeKlingCreateResponse } from './decode-create-response.js';
import { decodeKlingJobList, type KlingListSliceAnswer } from './decode-job-list.js';
import { decodeKlingJobSnapshot } from './decode-job-snapshot.js';
import { encodeKlingCreateRequest, type KlingCreateRequest } from './encode-create-request.js';
import { encodeKlingGetRequest, encodeKlingListRequest } from './encode-job-requests.js';
import { decodeKlingJobId } from './job-id.js';
import { mapKlingError } from './map-error.js';
import { planKlingJobList } from './plan-job-list.js';
import { KLING_VIDEO_PROTOCOL_FAMILY } from './protocol-family.js';
import { KLING_VIDEO_TRANSPORT_METADATA } from './transport-metadata.js';
import { KLING_VIDEO_WIRE, readKlingEnvelope, readKlingTask, readKlingTaskList, type KlingWireEnvelope } from './wire-readers.js';

/** Options of {@link createKlingVideoAdapterFactory} (`maxBodyBytes` defaults to 4 MiB: Kling answers are small envelopes). */
export type KlingVideoAdapterOptionsV1 = AsyncJobFamilyOptionsV1;

function envelopeOf(body: unknown): KlingWireEnvelope | undefined {
  try {
    return readKlingEnvelope(body);
  } catch {
    return undefined;
  }
}

/** The `kling-video/v1` dialect, declared for the kit (which owns start, body reads and the suite entry). */
export const KLING_VIDEO_JOB_FAMILY = defineAsyncJobFamily<KlingVideoAdapterOptionsV1, KlingCreateRequest>({
  protocolFamily: KLING_VIDEO_PROTOCOL_FAMILY,
  transportMetadata: KLING_VIDEO_TRANSPORT_METADATA,
  // A list page of 500 tasks fits well within it.
  defaultMaxBodyBytes: 4 * 1024 * 1024,
  encodeStart: (input) =>
    encodeKlingCreateRequest({
      task: input.task,
      providerModel: input.target.providerModel,
      ...(input.providerCallbackUrl === undefined ? {} : { providerCallbackUrl: input.providerCallbackUrl }),
    }),
  // The endpoint stays with the adapter: it becomes part of the job id.
  startWireRequest: ({ endpoint: _endpoint, ...wire }) => wire,
  decodeStart: (answer, request) => decodeKlingCreateResponse({ ...answer, endpoint: request.endpoint }),
  // An HTTP error, `code != 0` or an unreadable envelope is the answer's failure; otherwise its `data`.
  readAnswer: ({ outcome, headers, nowMs }) => {
    const envelope = envelopeOf(outcome.ok ? outcome.value : outcome.errorBody);
    if (outcome.ok && envelope === undefined) return { ok: false, failure: { code: 'protocol-violation', retryable: false } };
    if (!outcome.ok || envelope === undefined || envelope.code !== 0) {
      return { ok: false, failure: mapKlingError({ status: outcome.status, headers, code: envelope?.code, nowMs }) };
    }
    return { ok: true, value: envelope.data };
  },
  get: async (input, kit) => {
    const address = decodeKlingJobId(input.providerJobId);
    // Not an id this family handed out: nothing to ask Kling.
    if (address === undefined) return kit.failed({ code: 'invalid-request', retryable: false });
    const answer = await kit.ask(encodeKlingGetRequest(address));
    if (!answer.ok) return answer.result;
    return kit.decode(() => {
      const task = readKlingTask(answer.value);
      if (task.taskId !== address.taskId) throw KLING_VIDEO_WIRE.violation('data.task_id', 'is not the task asked for');
      return decodeKlingJobSnapshot(task, address.endpoint);
    });
  },
  list: async (input, kit) => {
    const slices = planKlingJobList(input.list);
    if (slices === undefined) return kit.failed({ code: 'invalid-request', retryable: false });
    const answers: KlingListSliceAnswer[] = [];
    for (const slice of slices) {
      const answer = await kit.ask(encodeKlingListRequest(slice.endpoint, slice.pageNum, slice.pageSize));
      if (!answer.ok) return answer.result;
      const tasks = kit.decode(() => readKlingTaskList(answer.value));
      if (tasks.status !== 'ok') return tasks;
      answers.push({ slice, tasks: tasks.value });
    }
    return kit.decode(() => decodeKlingJobList(answers, input.list));
  },
});

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
  return KLING_VIDEO_JOB_FAMILY.createAdapterFactory(options);
}
