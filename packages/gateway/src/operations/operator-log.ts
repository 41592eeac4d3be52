import type { ProviderDiagnosticV3, ProviderRateLimitsV3, ProviderReportedCostV3, UsageV3 } from '@tokenforge/model-protocol';
import { pino, type DestinationStream, type Logger } from 'pino';

/** One attempt at a target. */
export interface OperatorLogAttempt {
  /** `<model>#<index>` of the catalogue target. */
  readonly target: string;
  readonly provider: string;
  readonly family: string;
  /** `ok`, a normalized failure code, or an engine error code. */
  readonly outcome: string;
  /** The wait the provider asked for with this failure (`retry-after`, `retry-after-ms`), in milliseconds. */
  readonly retryAfterMs?: number;
  /**
   * The family's stable code for this failure (`failure.providerCode`, for example `agent-cli.not-signed-in`,
   * `agent-cli.deadline`, or the provider's own error code), when it is a short identifier (letters, digits,
   * `.`, `_`, `:`, `-`; at most 64 characters); anything else is left out.
   */
  readonly providerCode?: string;
  /**
   * Why this attempt failed, as the family explained it to the engine's observer: the rule, where and what was
   * expected, and the provider's request id. Never the offending value.
   */
  readonly diagnostics?: readonly ProviderDiagnosticV3[];
  /**
   * Where and why the transport failed, for an attempt that got no response head (`PROTOCOL_ENGINE_TRANSPORT_FAILED`):
   * `stage` (`before-send`: the request cannot have reached the provider; `after-send`: it may have) and `reason`
   * (`dns-failed`, `connect-failed`, `redirect-refused`, `policy-refused`, `timeout`, ...). Closed sets only.
   */
  readonly transport?: { readonly stage: string; readonly reason: string };
  /**
   * The rate-limit facts of this attempt's response head (the operator's quota at that provider): windows with
   * `limit`, `remaining` and `resetMs` (milliseconds from that response head, not a clock time), and `retryAfterMs`.
   */
  readonly rateLimits?: ProviderRateLimitsV3;
  /** When the attempt started (epoch milliseconds). */
  readonly startedAtMs?: number;
  /** From the attempt's start to the first byte sent to the client; absent when this attempt sent none. */
  readonly timeToFirstByteMs?: number;
  /** From the attempt's start to its end (a streamed answer ends with its stream). */
  readonly durationMs?: number;
}

/**
 * The one line the operator log gets per request. Facts only: never a prompt, an output, a provider key or a
 * client key (the client is named by its catalogue id).
 */
export interface OperatorLogLine {
  readonly requestId: string;
  readonly route: string;
  /** The client key's catalogue id, or with governance the tenant id. */
  readonly client?: string;
  /** With governance: the id of the client key (never the key). */
  readonly keyId?: string;
  readonly model?: string;
  readonly target?: { readonly provider: string; readonly family: string; readonly ref: string };
  readonly attempts: readonly OperatorLogAttempt[];
  readonly status: number;
  /** `completed`, `failed:<code>`, `cancelled`, `refused:<code>`, ... */
  readonly outcome: string;
  /** The normalized usage, details included (cache writes by time to live, tokens by modality, service tier...). */
  readonly usage?: UsageV3;
  /** The cost the provider reported for this request (integer millionths of `currency`), when it reported one. */
  readonly cost?: ProviderReportedCostV3;
  /** The rate-limit facts of the last provider response head of this request (see {@link OperatorLogAttempt.rateLimits}). */
  readonly rateLimits?: ProviderRateLimitsV3;
  readonly timeToFirstByteMs?: number;
  readonly totalMs: number;
  readonly providerRequestId?: string;
  /** Hosted tools the client offered that were dropped from the offered tools (the target cannot run them). */
  readonly droppedHostedTools?: readonly string[];
  /**
   * Kinds of content left out across dialects (names only, never content): another family's opaque history parts
   * (`compaction`, `reasoning`, `redacted-reasoning`), a compaction request the target's family cannot honour
   * (`compaction-trigger`), and another family's compaction in the answer (`compaction`). The same names as the
   * `x-tokenforge-dropped-content` header; over the Responses WebSocket, which has no per-turn header, the only record.
   */
  readonly droppedContent?: readonly string[];
}

