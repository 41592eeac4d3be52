import {
  PROVIDER_TRANSPORT_FAILURE_REASONS_V1,
  ProviderTransportFailureV1,
  type ProviderTransport,
  type ProviderTransportFailureReasonV1,
  type ProviderTransportFailureStageV1,
  type ProviderTransportRequest,
  type ProviderTransportResponse,
} from '@tokenforge/model-protocol';
import { FixtureTransportErrorV1 } from './fixture-transport-error.js';
import { frameRecordedChunksV1, type FixtureChunkFramingV1 } from './frame-recorded-chunks.js';
import { recordTransportRequest, type RecordedTransportRequestV1 } from './record-transport-request.js';

/** The body of a scripted response. */
export type FixtureResponseBodyV1 =
  /** No body bytes. */
  | { readonly type: 'none' }
  /** A JSON document, serialized with `JSON.stringify`. */
  | { readonly type: 'json'; readonly value: unknown }
  /** Text sent as UTF-8 bytes, unchanged: a raw SSE body, an HTML error page, a recorded body file. */
  | { readonly type: 'text'; readonly text: string }
  /** Exact bytes (invalid UTF-8, a byte-order mark, a binary body). */
  | { readonly type: 'bytes'; readonly bytes: Uint8Array }
  /**
   * The payload lines of a recorded `*.chunks.txt` file (one JSON document per line), framed per family. Unless
   * `readSize` says otherwise, each frame arrives as its own read.
   */
  | {
      readonly type: 'chunks';
      readonly text: string;
      readonly framing: FixtureChunkFramingV1;
      /** Line ending of SSE framings (default `lf`). */
      readonly lineEnding?: 'lf' | 'crlf';
      /** Leave out the `openai-chat` terminator to replay a truncated stream. */
      readonly omitTerminator?: boolean;
    };

/** A simulated network failure. */
export interface FixtureFailureV1 {
  /**
   * `before-send`: the request never left (the response is still consumed from the script, and the request is
   * still recorded); `after-send`: it reached the provider but no response head came back.
   */
  readonly stage: ProviderTransportFailureStageV1;
  /** The failure reason (default `connect-failed` before send, `connection-lost` after). */
  readonly reason?: ProviderTransportFailureReasonV1;
}

/** One scripted answer. Responses are served in order, one per `send`. */
export interface FixtureResponseV1 {
  /** A name for diagnostics (the fixture file, or what a constructed response shows). */
  readonly label?: string;
  /** HTTP status (default 200). */
  readonly status?: number;
  /**
   * Response headers (names are lower-cased). `content-type` defaults to `application/json` for JSON bodies,
   * `text/event-stream` for SSE-framed chunks and `application/x-ndjson` for raw chunks.
   */
  readonly headers?: Readonly<Record<string, string>>;
  /** The body (default none). */
  readonly body?: FixtureResponseBodyV1;
  /** Fail the send instead of answering. */
  readonly failure?: FixtureFailureV1;
  /** Milliseconds before the response head arrives (or the `after-send` failure happens). Abortable. */
  readonly delayMs?: number;
  /** Re-chunk the body bytes into reads of this many bytes (the last read may be shorter). */
  readonly readSize?: number;
  /** Milliseconds before each body read: a slow provider. Abortable. */
  readonly readDelayMs?: number;
  /** Lose the connection after this many body bytes: the next read rejects with an `after-send` failure. */
  readonly bodyFailure?: { readonly afterBytes: number; readonly reason?: ProviderTransportFailureReasonV1 };
}

/**
 * What became of a served response body.
 * - `unread`: handed out, never iterated and never released;
 * - `reading`: iteration started, neither finished nor released;
 * - `finished`: read to its end;
 * - `released`: the reader stopped early with `return()`;
 * - `failed`: a read rejected (abort or simulated connection loss).
 */
export type FixtureBodyStateV1 = 'unread' | 'reading' | 'finished' | 'released' | 'failed';

/** Options of {@link createFixtureTransportV1}. */
export interface CreateFixtureTransportOptionsV1 {
  /** The scripted responses, served in order. */
  readonly responses: readonly FixtureResponseV1[];
}

/** A transport that replays scripted responses and records what it was asked to send. */
export interface FixtureTransportV1 extends ProviderTransport {
  /** Every request received, in order (including those answered by a simulated failure). */
  readonly requests: readonly RecordedTransportRequestV1[];
  /** How many scripted responses were consumed. */
  readonly served: number;
  /** How many scripted responses remain. */
  readonly remaining: number;
  /** The state of each served response body, in serve order (`undefined` for simulated send failures). */
  bodyStates(): readonly (FixtureBodyStateV1 | undefined)[];
}

