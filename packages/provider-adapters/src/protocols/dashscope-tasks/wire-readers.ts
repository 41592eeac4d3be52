import { createWireReaders, isWireRecord as isRecord } from '../../codec-kit/wire-readers.js';

/*
 * Tolerant readers of what DashScope sends (fact sheet §5): only the fields this family reads, any extra key
 * allowed, `null` treated like an absent optional field. A field we read with the wrong type throws a
 * ProtocolViolationError (`invalid-event`) naming the JSON path, never the value.
 */

/** A request-level error body `{request_id, code, message}` (`message` is never read). */
export interface DashScopeWireError {
  /** DashScope's error code, such as `InvalidParameter` or `UnsupportedOperation`. */
  readonly code?: string;
  /** DashScope's request id. */
  readonly requestId?: string;
}

/** One `output.results[]` item: a URL, or a per-item error. */
export type DashScopeWireResult = { readonly url: string } | { readonly code?: string };

/** `output.task_metrics` (upper-case keys on the wire). */
export interface DashScopeWireMetrics {
  readonly total?: number;
  readonly succeeded: number;
  readonly failed: number;
}

/** A task as `GET /tasks/{id}` (and the create answer) describe it. */
export interface DashScopeWireTask {
  readonly requestId?: string;
  readonly taskId: string;
  readonly taskStatus?: string;
  /** Naive UTC+8 `YYYY-MM-DD hh:mm:ss.SSS`. */
  readonly submitTime?: string;
  /** Naive UTC+8. */
  readonly endTime?: string;
  readonly videoUrl?: string;
  readonly results?: readonly DashScopeWireResult[];
  readonly metrics?: DashScopeWireMetrics;
  /** `output.code`: the task-level failure code (HTTP 200). */
  readonly code?: string;
  readonly imageCount?: number;
  /** `usage.video_duration`, else `usage.duration`, in seconds. */
  readonly videoDuration?: number;
}

/** One `data[]` item of `GET /tasks`. */
export interface DashScopeWireListItem {
  readonly taskId: string;
  /** Note: `status`, not `task_status`. */
  readonly status?: string;
  /** Epoch milliseconds. */
  readonly gmtCreate?: number;
  /** Epoch milliseconds. */
  readonly endTime?: number;
}

/** `GET /tasks` (top level, no `output` wrapper). */
export interface DashScopeWireTaskList {
  readonly total?: number;
  readonly totalPage?: number;
  readonly items: readonly DashScopeWireListItem[];
}

/** The readers of this family's wire JSON (messages start with `DashScope`). */
export const DASHSCOPE_TASKS_WIRE = createWireReaders({ family: 'DashScope' });
const wire = DASHSCOPE_TASKS_WIRE;
const { violation } = wire;
const PRINTABLE = /^[\x21-\x7e]{1,256}$/;

function optional(record: Record<string, unknown>, key: string): unknown {
  const value = record[key];
  return value === null ? undefined : value;
}

function readSeconds(record: Record<string, unknown>, key: string, path: string): number | undefined {
  const value = optional(record, key);
  if (value === undefined) return undefined;
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) throw violation(path, 'must be a non-negative number');
  return value;
}

function requestIdOf(record: Record<string, unknown>): string | undefined {
  const value = record.request_id;
  return typeof value === 'string' && PRINTABLE.test(value) ? value : undefined;
}

function readTaskId(value: unknown, path: string): string {
  if (typeof value !== 'string' || value.length === 0) throw violation(path, 'must be a non-empty string');
  return value;
}

/** Reads a request-level error body; `undefined` when the body is not an object. */
export function readDashScopeError(value: unknown): DashScopeWireError | undefined {
  if (!isRecord(value)) return undefined;
  const code = value.code;
  const requestId = requestIdOf(value);
  return {
    ...(typeof code === 'string' && code.length > 0 ? { code } : {}),
    ...(requestId === undefined ? {} : { requestId }),
  };
}

/** The request id of any answer body, when it has a short printable one. */
export function readDashScopeRequestId(value: unknown): string | undefined {
  return isRecord(value) ? requestIdOf(value) : undefined;
}

function readResult(value: unknown, path: string): DashScopeWireResult {
  if (!isRecord(value)) throw violation(path, 'must be an object');
  const url = wire.optionalString(value.url, path, 'url');
  if (url !== undefined && url.length > 0) return { url };
  const code = wire.optionalString(value.code, path, 'code');
  if (code === undefined) throw violation(path, 'carries neither a url nor an error code');
  return { code };
}

