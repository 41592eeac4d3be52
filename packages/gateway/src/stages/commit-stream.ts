import type { AdapterTerminalOutcomeV4, EgressCodecV1, EgressContextV1, NormalizedStreamEventV4, UsageV3 } from '@tokenforge/model-protocol';
import type { ProtocolEngineExecutionV1 } from '@tokenforge/protocol-engine';
import { isGatewayShutdown } from '../http/request-deadline.js';
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
  const pending: Uint8Array[] = [];
  // This attempt's latest usage event: what a stream cut before its terminal is settled with.
  let streamedUsage: UsageV3 | undefined;
  const take = (event: NormalizedStreamEventV4): void => {
    if (event.type === 'usage') {
      facts.usage = event.usage;
      streamedUsage = event.usage;
    }
    const bytes = encoder.encodeEvent(event);
    if (bytes.byteLength > 0) pending.push(bytes);
  };
  let ended = false;
  try {
    while (pending.length === 0) {
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
  if (ended && pending.length === 0) {
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
    input.release();
    input.settle(terminal, streamedUsage, status);
    input.end(200, status);
  };
  const endWith = async (controller: ReadableStreamDefaultController<Uint8Array>, terminal: AdapterTerminalOutcomeV4): Promise<void> => {
    const tail = encoder.encodeTerminal(terminal);
    // An in-stream error goes out as its own read: the Gemini SDK recognises its bare error object only when
    // it does not share a socket read with the frames before it.
    if (terminal.status === 'failed' && facts.firstByteAt !== undefined) await new Promise((resolve) => setTimeout(resolve, IN_STREAM_ERROR_PAUSE_MS));
    if (tail.byteLength > 0) controller.enqueue(tail);
    controller.close();
  };
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        // A pull that enqueues nothing is not repeated by the stream: loop until bytes or the end.
        for (;;) {
          const bytes = pending.shift();
          if (bytes !== undefined) {
            facts.firstByteAt ??= performance.now();
            controller.enqueue(bytes);
            return;
          }
          if (ended) break;
          const next = await iterator.next();
          if (next.done === true) ended = true;
          else take(next.value);
        }
        const terminal = await execution.terminal;
        const early = terminal.status === 'completed' ? undefined : earlyEnd(input.signal);
        await endWith(controller, early === 'shutdown' ? SHUTDOWN_TERMINAL : terminal);
        close(terminal, early === 'shutdown' ? 'failed-in-stream:shutdown' : early ?? (terminal.status === 'failed' ? `failed-in-stream:${terminal.failure.code}` : terminal.status));
      } catch {
        execution.abort('stream error');
        const early = earlyEnd(input.signal);
        if (early === 'shutdown') {
          await endWith(controller, SHUTDOWN_TERMINAL).catch(() => undefined);
          close(undefined, 'failed-in-stream:shutdown');
          return;
        }
        controller.error(new Error('stream failed'));
        close(undefined, early ?? 'failed-in-stream:gateway');
      }
    },
    async cancel() {
      execution.abort('client closed the stream');
      await iterator.return?.().catch(() => undefined);
      const terminal = await execution.terminal.catch(() => undefined);
      close(terminal, 'cancelled');
    },
  });
  return {
    kind: 'answer',
    response: new Response(body, {
      status: 200,
      headers: { 'content-type': encoder.contentType, 'cache-control': 'no-cache', 'x-request-id': scope.requestId },
    }),
    outcome: 'stream',
  };
}
