import {
  ProviderTransportFailureV1,
  type ProviderTransportFailureV1 as Failure,
  type ProviderTransportResponse,
} from '@tokenforge/model-protocol';
import { Readable } from 'node:stream';
import type { Dispatcher } from 'undici';
import { toTransportFailure } from '../failure/to-transport-failure.js';
import type { SecretRedactor } from '../failure/secret-redactor.js';
import { HttpTransportDiagnostic } from '../failure/transport-diagnostic.js';
import { createEventStreamErrorRedactor } from './event-stream-error-redactor.js';
import type { BodyRedactor, ResponseRedactor } from './response-redactor.js';

/** One HTTP exchange handed to undici. */
export interface DispatchRequestInput {
  readonly dispatcher: Dispatcher;
  readonly method: 'GET' | 'POST' | 'DELETE';
  /** Path and query, already checked. */
  readonly path: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: Uint8Array | AsyncIterable<Uint8Array> | undefined;
  readonly signal: AbortSignal;
  readonly maxResponseBytes: number;
  /** Head to end of a body that is not an event stream. */
  readonly bodyDeadlineMs: number;
  /** Head to the consumer's first pull of the body. */
  readonly firstPullTimeoutMs: number;
  readonly redact: SecretRedactor;
  /** Counts requests waiting for a socket: acquired once at dispatch, released once writing starts or the request ends. */
  readonly socketDemand: SocketDemand;
  /** Called once when the exchange no longer needs its connection (the response ended, failed or was released). */
  readonly onDone?: () => void;
  /** Removes the connection's secrets from header values, and from the body of a response that is not 2xx, before anyone reads them. */
  readonly responseRedactor: ResponseRedactor;
}

/** The transport's count of requests that still need a socket. */
export interface SocketDemand {
  acquire(): void;
  release(): void;
}

type IncomingHttpHeaders = Parameters<NonNullable<Dispatcher.DispatchHandler['onResponseStart']>>[2];

// Backpressure: stop reading the socket above the high mark, resume once the consumer drained below the low one.
const HIGH_WATER_BYTES = 256 * 1024;
const LOW_WATER_BYTES = 64 * 1024;

/**
 * Sends one request and resolves when the response head arrives. The body is an async iterable fed by the
 * socket with backpressure; `return()` on its iterator destroys the socket (an unread body cannot be reused).
 */
export function dispatchRequest(input: DispatchRequestInput): Promise<ProviderTransportResponse> {
  return new Promise((resolve, reject) => {
    const exchange = new Exchange(input, resolve, reject);
    exchange.start();
  });
}

/** Released by the consumer: not an error anyone sees. */
const RELEASED = new HttpTransportDiagnostic('response body released by the consumer');

class Exchange implements Dispatcher.DispatchHandler {
  readonly #input: DispatchRequestInput;
  readonly #resolveHead: (response: ProviderTransportResponse) => void;
  readonly #rejectHead: (failure: Failure) => void;
  #controller: Dispatcher.DispatchController | undefined;
  #requestStarted = false;
  #demandHeld = false;
  #head: 'pending' | 'delivered' | 'rejected' = 'pending';
  #finished = false;
  #released = false;
  #pendingAbort: Failure | undefined;
  readonly #chunks: Uint8Array[] = [];
  #bufferedBytes = 0;
  #receivedBytes = 0;
  #ended = false;
  #failure: Failure | undefined;
  #bodyRedactor: BodyRedactor | undefined;
  #pulled = false;
  #firstPullTimer: ReturnType<typeof setTimeout> | undefined;
  #deadlineTimer: ReturnType<typeof setTimeout> | undefined;
  readonly #waiters: (() => void)[] = [];
  readonly #onAbort = (): void => this.#abortFromSignal();

  constructor(
    input: DispatchRequestInput,
    resolveHead: (response: ProviderTransportResponse) => void,
    rejectHead: (failure: Failure) => void,
  ) {
    this.#input = input;
    this.#resolveHead = resolveHead;
    this.#rejectHead = rejectHead;
  }

