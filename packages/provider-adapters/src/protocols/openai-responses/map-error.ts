import type { NormalizedProviderFailureV1 } from '@tokenforge/model-protocol';
import {
  boundProviderCode,
  createHttpFailure,
  mapHttpStatusToFailure,
  type HttpStatusFailure,
} from '../../codec-kit/http-failure.js';
import type { OpenAiResponsesWireError } from './wire-schema.js';

const NOT_RETRYABLE_INVALID: HttpStatusFailure = { code: 'invalid-request', retryable: false };

/**
 * What an error `code` (or `type`) means, whatever the HTTP status. Sources: the `ResponseError.code` enum of the
 * Responses API (`server_error`, `rate_limit_exceeded`, `invalid_prompt`, `vector_store_timeout`, the image errors,
 * `data_residency_mismatch`, `bio_policy`), the HTTP error types shared with Chat Completions (§1.8), and the
 * observed `insufficient_quota` (§2.5, §2.9). Anything else keeps the status default (HTTP) or is a non-retryable
 * `provider-error` (in band).
 */
const ERROR_MEANINGS: ReadonlyMap<string, HttpStatusFailure> = new Map([
  ['rate_limit_exceeded', { code: 'rate-limited', retryable: true }],
  ['insufficient_quota', { code: 'quota-exceeded', retryable: false }],
  ['billing_hard_limit_reached', { code: 'quota-exceeded', retryable: false }],
  ['server_error', { code: 'provider-error', retryable: true }],
  ['overloaded', { code: 'overloaded', retryable: true }],
  ['vector_store_timeout', { code: 'timeout', retryable: true }],
  ['context_length_exceeded', { code: 'context-length-exceeded', retryable: false }],
  ['invalid_prompt', NOT_RETRYABLE_INVALID],
  ['data_residency_mismatch', NOT_RETRYABLE_INVALID],
  ['bio_policy', { code: 'content-filtered', retryable: false }],
  ['content_filter', { code: 'content-filtered', retryable: false }],
  ['image_content_policy_violation', { code: 'content-filtered', retryable: false }],
  ['invalid_image', NOT_RETRYABLE_INVALID],
  ['invalid_image_format', NOT_RETRYABLE_INVALID],
  ['invalid_base64_image', NOT_RETRYABLE_INVALID],
  ['invalid_image_url', NOT_RETRYABLE_INVALID],
  ['image_too_large', NOT_RETRYABLE_INVALID],
  ['image_too_small', NOT_RETRYABLE_INVALID],
  ['image_parse_error', NOT_RETRYABLE_INVALID],
  ['invalid_image_mode', NOT_RETRYABLE_INVALID],
  ['image_file_too_large', NOT_RETRYABLE_INVALID],
  ['unsupported_image_media_type', NOT_RETRYABLE_INVALID],
  ['empty_image_file', NOT_RETRYABLE_INVALID],
  ['failed_to_download_image', NOT_RETRYABLE_INVALID],
  ['image_file_not_found', NOT_RETRYABLE_INVALID],
  ['invalid_api_key', { code: 'authentication', retryable: false }],
  ['authentication_error', { code: 'authentication', retryable: false }],
  ['permission_error', { code: 'permission-denied', retryable: false }],
  ['model_not_found', { code: 'not-found', retryable: false }],
]);

function meaningOf(error: OpenAiResponsesWireError | undefined): HttpStatusFailure | undefined {
  if (error === undefined) return undefined;
  if (typeof error.code === 'string') {
    const byCode = ERROR_MEANINGS.get(error.code);
    if (byCode !== undefined) return byCode;
  }
  return error.type === undefined ? undefined : ERROR_MEANINGS.get(error.type);
}

function providerCodeOf(error: OpenAiResponsesWireError | undefined): string | undefined {
  if (error === undefined) return undefined;
  return boundProviderCode(error.code) ?? boundProviderCode(error.type);
}

/** Input of {@link mapOpenAiResponsesHttpError}. */
export interface OpenAiResponsesHttpErrorInput {
  /** The non-success HTTP status. */
  readonly status: number;
  /** Response headers, lower-case names. */
  readonly headers: Readonly<Record<string, string>>;
  /** The `error` member of the body, when the body was a readable error envelope. */
  readonly error: OpenAiResponsesWireError | undefined;
  /** Current time in epoch milliseconds (for an HTTP-date `Retry-After`), injected by the adapter. */
  readonly nowMs: number;
}

/**
 * Maps an HTTP error response (`{error:{message,type,code,param}}`, §2.9) to a normalized failure: the status gives
 * the default (the kit's table) and a known `code` or `type` refines it (a 429 `insufficient_quota` is a
 * non-retryable `quota-exceeded`); `x-should-retry: true|false` (honoured by the official SDK) overrides
 * `retryable`; `retryAfterMs` comes from `retry-after-ms`, else `Retry-After`; `providerCode` is `code`, else `type`.
 * The message is never kept.
 */
export function mapOpenAiResponsesHttpError(input: OpenAiResponsesHttpErrorInput): NormalizedProviderFailureV1 {
  const meaning = meaningOf(input.error) ?? mapHttpStatusToFailure(input.status);
  const shouldRetry = input.headers['x-should-retry'];
  const override: HttpStatusFailure =
    shouldRetry === 'true' || shouldRetry === 'false' ? { code: meaning.code, retryable: shouldRetry === 'true' } : meaning;
  const providerCode = providerCodeOf(input.error);
  return createHttpFailure({
    status: input.status,
    headers: input.headers,
    nowMs: input.nowMs,
    override,
    ...(providerCode === undefined ? {} : { providerCode }),
  });
}

/**
 * Maps a failure reported after a 200: the `error` of a `failed` Response (`{code, message}`), or a mid-stream
 * `error` event (flat or nested). A known code or type decides; a numeric code in the HTTP range is read as that
 * status; anything else is a non-retryable `provider-error`, since nothing says a resend would help.
 */
export function mapOpenAiResponsesFailure(error: OpenAiResponsesWireError | undefined): NormalizedProviderFailureV1 {
  const numeric = typeof error?.code === 'number' && error.code >= 400 && error.code <= 599 ? error.code : undefined;
  const meaning: HttpStatusFailure = meaningOf(error) ??
    (numeric === undefined ? undefined : mapHttpStatusToFailure(numeric)) ?? { code: 'provider-error', retryable: false };
  const providerCode = providerCodeOf(error);
  return { code: meaning.code, retryable: meaning.retryable, ...(providerCode === undefined ? {} : { providerCode }) };
}
