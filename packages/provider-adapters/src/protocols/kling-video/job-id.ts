import { KLING_VIDEO_ENDPOINTS, type KlingVideoEndpoint } from './kling-endpoint.js';

/** Longest Kling task id accepted (the provider job id holds the endpoint, a colon and the id in 256 characters). */
export const KLING_MAX_TASK_ID_LENGTH = 200;
const TASK_ID = /^[\x21-\x7e]+$/;

/** A Kling task id with the endpoint it lives on. */
export interface KlingJobAddress {
  /** The endpoint the task was created on. */
  readonly endpoint: KlingVideoEndpoint;
  /** Kling's `task_id`, an opaque string (never parsed as a number). */
  readonly taskId: string;
}

/** Whether a Kling `task_id` can travel inside a provider job id: 1 to 200 printable ASCII characters. */
export function isKlingTaskId(value: string): boolean {
  return value.length > 0 && value.length <= KLING_MAX_TASK_ID_LENGTH && TASK_ID.test(value);
}

/**
 * The provider job id this family hands the host: `<endpoint>:<task_id>`, for example
 * `image2video:866889456698785798`. Kling reads a task only on the endpoint that created it (fact sheet §4,
 * edge case 3) and its task id does not say which, so the endpoint travels with the id.
 */
export function encodeKlingJobId(address: KlingJobAddress): string {
  return `${address.endpoint}:${address.taskId}`;
}

/** Reads a provider job id written by {@link encodeKlingJobId}; `undefined` for any other shape. */
export function decodeKlingJobId(providerJobId: string): KlingJobAddress | undefined {
  const colon = providerJobId.indexOf(':');
  if (colon < 0) return undefined;
  const endpoint = providerJobId.slice(0, colon);
  const taskId = providerJobId.slice(colon + 1);
  if (!(KLING_VIDEO_ENDPOINTS as readonly string[]).includes(endpoint) || !isKlingTaskId(taskId)) return undefined;
  return { endpoint: endpoint as KlingVideoEndpoint, taskId };
}