/** Where the operator log goes: a pino logger, or a destination stream pino writes JSON lines to. */
export type OperatorLogSink = Logger | DestinationStream;

function isLogger(sink: OperatorLogSink): sink is Logger {
  return typeof (sink as Logger).info === 'function' && typeof (sink as Logger).child === 'function';
}

/**
 * How the default operator log reaches stderr: lines gather up to {@link OPERATOR_LOG_BATCH_BYTES} and are written in
 * one `write` (a line per request otherwise costs a write of its own, about 50 µs of the main thread each on the
 * benchmark machine), and whatever has gathered is written at least every {@link OPERATOR_LOG_FLUSH_MS}. pino writes
 * the rest synchronously when the process exits; a SIGKILL can lose at most the lines of the last interval.
 */
export const OPERATOR_LOG_BATCH_BYTES = 4096;
/** See {@link OPERATOR_LOG_BATCH_BYTES}. */
export const OPERATOR_LOG_FLUSH_MS = 100;

/** A pino logger for the operator log (stderr by default: stdout is the CLI's). */
export function createOperatorLogger(sink?: OperatorLogSink): Logger {
  if (sink !== undefined && isLogger(sink)) return sink.child({ component: 'tokenforge-gateway' });
  return pino(
    { base: { component: 'tokenforge-gateway' }, messageKey: 'message' },
    sink ?? pino.destination({ fd: 2, sync: false, minLength: OPERATOR_LOG_BATCH_BYTES, periodicFlush: OPERATOR_LOG_FLUSH_MS }),
  );
}

/**
 * Writes one request line once the current I/O callbacks and microtasks have run (`setImmediate`): the handler
 * that ends a request calls this before it returns its response, and serializing the line then would delay the
 * response by that much. The line's facts (`totalMs`, ...) are taken by the caller when it calls.
 */
export function logRequest(logger: Logger, line: OperatorLogLine): void {
  setImmediate(writeRequestLine, logger, line);
}

/** Something that reads each request line's facts as it is written (the metrics). Must not throw. */
export type OperatorLogObserver = (line: OperatorLogLine) => void;

const observers = new WeakMap<Logger, OperatorLogObserver[]>();

/**
 * Calls `observer` with every request line written to `logger` through {@link logRequest}, after the line is
 * written: the metrics read the same facts as the log without a hook in the request path. Returns the undo.
 */
export function observeRequestLines(logger: Logger, observer: OperatorLogObserver): () => void {
  observers.set(logger, [...(observers.get(logger) ?? []), observer]);
  return () => observers.set(logger, (observers.get(logger) ?? []).filter((candidate) => candidate !== observer));
}

/**
 * The level of a request's line: a failure the gateway or an upstream caused is `error` (5xx) or `warn` (a failed
 * answer below 500, or a success that needed a fallback or retry after a failed attempt); successes, client-side
 * refusals (`refused:*`, 4xx) and clients that left are `info`. The stage and cause stay in the line's attempts
 * (`transport`, `diagnostics`).
 */
export function requestLineLevel(line: Pick<OperatorLogLine, 'status' | 'outcome' | 'attempts'>): 'info' | 'warn' | 'error' {
  const failed = line.outcome.startsWith('failed') || line.outcome.startsWith('engine:');
  if (failed || (line.status >= 500 && !line.outcome.startsWith('refused:'))) return line.status >= 500 ? 'error' : 'warn';
  if (line.status < 400 && line.attempts.some((attempt) => attempt.outcome !== 'ok')) return 'warn';
  return 'info';
}

function writeRequestLine(logger: Logger, line: OperatorLogLine): void {
  logger[requestLineLevel(line)](line, 'request');
  for (const observer of observers.get(logger) ?? []) {
    try {
      observer(line);
    } catch {
      // An observer's fault (a metrics bug) must not take the process down; the log line is written already.
    }
  }
}
