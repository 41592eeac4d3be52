import { klingEndpointPath } from './kling-endpoint.js';
import type { KlingJobAddress } from './job-id.js';
import type { KlingVideoEndpoint } from './kling-endpoint.js';

/** A GET request of this family, ready for the transport (without the signal). */
export interface KlingReadRequest {
  readonly method: 'GET';
  readonly path: string;
  readonly query?: Readonly<Record<string, string>>;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: { readonly type: 'none' };
}

/** `GET /v1/videos/{endpoint}/{task_id}`: a task is read on the endpoint that created it. */
export function encodeKlingGetRequest(address: KlingJobAddress): KlingReadRequest {
  return {
    method: 'GET',
    path: `${klingEndpointPath(address.endpoint)}/${encodeURIComponent(address.taskId)}`,
    headers: { accept: 'application/json' },
    body: { type: 'none' },
  };
}

/** `GET /v1/videos/{endpoint}?pageNum=&pageSize=` (pageNum 1-1000, pageSize 1-500 per the docs). */
export function encodeKlingListRequest(endpoint: KlingVideoEndpoint, pageNum: number, pageSize: number): KlingReadRequest {
  return {
    method: 'GET',
    path: klingEndpointPath(endpoint),
    query: { pageNum: String(pageNum), pageSize: String(pageSize) },
    headers: { accept: 'application/json' },
    body: { type: 'none' },
  };
}
