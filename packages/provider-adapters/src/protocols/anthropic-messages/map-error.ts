import type { NormalizedProviderFailureV1 } from '@tokenforge/model-protocol';
import { createHttpFailure, type HttpStatusFailure } from '../../codec-kit/index.js';
import type { AnthropicWireError } from './wire-readers.js';

/**
 * What each documented Anthropic `error.type` means (fact sheet §3.8). The set is open: a type not listed
 * here falls back to the HTTP status default (or, mid-stream, a non-retryable `provider-error`).
 */
const ERROR_TYPE_FAILURES: ReadonlyMap<string, HttpStatusFailure> = new Map([
  ['invalid_request_error', { code: 'invalid-request', retryable: false }],
  ['authentication_error', { code: 'authentication', retryable: false }],
  ['billing_error', { code: 'quota-exceeded', retryable: false }],
  ['permission_error', { code: 'permission-denied', retryable: false }],
  ['not_found_error', { code: 'not-found', retryable: false }],
  ['conflict_error', { code: 'conflict', retryable: false }],
  ['request_too_large', { code: 'invalid-request', retryable: false }],
  ['rate_limit_error', { code: 'rate-limited', retryable: true }],
  ['api_error', { code: 'provider-error', retryable: true }],
  ['timeout_error', { code: 'timeout', retryable: true }],
  ['overloaded_error', { code: 'overloaded', retryable: true }],
]);

/** The usage-tier monthly spend cap: a 429 that waiting does not fix. */
const SPEND_LIMIT_ERROR_CODE = 'enforced_spend_limit_reached';

/** Input of {@link mapAnthropicError}. */
export interface MapAnthropicErrorInput {
  /** The HTTP status (200 for a mid-stream `error` event). */
  readonly status: number;
  /** Response headers with lower-case names (`retry-after`, `retry-after-ms`). */
  readonly headers: Readonly<Record<string, string>>;
  /** The error object read from the envelope or event, if the body had one. */
  readonly error: AnthropicWireError | undefined;
  /** The current time in epoch milliseconds, for HTTP-date retry hints. */
  readonly nowMs: number;
}

/**
 * Maps an Anthropic error (an HTTP error envelope, or a stream `error` event after a 200) to a normalized
 * failure. The `error.type` decides when it is a documented one: `invalid_request_error` and
 * `request_too_large` → `invalid-request`; `authentication_error` → `authentication`; `billing_error` →
 * `quota-exceeded`; `permission_error` → `permission-denied`; `not_found_error` → `not-found`;
 * `conflict_error` → `conflict`; `rate_limit_error` → `rate-limited` (retryable), except with
 * `details.error_code: enforced_spend_limit_reached`, which is `quota-exceeded` (not retryable); an
 * `invalid_request_error` or `request_too_large` whose message is `prompt is too long…` is `context-length-exceeded`;
 * `api_error` → `provider-error`, `timeout_error` → `timeout`, `overloaded_error` (HTTP 529) → `overloaded`,
 * all retryable. Otherwise the HTTP status decides (kit default); an unknown type inside a 200 stream is a
 * non-retryable `provider-error`. `retryAfterMs` comes from `retry-after-ms` or `retry-after`; the provider
 * code is `error.type` when it fits the contract's charset. The error message is never kept (it is only tested for
 * the context-overflow sentence).
 */
export function mapAnthropicError(input: MapAnthropicErrorInput): NormalizedProviderFailureV1 {
  const type = input.error?.type;
  let override = type === undefined ? undefined : ERROR_TYPE_FAILURES.get(type);
  if (type === 'rate_limit_error' && input.error?.errorCode === SPEND_LIMIT_ERROR_CODE) {
    override = { code: 'quota-exceeded', retryable: false };
  }
  if (input.error?.promptTooLong === true && (type === 'invalid_request_error' || type === 'request_too_large')) {
    override = { code: 'context-length-exceeded', retryable: false };
  }
  if (override === undefined && input.status >= 200 && input.status <= 299) {
    override = { code: 'provider-error', retryable: false };
  }
  return createHttpFailure({
    status: input.status,
    headers: input.headers,
    nowMs: input.nowMs,
    providerCode: type,
    ...(override === undefined ? {} : { override }),
  });
}
