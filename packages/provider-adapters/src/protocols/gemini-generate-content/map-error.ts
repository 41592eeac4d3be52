import type { NormalizedProviderFailureV1 } from '@tokenforge/model-protocol';
import { createHttpFailure, mapHttpStatusToFailure, type HttpStatusFailure } from '../../codec-kit/http-failure.js';
import { isJsonObject, readGeminiError, type GeminiErrorWire } from './wire-readers.js';

/**
 * What each canonical Google status means (fact sheet §4.6). `RESOURCE_EXHAUSTED` depends on the HTTP code:
 * 429 is a rate limit (retryable), 402 exhausted prepaid credit (not retryable).
 */
const STATUS_FAILURES: Readonly<Record<string, HttpStatusFailure>> = {
  INVALID_ARGUMENT: { code: 'invalid-request', retryable: false },
  OUT_OF_RANGE: { code: 'invalid-request', retryable: false },
  // Billing or region preconditions: the key may not use the API until its owner acts.
  FAILED_PRECONDITION: { code: 'permission-denied', retryable: false },
  UNAUTHENTICATED: { code: 'authentication', retryable: false },
  PERMISSION_DENIED: { code: 'permission-denied', retryable: false },
  NOT_FOUND: { code: 'not-found', retryable: false },
  ALREADY_EXISTS: { code: 'conflict', retryable: false },
  ABORTED: { code: 'conflict', retryable: true },
  UNIMPLEMENTED: { code: 'unsupported', retryable: false },
  CANCELLED: { code: 'provider-error', retryable: true },
  INTERNAL: { code: 'provider-error', retryable: true },
  UNKNOWN: { code: 'provider-error', retryable: true },
  DATA_LOSS: { code: 'provider-error', retryable: true },
  UNAVAILABLE: { code: 'overloaded', retryable: true },
  DEADLINE_EXCEEDED: { code: 'timeout', retryable: true },
};

function classify(error: GeminiErrorWire, httpStatus: number): HttpStatusFailure {
  if (error.reason === 'API_KEY_INVALID') return { code: 'authentication', retryable: false };
  if (error.inputTooLong === true && (error.status === undefined || error.status === 'INVALID_ARGUMENT')) return { code: 'context-length-exceeded', retryable: false };
  if (error.status === 'RESOURCE_EXHAUSTED') {
    return httpStatus === 402 ? { code: 'quota-exceeded', retryable: false } : { code: 'rate-limited', retryable: true };
  }
  return (error.status === undefined ? undefined : STATUS_FAILURES[error.status]) ?? mapHttpStatusToFailure(httpStatus);
}

/** Input of {@link mapGeminiHttpError}. */
export interface MapGeminiHttpErrorInput {
  /** The HTTP status of the response. */
  readonly status: number;
  /** Response headers with lower-case names (`retry-after` is read). */
  readonly headers: Readonly<Record<string, string>>;
  /** The parsed error body, or `undefined` when it was empty or not JSON. */
  readonly body: unknown;
  /** The current time in epoch milliseconds (for an HTTP-date `retry-after`). */
  readonly nowMs: number;
}

/**
 * Maps a non-success response `{error: {code, message, status, details}}` to a normalized failure: the
 * canonical `status` decides (see the table above; `ErrorInfo.reason` `API_KEY_INVALID` is `authentication`, and
 * an `INVALID_ARGUMENT` whose message is the input-token-count refusal is `context-length-exceeded`),
 * else the HTTP status. The wait comes from `retry-after`, else from the `RetryInfo.retryDelay` detail.
 * `providerCode` is the canonical status. The message is never kept.
 */
export function mapGeminiHttpError(input: MapGeminiHttpErrorInput): NormalizedProviderFailureV1 {
  const error = readGeminiError(isJsonObject(input.body) ? input.body.error : undefined);
  const failure = createHttpFailure({
    status: input.status,
    headers: input.headers,
    nowMs: input.nowMs,
    providerCode: error.status,
    override: classify(error, input.status),
  });
  return withRetryDelay(failure, error);
}

/**
 * Maps an error object that arrived inside a stream (a bare `{"error": ...}` JSON value or a chunk holding
 * one): the same table, with the object's own `code` standing in for the HTTP status (500 when absent).
 */
export function mapGeminiStreamError(error: GeminiErrorWire): NormalizedProviderFailureV1 {
  const status = error.code !== undefined && error.code >= 400 && error.code <= 599 ? error.code : 500;
  const failure = createHttpFailure({ status, nowMs: 0, providerCode: error.status, override: classify(error, status) });
  return withRetryDelay(failure, error);
}

function withRetryDelay(failure: NormalizedProviderFailureV1, error: GeminiErrorWire): NormalizedProviderFailureV1 {
  if (failure.retryAfterMs !== undefined || error.retryDelayMs === undefined) return failure;
  return { ...failure, retryAfterMs: error.retryDelayMs };
}
