import { createWireReaders, isWireRecord as isRecord } from '../../codec-kit/wire-readers.js';

/*
 * Tolerant readers of what a Kling server sends (fact sheet §4): only the fields this family reads, any extra key
 * allowed, `null` treated like an absent optional field. A field we read with the wrong type or range throws a
 * ProtocolViolationError (`invalid-event`) naming the JSON path, never the value.
 */

/** The envelope of every Kling answer, success or error. */
export interface KlingWireEnvelope {
  /** `0` means success; anything else is an error code (table in `map-error.ts`). */
  readonly code: number;
  /** Kling's request id, when it is a short printable string. */
  readonly requestId?: string;
  /** The payload: a task object on create and get, an array of tasks on list. */
  readonly data?: unknown;
}

/** One video of a finished task. */
export interface KlingWireVideo {
  /** The video URL (checked to be https later). */
  readonly url: string;
  /** Length in seconds, when Kling reports it. */
  readonly durationSeconds?: number;
}

/** A task object (create, get, list item). */
export interface KlingWireTask {
  /** Opaque task id: a JSON string (a bare number would already have lost digits). */
  readonly taskId: string;
  /** `submitted | processing | succeed | failed`, or anything else Kling adds. */
  readonly taskStatus?: string;
  /** `task_info.external_task_id`: the host's idempotency key echoed back. */
  readonly externalTaskId?: string;
  /** `task_result.videos[]`. */
  readonly videos?: readonly KlingWireVideo[];
  /** Epoch milliseconds. */
  readonly createdAtMs?: number;
  /** Epoch milliseconds. */
  readonly updatedAtMs?: number;
}

/** The readers of this family's wire JSON (messages start with `Kling`). */
export const KLING_VIDEO_WIRE = createWireReaders({ family: 'Kling' });
const wire = KLING_VIDEO_WIRE;
const { violation } = wire;
const MAX_TASK_STATUS_LENGTH = 64;
const MAX_REQUEST_ID_LENGTH = 256;
const PRINTABLE = /^[\x21-\x7e]+$/;
const DECIMAL = /^\d{1,9}(?:\.\d{1,6})?$/;

function optional(record: Record<string, unknown>, key: string): unknown {
  const value = record[key];
  return value === null ? undefined : value;
}

function readOptionalEpochMs(record: Record<string, unknown>, key: string, path: string): number | undefined {
  const value = optional(record, key);
  if (value === undefined) return undefined;
  if (typeof value !== 'number' || !Number.isSafeInteger(value)) throw violation(path, 'must be an integer of epoch milliseconds');
  return value;
}

/** Reads the `{code, message, request_id, data}` envelope. */
export function readKlingEnvelope(value: unknown): KlingWireEnvelope {
  if (!isRecord(value)) throw violation('body', 'must be a JSON object');
  const code = value.code;
  if (typeof code !== 'number' || !Number.isSafeInteger(code)) throw violation('code', 'must be an integer');
  const requestId = optional(value, 'request_id');
  const data = optional(value, 'data');
  return {
    code,
    ...(typeof requestId === 'string' && requestId.length <= MAX_REQUEST_ID_LENGTH && PRINTABLE.test(requestId) ? { requestId } : {}),
    ...(data === undefined ? {} : { data }),
  };
}

function readVideo(value: unknown, path: string): KlingWireVideo {
  if (!isRecord(value)) throw violation(path, 'must be an object');
  const url = value.url;
  if (typeof url !== 'string' || url.length === 0) throw violation(`${path}.url`, 'must be a non-empty string');
  const duration = optional(value, 'duration');
  if (duration === undefined) return { url };
  // The docs type it as a string of seconds ("5"); a plain number is read the same way.
  if (typeof duration === 'string' && DECIMAL.test(duration)) return { url, durationSeconds: Number(duration) };
  if (typeof duration === 'number' && Number.isFinite(duration) && duration >= 0) return { url, durationSeconds: duration };
  throw violation(`${path}.duration`, 'must be a non-negative decimal number of seconds');
}

/** Reads one task object. */
export function readKlingTask(value: unknown, path = 'data'): KlingWireTask {
  if (!isRecord(value)) throw violation(path, 'must be an object');
  const taskId = value.task_id;
  if (typeof taskId === 'number') throw violation(`${path}.task_id`, 'is a JSON number; task ids must be strings');
  if (typeof taskId !== 'string' || taskId.length === 0) throw violation(`${path}.task_id`, 'must be a non-empty string');
  const taskStatus = wire.optionalString(value.task_status, path, 'task_status');
  if (taskStatus !== undefined && (taskStatus.length === 0 || taskStatus.length > MAX_TASK_STATUS_LENGTH)) {
    throw violation(`${path}.task_status`, 'must hold 1 to 64 characters');
  }
  const taskInfo = optional(value, 'task_info');
  if (taskInfo !== undefined && !isRecord(taskInfo)) throw violation(`${path}.task_info`, 'must be an object');
  const externalTaskId = taskInfo === undefined ? undefined : wire.optionalString(taskInfo.external_task_id, `${path}.task_info`, 'external_task_id');
  const taskResult = optional(value, 'task_result');
  if (taskResult !== undefined && !isRecord(taskResult)) throw violation(`${path}.task_result`, 'must be an object');
  const rawVideos = taskResult === undefined ? undefined : optional(taskResult, 'videos');
  if (rawVideos !== undefined && !Array.isArray(rawVideos)) throw violation(`${path}.task_result.videos`, 'must be an array');
  const videos = rawVideos?.map((video, index) => readVideo(video, `${path}.task_result.videos[${index}]`));
  const createdAtMs = readOptionalEpochMs(value, 'created_at', `${path}.created_at`);
  const updatedAtMs = readOptionalEpochMs(value, 'updated_at', `${path}.updated_at`);
  return {
    taskId,
    ...(taskStatus === undefined ? {} : { taskStatus }),
    ...(externalTaskId === undefined || externalTaskId.length === 0 ? {} : { externalTaskId }),
    ...(videos === undefined ? {} : { videos }),
    ...(createdAtMs === undefined ? {} : { createdAtMs }),
    ...(updatedAtMs === undefined ? {} : { updatedAtMs }),
  };
}

/** Reads the `data` array of a list answer. */
export function readKlingTaskList(value: unknown): readonly KlingWireTask[] {
  if (value === undefined) return [];
  if (!Array.isArray(value)) throw violation('data', 'must be an array on a list answer');
  return value.map((task, index) => readKlingTask(task, `data[${index}]`));
}
