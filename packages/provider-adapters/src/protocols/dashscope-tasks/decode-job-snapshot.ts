import type { JobMediaV2, ProviderAsyncJobSnapshotV2 } from '@tokenforge/model-protocol';
import { isHttpsMediaUrl, type ProtocolViolationError } from '../../codec-kit/index.js';
import { convertDashScopeNaiveTime } from './convert-timestamps.js';
import { convertDashScopeUsage } from './convert-usage.js';
import { mapDashScopeError } from './map-error.js';
import { mapDashScopeJobState } from './map-job-state.js';
import { DASHSCOPE_TASKS_WIRE, type DashScopeWireTask } from './wire-readers.js';

const RAW_STATE = /^[A-Za-z0-9_.:-]{1,64}$/;
const TASK_ID = /^[\x21-\x7e]{1,256}$/;

const { violation } = DASHSCOPE_TASKS_WIRE;

function checkedUrl(url: string, path: string): string {
  if (!isHttpsMediaUrl(url)) throw violation(path, 'must be an https URL without user information');
  return url;
}

/**
 * Turns a DashScope task answer into a job snapshot (fact sheet §5):
 *
 * - state by `mapDashScopeJobState`; `submit_time` is `createdAt` and `end_time` is `finishedAt`, both converted
 *   from naive UTC+8 (`scheduled_time` has no normalized field);
 * - a `FAILED` task carries the failure of its `output.code` (HTTP 200), `provider-error` when it has none;
 * - media only from succeeded outputs: `output.video_url` (a video, with the usage duration), and each
 *   `results[]` item with a `url` (an image); items with an error code are counted, never shown as media;
 * - `outputCounts` from `task_metrics` (`SUCCEEDED` / `FAILED`, also while RUNNING), else from `results[]`;
 * - `usage` by `convertDashScopeUsage`.
 *
 * @throws {ProtocolViolationError} for a time that is not naive UTC+8, a media URL that is not https, or an id
 * that cannot be a job id.
 */
export function decodeDashScopeJobSnapshot(task: DashScopeWireTask, nowMs: number): ProviderAsyncJobSnapshotV2 {
  if (!TASK_ID.test(task.taskId)) throw violation('output.task_id', 'must be 1 to 256 printable ASCII characters');
  const state = mapDashScopeJobState(task.taskStatus);
  const usage = convertDashScopeUsage(task);
  const media: JobMediaV2[] = [];
  if (task.videoUrl !== undefined) {
    media.push({
      type: 'video',
      url: checkedUrl(task.videoUrl, 'output.video_url'),
      ...(task.videoDuration === undefined ? {} : { durationSeconds: task.videoDuration }),
    });
  }
  let succeededResults = 0;
  let failedResults = 0;
  task.results?.forEach((result, index) => {
    if ('url' in result) {
      media.push({ type: 'image', url: checkedUrl(result.url, `output.results[${index}].url`) });
      succeededResults += 1;
    } else failedResults += 1;
  });
  const outputCounts =
    task.metrics !== undefined
      ? { succeeded: task.metrics.succeeded, failed: task.metrics.failed }
      : task.results !== undefined
        ? { succeeded: succeededResults, failed: failedResults }
        : undefined;
  const failure = state === 'failed' ? mapDashScopeError({ status: 200, headers: {}, code: task.code, nowMs }) : undefined;
  return {
    providerJobId: task.taskId,
    state,
    ...(task.taskStatus !== undefined && RAW_STATE.test(task.taskStatus) ? { rawState: task.taskStatus } : {}),
    ...(task.submitTime === undefined ? {} : { createdAt: convertDashScopeNaiveTime(task.submitTime, 'output.submit_time') }),
    ...(task.endTime === undefined ? {} : { finishedAt: convertDashScopeNaiveTime(task.endTime, 'output.end_time') }),
    ...(media.length === 0 ? {} : { media }),
    ...(outputCounts === undefined ? {} : { outputCounts }),
    ...(failure === undefined ? {} : { failure }),
    ...(usage === undefined ? {} : { usage }),
  };
}
