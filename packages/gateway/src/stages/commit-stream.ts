import {
  ADAPTER_STREAM_TAKE_BUFFERED_V1,
  EGRESS_STREAM_EVENT_TEXT_V1,
  type AdapterTerminalOutcomeV4,
  type EgressCodecV1,
  type EgressContextV1,
  type EgressStreamEventTextV1,
  type NormalizedStreamEventV4,
  type UsageV3,
} from '@tokenforge/model-protocol';
import type { ProtocolEngineExecutionV1 } from '@tokenforge/protocol-engine';
import { isGatewayShutdown } from '../http/request-deadline.js';
import { withDirectStreamWriter, type DirectStreamSocket, type DirectStreamWriter } from '../pipeline/direct-stream-writer.js';
import type { RequestScope } from '../pipeline/request-scope.js';
import { failureDetail, type Attempted, type LogAttempt } from './attempted.js';
import type { SettleAttempt } from './settle-stage.js';

const IN_STREAM_ERROR_PAUSE_MS = 20;

/** How a stream cut at the drain deadline ends for the client: the dialect's in-stream overloaded error. */
const SHUTDOWN_TERMINAL: AdapterTerminalOutcomeV4 = { status: 'failed', failure: { code: 'overloaded', retryable: true } };

/** Why a stream ended early, from the request's signal: the gateway's shutdown, the client going away, or neither. */
function earlyEnd(signal: AbortSignal): 'shutdown' | 'cancelled' | undefined {
  if (!signal.aborted) return undefined;
  if (isGatewayShutdown(signal.reason)) return 'shutdown';
  return signal.reason instanceof DOMException && signal.reason.name === 'TimeoutError' ? undefined : 'cancelled';
}

/** A streaming execution of the engine. */
export type StreamExecution = Extract<ProtocolEngineExecutionV1, { kind: 'stream' }>;

/** What committing a stream needs besides the execution. */
export interface CommitStreamInput {
  readonly execution: StreamExecution;
  readonly egress: EgressCodecV1;
  readonly context: EgressContextV1;
  readonly logAttempt: LogAttempt;
  /** Completes the logged attempt's timings when the stream ends (absent: they stay as at the head). */
  readonly finishAttempt?: () => void;
  readonly settle: SettleAttempt;
  /** The request's signal: its reason tells a client that left and the gateway's shutdown from a failure. */
  readonly signal: AbortSignal;
  /** Called once when the stream ends, before `end`. */
  readonly release: () => void;
  /** Ends the request (the log stage) with the stream's status and outcome. */
  readonly end: (status: number, outcome: string) => void;
}

/**
 * Pulls events until the encoder has bytes to send (nothing has reached the client before that, so a failed
 * terminal may still fall back), then commits the response head and streams the rest. After the first byte a
 * failure is written in-stream by the encoder and the stream ends; it is never restarted. At the drain deadline the
 * stream ends with the dialect's in-stream overloaded error (`failed-in-stream:shutdown`); a client that left is
 * logged `cancelled`.
 */