const textEncoder = new TextEncoder();

function contentTypeFor(body: FixtureResponseBodyV1): string | undefined {
  if (body.type === 'json') return 'application/json';
  if (body.type === 'chunks') return body.framing === 'raw' ? 'application/x-ndjson' : 'text/event-stream';
  return undefined;
}

/** The body as a list of reads, before any `readSize` re-chunking. */
function bodyReads(body: FixtureResponseBodyV1): Uint8Array[] {
  switch (body.type) {
    case 'none':
      return [];
    case 'json': {
      const text = JSON.stringify(body.value);
      if (text === undefined) throw new FixtureTransportErrorV1('fixture-invalid', 'the JSON body does not serialize');
      return [textEncoder.encode(text)];
    }
    case 'text':
      return body.text.length === 0 ? [] : [textEncoder.encode(body.text)];
    case 'bytes':
      return body.bytes.byteLength === 0 ? [] : [body.bytes.slice()];
    case 'chunks':
      return frameRecordedChunksV1(body.text, body).map((frame) => textEncoder.encode(frame));
    default: {
      const unknownBody: never = body;
      throw new FixtureTransportErrorV1('fixture-invalid', `unknown body type ${String((unknownBody as { type?: unknown }).type)}`);
    }
  }
}

function rechunk(reads: readonly Uint8Array[], readSize: number): Uint8Array[] {
  let total = 0;
  for (const read of reads) total += read.byteLength;
  const whole = new Uint8Array(total);
  let offset = 0;
  for (const read of reads) {
    whole.set(read, offset);
    offset += read.byteLength;
  }
  const chunks: Uint8Array[] = [];
  for (let start = 0; start < total; start += readSize) chunks.push(whole.slice(start, start + readSize));
  return chunks;
}

function isNonNegativeInteger(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0;
}

function checkScript(response: FixtureResponseV1, index: number): void {
  const where = `response ${index}${response.label === undefined ? '' : ` (${response.label})`}`;
  const status = response.status ?? 200;
  if (!Number.isInteger(status) || status < 100 || status > 599) {
    throw new FixtureTransportErrorV1('fixture-invalid', `${where}: status must be an integer from 100 to 599`);
  }
  if (response.readSize !== undefined && (!isNonNegativeInteger(response.readSize) || response.readSize === 0)) {
    throw new FixtureTransportErrorV1('fixture-invalid', `${where}: readSize must be a positive integer`);
  }
  for (const delay of [response.delayMs, response.readDelayMs]) {
    if (delay !== undefined && !isNonNegativeInteger(delay)) {
      throw new FixtureTransportErrorV1('fixture-invalid', `${where}: delays must be non-negative integers`);
    }
  }
  if (response.bodyFailure !== undefined && !isNonNegativeInteger(response.bodyFailure.afterBytes)) {
    throw new FixtureTransportErrorV1('fixture-invalid', `${where}: bodyFailure.afterBytes must be a non-negative integer`);
  }
  const reasons: readonly (string | undefined)[] = [response.failure?.reason, response.bodyFailure?.reason];
  for (const reason of reasons) {
    if (reason !== undefined && !(PROVIDER_TRANSPORT_FAILURE_REASONS_V1 as readonly string[]).includes(reason)) {
      throw new FixtureTransportErrorV1('fixture-invalid', `${where}: unknown transport failure reason`);
    }
  }
  if (response.failure !== undefined && response.failure.stage !== 'before-send' && response.failure.stage !== 'after-send') {
    throw new FixtureTransportErrorV1('fixture-invalid', `${where}: failure.stage must be before-send or after-send`);
  }
}

