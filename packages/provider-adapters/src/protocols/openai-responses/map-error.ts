import type { NormalizedProviderFailureV1 } from '@tokenforge/model-protocol';
import type { HttpStatusFailure } from '../../codec-kit/http-failure.js';
import { mapOpenAiHttpError, mapOpenAiInBandError, type OpenAiErrorMeanings, type OpenAiHttpErrorInput } from '../openai-common/map-openai-error.js';
import type { OpenAiResponsesWireError } from './wire-readers.js';

const NOT_RETRYABLE_INVALID: HttpStatusFailure = { code: 'invalid-request', retryable: false };

/**
 * What an error `code` (or `type`) means, whatever the HTTP status. Sources: the `ResponseError.code` enum of the
 * Responses API (`server_error`, `rate_limit_exceeded`, `invalid_prompt`, `vector_store_timeout`, the image errors,
 * `data_residency_mismatch`, `bio_policy`), the HTTP error types shared with Chat Completions (§1.8), and the
 * observed `insufficient_quota` (§2.5, §2.9). Anything else keeps the status default (HTTP) or is a non-retryable
 * `provider-error` (in band).
 */
const ERROR_MEANINGS: OpenAiErrorMeanings = new Map<string, HttpStatusFailure>([
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

/** Input of {@link mapOpenAiResponsesHttpError}. */
export interface OpenAiResponsesHttpErrorInput extends OpenAiHttpErrorInput {
  /** The `error` member of the body, when the body was a readable error envelope. */
  readonly error: OpenAiResponsesWireError | undefined;
}

/**
 * Maps an HTTP error response (`{error:{message,type,code,param}}`, §2.9) to a normalized failure: the status gives
 * the default and a known `code` or `type` refines it (a 429 `insufficient_quota` is a non-retryable
 * `quota-exceeded`); `x-should-retry` overrides `retryable`; `retryAfterMs` comes from `retry-after-ms`, else
 * `Retry-After`. See {@link mapOpenAiHttpError}.
 */
export function mapOpenAiResponsesHttpError(input: OpenAiResponsesHttpErrorInput): NormalizedProviderFailureV1 {
  return mapOpenAiHttpError(ERROR_MEANINGS, input);
}

/**
 * Maps a failure reported after a 200: the `error` of a `failed` Response (`{code, message}`), or a mid-stream
 * `error` event (flat or nested). A known code or type decides; a numeric code in the HTTP range is read as that
 * status; anything else is a non-retryable `provider-error`, since nothing says a resend would help.
 */
export function mapOpenAiResponsesFailure(error: OpenAiResponsesWireError | undefined): NormalizedProviderFailureV1 {
  return mapOpenAiInBandError(ERROR_MEANINGS, error);
}