function readMetrics(value: unknown, path: string): DashScopeWireMetrics {
  if (!isRecord(value)) throw violation(path, 'must be an object');
  const total = wire.optionalCount(value.TOTAL, path, 'TOTAL');
  const succeeded = wire.optionalCount(value.SUCCEEDED, path, 'SUCCEEDED');
  const failed = wire.optionalCount(value.FAILED, path, 'FAILED');
  if (succeeded === undefined || failed === undefined) throw violation(path, 'needs SUCCEEDED and FAILED');
  if (total !== undefined && succeeded + failed > total) throw violation(path, 'counts more outcomes than TOTAL');
  return { ...(total === undefined ? {} : { total }), succeeded, failed };
}

/**
 * Reads a task answer `{request_id, output: {...}, usage?}`.
 *
 * @throws {ProtocolViolationError} when `output` or `output.task_id` is missing or mistyped.
 */
export function readDashScopeTask(value: unknown): DashScopeWireTask {
  if (!isRecord(value)) throw violation('body', 'must be a JSON object');
  const output = optional(value, 'output');
  if (!isRecord(output)) throw violation('output', 'must be an object');
  const taskId = readTaskId(output.task_id, 'output.task_id');
  const taskStatus = wire.optionalString(output.task_status, 'output', 'task_status');
  const submitTime = wire.optionalString(output.submit_time, 'output', 'submit_time');
  const endTime = wire.optionalString(output.end_time, 'output', 'end_time');
  const videoUrl = wire.optionalString(output.video_url, 'output', 'video_url');
  const rawResults = optional(output, 'results');
  if (rawResults !== undefined && !Array.isArray(rawResults)) throw violation('output.results', 'must be an array');
  const results = rawResults?.map((result, index) => readResult(result, `output.results[${index}]`));
  const rawMetrics = optional(output, 'task_metrics');
  const metrics = rawMetrics === undefined ? undefined : readMetrics(rawMetrics, 'output.task_metrics');
  const code = wire.optionalString(output.code, 'output', 'code');
  const usage = optional(value, 'usage');
  if (usage !== undefined && !isRecord(usage)) throw violation('usage', 'must be an object');
  const imageCount = usage === undefined ? undefined : wire.optionalCount(usage.image_count, 'usage', 'image_count');
  const videoDuration =
    usage === undefined ? undefined : (readSeconds(usage, 'video_duration', 'usage.video_duration') ?? readSeconds(usage, 'duration', 'usage.duration'));
  const requestId = requestIdOf(value);
  return {
    ...(requestId === undefined ? {} : { requestId }),
    taskId,
    ...(taskStatus === undefined ? {} : { taskStatus }),
    ...(submitTime === undefined ? {} : { submitTime }),
    ...(endTime === undefined ? {} : { endTime }),
    ...(videoUrl === undefined || videoUrl.length === 0 ? {} : { videoUrl }),
    ...(results === undefined ? {} : { results }),
    ...(metrics === undefined ? {} : { metrics }),
    ...(code === undefined || code.length === 0 ? {} : { code }),
    ...(imageCount === undefined ? {} : { imageCount }),
    ...(videoDuration === undefined ? {} : { videoDuration }),
  };
}

function readEpochMs(record: Record<string, unknown>, key: string, path: string): number | undefined {
  const value = optional(record, key);
  if (value === undefined) return undefined;
  if (typeof value !== 'number' || !Number.isSafeInteger(value)) throw violation(path, 'must be an integer of epoch milliseconds');
  return value;
}

/** Reads a list answer `{total, total_page, page_no, page_size, data[]}`. */
export function readDashScopeTaskList(value: unknown): DashScopeWireTaskList {
  if (!isRecord(value)) throw violation('body', 'must be a JSON object');
  const total = wire.optionalCount(value.total, 'body', 'total');
  const totalPage = wire.optionalCount(value.total_page, 'body', 'total_page');
  const data = optional(value, 'data');
  if (data !== undefined && !Array.isArray(data)) throw violation('data', 'must be an array');
  const items = (data ?? []).map((item: unknown, index: number): DashScopeWireListItem => {
    const path = `data[${index}]`;
    if (!isRecord(item)) throw violation(path, 'must be an object');
    const status = wire.optionalString(item.status, path, 'status');
    const gmtCreate = readEpochMs(item, 'gmt_create', `${path}.gmt_create`);
    const endTime = readEpochMs(item, 'end_time', `${path}.end_time`);
    return {
      taskId: readTaskId(item.task_id, `${path}.task_id`),
      ...(status === undefined ? {} : { status }),
      ...(gmtCreate === undefined ? {} : { gmtCreate }),
      ...(endTime === undefined ? {} : { endTime }),
    };
  });
  return { ...(total === undefined ? {} : { total }), ...(totalPage === undefined ? {} : { totalPage }), items };
}