/** Waits `ms`, rejecting with an `after-send` abort failure as soon as `signal` aborts. */
function wait(ms: number, signal: AbortSignal): Promise<void> {
  if (signal.aborted) return Promise.reject(new ProviderTransportFailureV1('after-send', 'aborted', { cause: signal.reason }));
  if (ms === 0) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(new ProviderTransportFailureV1('after-send', 'aborted', { cause: signal.reason }));
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

interface BodyTracker {
  state: FixtureBodyStateV1;
}

function createBody(
  chunks: readonly Uint8Array[],
  response: FixtureResponseV1,
  signal: AbortSignal,
  tracker: BodyTracker,
): AsyncIterable<Uint8Array> {
  let next = 0;
  let delivered = 0;
  const failAt = response.bodyFailure?.afterBytes;
  const fail = (failure: ProviderTransportFailureV1): never => {
    tracker.state = 'failed';
    throw failure;
  };
  const iterator: AsyncIterator<Uint8Array> & AsyncIterable<Uint8Array> = {
    async next(): Promise<IteratorResult<Uint8Array>> {
      if (tracker.state === 'finished' || tracker.state === 'released' || tracker.state === 'failed') {
        return { done: true, value: undefined };
      }
      tracker.state = 'reading';
      if (signal.aborted) fail(new ProviderTransportFailureV1('after-send', 'aborted', { cause: signal.reason }));
      if (failAt !== undefined && delivered >= failAt) {
        fail(new ProviderTransportFailureV1('after-send', response.bodyFailure?.reason ?? 'connection-lost'));
      }
      if (next >= chunks.length) {
        tracker.state = 'finished';
        return { done: true, value: undefined };
      }
      if (response.readDelayMs !== undefined) {
        try {
          await wait(response.readDelayMs, signal);
        } catch (failure) {
          fail(failure as ProviderTransportFailureV1);
        }
        // `return()` may have released the body while this read waited.
        if (tracker.state !== 'reading') return { done: true, value: undefined };
      }
      let chunk = chunks[next] as Uint8Array;
      next += 1;
      if (failAt !== undefined && delivered + chunk.byteLength > failAt) chunk = chunk.subarray(0, failAt - delivered);
      delivered += chunk.byteLength;
      return { done: false, value: chunk.slice() };
    },
    async return(): Promise<IteratorResult<Uint8Array>> {
      if (tracker.state === 'unread' || tracker.state === 'reading') tracker.state = 'released';
      return { done: true, value: undefined };
    },
    [Symbol.asyncIterator]() {
      return iterator;
    },
  };
  return iterator;
}

/**
 * Creates a transport that answers each `send` with the next scripted response and records every request.
 * Uses only web-standard APIs, so it runs wherever the adapters run. Simulates failures before and after send,
 * delays, slow reads at a chosen read size, mid-body connection loss, and honours the request's signal while
 * waiting for the head and during body reads (an abort rejects with an `after-send` `aborted` failure; an
 * already-aborted signal rejects `before-send`).
 *
 * @throws {FixtureTransportErrorV1} `fixture-invalid` at creation for a malformed script; `send` rejects with
 * `fixture-exhausted` after the script ran out and `request-invalid` for a request that cannot be serialized.
 */
export function createFixtureTransportV1(options: CreateFixtureTransportOptionsV1): FixtureTransportV1 {
  const script = [...options.responses];
  script.forEach(checkScript);
  const prepared = script.map((response) => {
    const reads = bodyReads(response.body ?? { type: 'none' });
    return response.readSize === undefined ? reads : rechunk(reads, response.readSize);
  });
  const requests: RecordedTransportRequestV1[] = [];
  const trackers: (BodyTracker | undefined)[] = [];
  let served = 0;

  async function send(request: ProviderTransportRequest): Promise<ProviderTransportResponse> {
    // A request that cannot be recorded consumes no response.
    requests.push(await recordTransportRequest(request));
    const index = served;
    const response = script[index];
    if (response === undefined) {
      throw new FixtureTransportErrorV1('fixture-exhausted', `request ${requests.length} arrived after ${script.length} scripted responses`);
    }
    served += 1;
    trackers.push(undefined);
    if (request.signal.aborted) {
      throw new ProviderTransportFailureV1('before-send', 'aborted', { cause: request.signal.reason });
    }
    if (response.failure?.stage === 'before-send') {
      throw new ProviderTransportFailureV1('before-send', response.failure.reason ?? 'connect-failed');
    }
    await wait(response.delayMs ?? 0, request.signal);
    if (response.failure !== undefined) {
      throw new ProviderTransportFailureV1('after-send', response.failure.reason ?? 'connection-lost');
    }
    const body = response.body ?? { type: 'none' };
    const headers: Record<string, string> = {};
    const contentType = contentTypeFor(body);
    if (contentType !== undefined) headers['content-type'] = contentType;
    for (const [name, value] of Object.entries(response.headers ?? {})) headers[name.toLowerCase()] = value;
    const tracker: BodyTracker = { state: 'unread' };
    trackers[trackers.length - 1] = tracker;
    return {
      status: response.status ?? 200,
      headers,
      body: createBody(prepared[index] as Uint8Array[], response, request.signal, tracker),
    };
  }

  return {
    send,
    get requests() {
      return requests;
    },
    get served() {
      return served;
    },
    get remaining() {
      return script.length - served;
    },
    bodyStates: () => trackers.map((tracker) => tracker?.state),
  };
}
