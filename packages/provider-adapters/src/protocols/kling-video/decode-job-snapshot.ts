import type { JobMediaV2, ProviderAsyncJobSnapshotV2 } from '@tokenforge/model-protocol';
import { isHttpsMediaUrl, type ProtocolViolationError } from '../../codec-kit/index.js';
import { convertKlingEpochMs } from './convert-timestamps.js';
import { convertKlingUsage } from './convert-usage.js';
import { encodeKlingJobId, isKlingTaskId } from './job-id.js';
import type { KlingVideoEndpoint } from './kling-endpoint.js';
import { mapKlingJobState } from './map-job-state.js';
import { KLING_VIDEO_WIRE, type KlingWireTask } from './wire-readers.js';

const RAW_STATE = /^[A-Za-z0-9_.:-]{1,64}$/;
const IDEMPOTENCY_KEY = /^[A-Za-z0-9._:-]{1,128}$/;

const { violation } = KLING_VIDEO_WIRE;

/**
 * Turns a Kling task object into a job snapshot. `providerJobId` is `<endpoint>:<task_id>`.
 *
 * - State by `mapKlingJobState`; a `succeed` task without any video URL is `unknown` (the fact sheet leaves the
 *   meaning open; the host keeps polling rather than record a success with nothing in it).
 * - `createdAt` / `updatedAt` from the epoch-millisecond `created_at` / `updated_at`; `finishedAt` is
 *   `updated_at` once the task is terminal (`succeed` or `failed`).
 * - `idempotencyKey` from the echoed `task_info.external_task_id`.
 * - `media` (every video, https only) and `usage` only for a succeeded task.
 * - A failed task carries `{ code: 'provider-error', retryable: false }`: Kling gives the reason only as free text
 *   (`task_status_msg`), which is never copied.
 *
 * @throws {ProtocolViolationError} for an id that cannot travel as a job id, a time out of range, a non-https
 * video URL or an echoed key that is not one this family could have sent.
 */
export function decodeKlingJobSnapshot(task: KlingWireTask, endpoint: KlingVideoEndpoint, path = 'data'): ProviderAsyncJobSnapshotV2 {
  if (!isKlingTaskId(task.taskId)) throw violation(`${path}.task_id`, 'must be 1 to 200 printable ASCII characters');
  if (task.externalTaskId !== undefined && !IDEMPOTENCY_KEY.test(task.externalTaskId)) {
    throw violation(`${path}.task_info.external_task_id`, 'is not a key this family sends');
  }
  let state = mapKlingJobState(task.taskStatus);
  const videos = task.videos ?? [];
  if (state === 'succeeded' && videos.length === 0) state = 'unknown';
  const media: JobMediaV2[] = [];
  if (state === 'succeeded') {
    videos.forEach((video, index) => {
      if (!isHttpsMediaUrl(video.url)) throw violation(`${path}.task_result.videos[${index}].url`, 'must be an https URL without user information');
      media.push({ type: 'video', url: video.url, ...(video.durationSeconds === undefined ? {} : { durationSeconds: video.durationSeconds }) });
    });
  }
  const terminal = state === 'succeeded' || state === 'failed';
  const usage = state === 'succeeded' ? convertKlingUsage(videos) : undefined;
  const updatedAt = task.updatedAtMs === undefined ? undefined : convertKlingEpochMs(task.updatedAtMs, `${path}.updated_at`);
  return {
    providerJobId: encodeKlingJobId({ endpoint, taskId: task.taskId }),
    state,
    ...(task.taskStatus !== undefined && RAW_STATE.test(task.taskStatus) ? { rawState: task.taskStatus } : {}),
    ...(task.createdAtMs === undefined ? {} : { createdAt: convertKlingEpochMs(task.createdAtMs, `${path}.created_at`) }),
    ...(updatedAt === undefined ? {} : { updatedAt }),
    ...(terminal && updatedAt !== undefined ? { finishedAt: updatedAt } : {}),
    ...(task.externalTaskId === undefined ? {} : { idempotencyKey: task.externalTaskId }),
    ...(media.length === 0 ? {} : { media }),
    ...(state === 'failed' ? { failure: { code: 'provider-error' as const, retryable: false } } : {}),
    ...(usage === undefined ? {} : { usage }),
  };
}