  start(): void {
    const input = this.#input;
    if (input.signal.aborted) {
      this.#settleHeadFailure(abortedFailure('before-send'));
      return;
    }
    input.signal.addEventListener('abort', this.#onAbort, { once: true });
    input.socketDemand.acquire();
    this.#demandHeld = true;
    try {
      input.dispatcher.dispatch(
        { path: input.path, method: input.method, headers: input.headers, body: toUndiciBody(input.body) ?? null },
        this,
      );
    } catch (error) {
      this.onResponseError(undefined, error as Error);
    }
  }

  onRequestStart(controller: Dispatcher.DispatchController): void {
    this.#controller = controller;
    this.#requestStarted = true;
    this.#releaseDemand();
    // Aborted while queued or connecting: stop before undici writes a byte.
    if (this.#pendingAbort !== undefined) controller.abort(this.#pendingAbort);
  }

  onResponseStart(
    controller: Dispatcher.DispatchController,
    statusCode: number,
    headers: IncomingHttpHeaders,
  ): void {
    if (statusCode < 200 || this.#head !== 'pending') return;
    this.#head = 'delivered';
    const iterator = this.#createBodyIterator();
    const normalized = normalizeHeaders(headers, this.#input.responseRedactor);
    // A successful body is the answer itself: never rewritten. Only a failure may echo the key back: a body that
    // is not 2xx, or an error event inside a 2xx event stream.
    const eventStream = /^\s*text\/event-stream\s*(?:;|$)/i.test(normalized['content-type'] ?? '');
    this.#bodyRedactor =
      statusCode >= 300 ? this.#input.responseRedactor.createBodyRedactor() : eventStream ? createEventStreamErrorRedactor(this.#input.responseRedactor) : undefined;
    this.#resolveHead({ status: statusCode, headers: normalized, body: { [Symbol.asyncIterator]: () => iterator } });
    const declared = Number(headers['content-length']);
    if (Number.isFinite(declared) && declared > this.#input.maxResponseBytes) {
      controller.abort(tooLargeFailure());
      return;
    }
    this.#startBodyTimers(controller, normalized['content-type']);
  }

  #startBodyTimers(controller: Dispatcher.DispatchController, contentType: string | undefined): void {
    this.#firstPullTimer = setTimeout(() => {
      if (!this.#pulled && !this.#ended) controller.abort(timeoutFailure('the response body was not read within firstPullTimeoutMs'));
    }, this.#input.firstPullTimeoutMs);
    this.#firstPullTimer.unref?.();
    if (contentType !== undefined && /^\s*text\/event-stream\s*(?:;|$)/i.test(contentType)) return;
    this.#deadlineTimer = setTimeout(() => {
      if (!this.#ended) controller.abort(timeoutFailure('the response body did not end within bodyDeadlineMs'));
    }, this.#input.bodyDeadlineMs);
    this.#deadlineTimer.unref?.();
  }

  #clearBodyTimers(): void {
    if (this.#firstPullTimer !== undefined) clearTimeout(this.#firstPullTimer);
    if (this.#deadlineTimer !== undefined) clearTimeout(this.#deadlineTimer);
    this.#firstPullTimer = undefined;
    this.#deadlineTimer = undefined;
  }

  onResponseData(controller: Dispatcher.DispatchController, chunk: Uint8Array): void {
    if (this.#finished) return;
    this.#receivedBytes += chunk.byteLength;
    if (this.#receivedBytes > this.#input.maxResponseBytes) {
      controller.abort(tooLargeFailure());
      return;
    }
    const redacted = this.#bodyRedactor === undefined ? chunk : this.#bodyRedactor.push(chunk);
    if (redacted.byteLength === 0) return;
    this.#chunks.push(redacted);
    this.#bufferedBytes += redacted.byteLength;
    if (this.#bufferedBytes >= HIGH_WATER_BYTES) controller.pause();
    this.#wake();
  }

  onResponseEnd(): void {
    this.#clearBodyTimers();
    const rest = this.#bodyRedactor?.flush();
    if (rest !== undefined && rest.byteLength > 0 && !this.#finished) {
      this.#chunks.push(rest);
      this.#bufferedBytes += rest.byteLength;
    }
    this.#ended = true;
    // Undici frees the socket for reuse in a `setImmediate` queued right after this call. Reporting the end
    // one check phase later lets the consumer's next request find that socket instead of opening another.
    setImmediate(() => setImmediate(() => this.#finish()));
  }

  onResponseError(_controller: Dispatcher.DispatchController | undefined, error: Error): void {
    if (this.#finished) return;
    if (this.#released || error === RELEASED) {
      this.#finish();
      return;
    }
    const failure = toTransportFailure(error, this.#requestStarted ? 'after-send' : 'before-send', this.#input.redact);
    if (this.#head !== 'delivered') {
      this.#settleHeadFailure(failure);
      return;
    }
    // An abort should surface at once; other failures come after the bytes that did arrive.
    if (failure.reason === 'aborted') this.#dropBuffered();
    this.#failure = failure;
    this.#finish();
  }

  #abortFromSignal(): void {
    if (this.#finished || this.#ended) return;
    if (!this.#requestStarted) {
      this.#pendingAbort = abortedFailure('before-send');
      this.#settleHeadFailure(this.#pendingAbort);
      return;
    }
    this.#controller?.abort(abortedFailure('after-send'));
  }

  #releaseDemand(): void {
    if (!this.#demandHeld) return;
    this.#demandHeld = false;
    this.#input.socketDemand.release();
  }

  #settleHeadFailure(failure: Failure): void {
    this.#releaseDemand();
    this.#input.onDone?.();
    if (this.#head !== 'pending') return;
    this.#head = 'rejected';
    this.#input.signal.removeEventListener('abort', this.#onAbort);
    this.#rejectHead(failure);
  }

  #finish(): void {
    this.#releaseDemand();
    this.#input.onDone?.();
    this.#clearBodyTimers();
    this.#finished = true;
    this.#input.signal.removeEventListener('abort', this.#onAbort);
    this.#wake();
  }

  #wake(): void {
    for (const waiter of this.#waiters.splice(0)) waiter();
  }

  #dropBuffered(): void {
    this.#chunks.length = 0;
    this.#bufferedBytes = 0;
  }

  #createBodyIterator(): AsyncIterator<Uint8Array> {
    let failureDelivered = false;
    const next = async (): Promise<IteratorResult<Uint8Array>> => {
      if (!this.#pulled) {
        this.#pulled = true;
        if (this.#firstPullTimer !== undefined) clearTimeout(this.#firstPullTimer);
        this.#firstPullTimer = undefined;
      }
      for (;;) {
        const chunk = this.#chunks.shift();
        if (chunk !== undefined) {
          this.#bufferedBytes -= chunk.byteLength;
          if (this.#controller?.paused === true && this.#bufferedBytes <= LOW_WATER_BYTES) this.#controller.resume();
          return { value: chunk, done: false };
        }
        if (this.#failure !== undefined && !failureDelivered) {
          failureDelivered = true;
          throw this.#failure;
        }
        if (this.#finished) return { value: undefined, done: true };
        await new Promise<void>((wake) => this.#waiters.push(wake));
      }
    };
    const release = async (): Promise<IteratorResult<Uint8Array>> => {
      if (!this.#finished && !this.#ended) {
        this.#released = true;
        this.#controller?.abort(RELEASED);
      }
      this.#dropBuffered();
      this.#finish();
      return { value: undefined, done: true };
    };
    return { next, return: release };
  }
}

function toUndiciBody(body: Uint8Array | AsyncIterable<Uint8Array> | undefined): Buffer | Readable | undefined {
  if (body === undefined) return undefined;
  if (body instanceof Uint8Array) return Buffer.from(body.buffer, body.byteOffset, body.byteLength);
  return Readable.from(
    (async function* toBuffers() {
      for await (const chunk of body) yield Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    })(),
    { objectMode: false },
  );
}

function normalizeHeaders(headers: IncomingHttpHeaders, redactor: ResponseRedactor): Record<string, string> {
  const normalized: Record<string, string> = Object.create(null) as Record<string, string>;
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue;
    normalized[name.toLowerCase()] = redactor.headerValue(Array.isArray(value) ? value.join(', ') : value);
  }
  return normalized;
}

function abortedFailure(stage: 'before-send' | 'after-send'): Failure {
  return new ProviderTransportFailureV1(stage, 'aborted', { cause: new HttpTransportDiagnostic('the request signal was aborted') });
}

function timeoutFailure(why: string): Failure {
  return new ProviderTransportFailureV1('after-send', 'timeout', { cause: new HttpTransportDiagnostic(why) });
}

function tooLargeFailure(): Failure {
  return new ProviderTransportFailureV1('after-send', 'response-too-large', {
    cause: new HttpTransportDiagnostic('the response body exceeded maxResponseBytes'),
  });
}
