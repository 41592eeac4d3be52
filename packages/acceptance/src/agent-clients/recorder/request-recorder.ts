/**
 * A loopback HTTP server that records every request a client sends (method, path, query, headers with secrets
 * redacted, body) and answers it minimally in the request's dialect (see recorder-answers.ts).
 */
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gunzipSync } from 'node:zlib';
import { answerRecordedRequest, type RecorderToolChoice } from './recorder-answers.js';

/** One recorded request. */
export interface RecordedRequest {
  /** HTTP method. */
  readonly method: string;
  /** Path without the query. */
  readonly path: string;
  /** Query parameters; secret ones (`key`) redacted. */
  readonly query: Record<string, string>;
  /** Request headers, lower-case names, secrets redacted. */
  readonly headers: Record<string, string>;
  /** The body: parsed JSON, else text, else absent. */
  readonly body?: unknown;
}

/** A running recorder. */
export interface RequestRecorder {
  /** `http://127.0.0.1:<port>` */
  readonly url: string;
  /** Requests in arrival order. */
  readonly requests: readonly RecordedRequest[];
  /** Tool calls the recorder answers with, by preference (set per scenario). */
  toolPreferences: readonly RecorderToolChoice[];
  close(): Promise<void>;
}

export const REDACTED = '[redacted]';
const SECRET_HEADERS = new Set(['authorization', 'x-api-key', 'x-goog-api-key', 'api-key', 'cookie', 'proxy-authorization']);
const SECRET_QUERY = new Set(['key', 'api_key']);

/** Headers with secret values replaced by `[redacted]`. */
export function redactHeaders(headers: IncomingMessage['headers']): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue;
    out[name] = SECRET_HEADERS.has(name) ? REDACTED : Array.isArray(value) ? value.join(', ') : value;
  }
  return out;
}

async function readBody(request: IncomingMessage): Promise<Uint8Array> {
  const chunks: Uint8Array[] = [];
  for await (const chunk of request) chunks.push(chunk as Uint8Array);
  const bytes = new Uint8Array(chunks.reduce((sum, chunk) => sum + chunk.length, 0));
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.length;
  }
  return request.headers['content-encoding'] === 'gzip' ? new Uint8Array(gunzipSync(bytes)) : bytes;
}

function decodeBody(bytes: Uint8Array): unknown {
  if (bytes.length === 0) return undefined;
  const text = new TextDecoder().decode(bytes);
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

/** Starts the recorder on 127.0.0.1 (an ephemeral port unless `port` is given). */
export async function startRequestRecorder(options: { port?: number; onRequest?: (request: RecordedRequest) => void } = {}): Promise<RequestRecorder> {
  const requests: RecordedRequest[] = [];
  const recorder = {
    url: '',
    requests,
    toolPreferences: [] as readonly RecorderToolChoice[],
    close: async (): Promise<void> => undefined,
  };
  const server = createServer((request, response) => {
    void (async () => {
      const url = new URL(request.url ?? '/', 'http://127.0.0.1');
      const body = decodeBody(await readBody(request));
      const query: Record<string, string> = {};
      for (const [name, value] of url.searchParams) query[name] = SECRET_QUERY.has(name) ? REDACTED : value;
      const record: RecordedRequest = { method: request.method ?? 'GET', path: url.pathname, query, headers: redactHeaders(request.headers), ...(body === undefined ? {} : { body }) };
      requests.push(record);
      options.onRequest?.(record);
      const answer = answerRecordedRequest(record.method, record.path, body, recorder.toolPreferences);
      response.writeHead(answer.status, { 'content-type': answer.contentType, ...(answer.contentType === 'text/event-stream' ? { 'cache-control': 'no-cache' } : {}) });
      response.end(answer.body);
    })().catch(() => {
      response.writeHead(500).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  const address = server.address() as AddressInfo;
  recorder.url = `http://127.0.0.1:${address.port}`;
  recorder.close = () =>
    new Promise<void>((resolve, reject) => {
      server.closeAllConnections();
      server.close((error) => (error === undefined ? resolve() : reject(error)));
    });
  return recorder;
}