export async function commitStream(input: CommitStreamInput, scope: RequestScope): Promise<Attempted> {
  const { execution, logAttempt } = input;
  const facts = scope.facts;
  const encoder = input.egress.createStreamEncoder?.(input.context);
  if (encoder === undefined) {
    execution.abort('no stream encoder');
    await execution.terminal;
    logAttempt('no-stream-encoder');
    return { kind: 'failure', failure: { code: 'unsupported', retryable: false }, acceptance: 'not-accepted', ending: { reachedProvider: true, served: false, outcome: 'failed:no-stream-encoder' } };
  }
  const iterator = execution.events[Symbol.asyncIterator]();
  const takeReadyOf = (iterator as { [ADAPTER_STREAM_TAKE_BUFFERED_V1]?: unknown })[ADAPTER_STREAM_TAKE_BUFFERED_V1];
  const takeReady = typeof takeReadyOf === 'function' ? (takeReadyOf as () => NormalizedStreamEventV4 | undefined).bind(iterator) : undefined;
  // An encoder that offers its events as text gets them joined as text and encoded once per write (by the socket,
  // or once per chunk for the web body) instead of one byte array per event.
  const eventTextOf = (encoder as EgressStreamEventTextV1)[EGRESS_STREAM_EVENT_TEXT_V1];
  const eventText = typeof eventTextOf === 'function' ? eventTextOf.bind(encoder) : undefined;
  const pending: Uint8Array[] = [];
  let pendingText = '';
  const hasPending = (): boolean => pendingText.length > 0 || pending.length > 0;
  // This attempt's latest usage event: what a stream cut before its terminal is settled with.
  let streamedUsage: UsageV3 | undefined;
  const take = (event: NormalizedStreamEventV4): void => {
    if (event.type === 'usage') {
      facts.usage = event.usage;
      streamedUsage = event.usage;
    }
    if (eventText !== undefined) {
      pendingText += eventText(event);
      return;
    }
    const bytes = encoder.encodeEvent(event);
    if (bytes.byteLength > 0) pending.push(bytes);
  };
  /** Encodes the events the engine already holds (the rest of one upstream read), without a pull. */
  const takeHeld = (): void => {
    if (takeReady === undefined) return;
    for (let event = takeReady(); event !== undefined; event = takeReady()) take(event);
  };
  let ended = false;
  try {
    while (!hasPending()) {
      const next = await iterator.next();
      if (next.done === true) {
        ended = true;
        break;
      }
      take(next.value);
    }
  } catch {
    ended = true;
  }
  if (ended && !hasPending()) {
    const terminal = await execution.terminal;
    if (terminal.status === 'failed') {
      logAttempt(terminal.failure.code, failureDetail(terminal.failure, 'unknown'));
      // The head arrived but the answer did not (a stall, a cut): for the client, whose stream has not started,
      // that is an answer that may or may not have been produced, i.e. `unknown`.
      return {
        kind: 'failure',
        failure: terminal.failure,
        acceptance: 'unknown',
        ending: { reachedProvider: true, served: false, usage: terminal.usage ?? streamedUsage, outcome: `failed:${terminal.failure.code}` },
      };
    }
  }
  logAttempt('ok');
  facts.streamed = true;
  let closed = false;
  const close = (terminal: AdapterTerminalOutcomeV4 | undefined, status: string): void => {
    if (closed) return;
    closed = true;
    input.finishAttempt?.();
    input.release();
    input.settle(terminal, streamedUsage, status);
    input.end(200, status);
  };
  /**
   * The next bytes for the client: every event encoded since the last write, with the events of the same upstream
   * read gathered into one chunk (joined as text and encoded once when the encoder offers text); `undefined` once
   * the events have ended. Throws what the event iterator threw.
   */
  const nextChunk = async (): Promise<Uint8Array | undefined> => {
    for (;;) {
      if (!ended) takeHeld();
      if (pendingText.length > 0) {
        // One encode per write into node's pooled buffers: a string handed to the socket instead is copied into a
        // write buffer sized for its worst case (3 bytes a character), held until the client reads it.
        const chunk = Buffer.from(pendingText, 'utf8');
        pendingText = '';
        facts.firstByteAt ??= performance.now();
        return chunk;
      }
      if (pending.length > 0) {
        const chunk = pending.length === 1 ? (pending[0] as Uint8Array) : joinBytes(pending);
        pending.length = 0;
        facts.firstByteAt ??= performance.now();
        return chunk;
      }
      if (ended) return undefined;
      const next = await iterator.next();
      if (next.done === true) ended = true;
      else take(next.value);
    }
  };
  /** The stream's last bytes and how it ended, once the events have ended (`close` is the caller's, after writing them). */
  const ending = async (): Promise<{ tail: Uint8Array; terminal: AdapterTerminalOutcomeV4; status: string }> => {
    const terminal = await execution.terminal;
    const early = terminal.status === 'completed' ? undefined : earlyEnd(input.signal);
    const shown = early === 'shutdown' ? SHUTDOWN_TERMINAL : terminal;
    const tail = encoder.encodeTerminal(shown);
    // An in-stream error goes out as its own read: the Gemini SDK recognises its bare error object only when
    // it does not share a socket read with the frames before it.
    if (shown.status === 'failed' && facts.firstByteAt !== undefined) await new Promise((resolve) => setTimeout(resolve, IN_STREAM_ERROR_PAUSE_MS));
    return { tail, terminal, status: early === 'shutdown' ? 'failed-in-stream:shutdown' : early ?? (terminal.status === 'failed' ? `failed-in-stream:${terminal.failure.code}` : terminal.status) };
  };
  /** After the event iterator threw: the shutdown's in-stream error bytes, or `undefined` when the stream is to be cut. */
  const failedEnding = async (): Promise<{ tail: Uint8Array | undefined; status: string }> => {
    execution.abort('stream error');
    const early = earlyEnd(input.signal);
    if (early !== 'shutdown') return { tail: undefined, status: early ?? 'failed-in-stream:gateway' };
    const tail = encoder.encodeTerminal(SHUTDOWN_TERMINAL);
    if (facts.firstByteAt !== undefined) await new Promise((resolve) => setTimeout(resolve, IN_STREAM_ERROR_PAUSE_MS));
    return { tail, status: 'failed-in-stream:shutdown' };
  };
  const cancelled = async (): Promise<void> => {
    execution.abort('client closed the stream');
    await iterator.return?.().catch(() => undefined);
    const terminal = await execution.terminal.catch(() => undefined);
    close(terminal, 'cancelled');
  };
  const body = new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        try {
          const bytes = await nextChunk();
          if (bytes !== undefined) {
            controller.enqueue(bytes);
            return;
          }
          const { tail, terminal, status } = await ending();
          if (tail.byteLength > 0) controller.enqueue(tail);
          controller.close();
          close(terminal, status);
        } catch {
          const { tail, status } = await failedEnding();
          if (tail === undefined) controller.error(new Error('stream failed'));
          else {
            if (tail.byteLength > 0) controller.enqueue(tail);
            controller.close();
          }
          close(undefined, status);
        }
      },
      cancel: cancelled,
    },
    // Nothing is pulled before a reader asks: a response written straight to the socket never starts this stream.
    { highWaterMark: 0 },
  );
  const response = new Response(body, {
    status: 200,
    headers: { 'content-type': encoder.contentType, 'cache-control': 'no-cache', 'x-request-id': scope.requestId },
  });
  const writeToSocket: DirectStreamWriter = async (outgoing) => {
    let gone = false;
    const onClose = (): void => {
      if (gone || outgoing.writableFinished) return;
      gone = true;
      void cancelled();
    };
    outgoing.once('close', onClose);
    // A client that left before the body started: its 'close' has already been emitted.
    if (outgoing.destroyed) onClose();
    try {
      for (;;) {
        const bytes = await nextChunk();
        if (gone) return;
        if (bytes === undefined) break;
        if (!outgoing.write(bytes)) await drained(outgoing);
        if (gone) return;
      }
      const { tail, terminal, status } = await ending();
      if (gone) return;
      outgoing.end(tail.byteLength > 0 ? tail : undefined);
      close(terminal, status);
    } catch {
      if (gone) return;
      const { tail, status } = await failedEnding();
      if (tail === undefined) outgoing.destroy();
      else outgoing.end(tail.byteLength > 0 ? tail : undefined);
      close(undefined, status);
    }
  };
  return { kind: 'answer', response: withDirectStreamWriter(response, writeToSocket), outcome: 'stream' };
}

function joinBytes(parts: readonly Uint8Array[]): Uint8Array {
  let total = 0;
  for (const part of parts) total += part.byteLength;
  const joined = new Uint8Array(total);
  let offset = 0;
  for (const part of parts) {
    joined.set(part, offset);
    offset += part.byteLength;
  }
  return joined;
}

/** Resolves when `outgoing` can take more bytes, or has closed. */
function drained(outgoing: DirectStreamSocket): Promise<void> {
  if (outgoing.destroyed) return Promise.resolve();
  return new Promise((resolve) => {
    const done = (): void => {
      outgoing.off('drain', done);
      outgoing.off('close', done);
      resolve();
    };
    outgoing.once('drain', done);
    outgoing.once('close', done);
  });
}
