import type { NormalizedProviderFailureV1 } from '@tokenforge/model-protocol';
import type { HttpStatusFailure } from '../../codec-kit/http-failure.js';
import { mapOpenAiHttpError, mapOpenAiInBandError, type OpenAiErrorMeanings, type OpenAiHttpErrorInput } from '../openai-common/map-openai-error.js';
import type { OpenAiChatWireError } from './wire-readers.js';

/**
 * What an OpenAI-style `error.code` or `error.type` means, whatever the HTTP status. Looked up by code first,
 * then by type. Values from the OpenAI API reference and the compatible servers of §1.8 / §1.10 of the fact
 * sheet; anything else keeps the status default.
 */
const ERROR_MEANINGS: OpenAiErrorMeanings = new Map<string, HttpStatusFailure>([
  ['context_length_exceeded', { code: 'context-length-exceeded', retryable: false }],
  ['insufficient_quota', { code: 'quota-exceeded', retryable: false }],
  ['billing_hard_limit_reached', { code: 'quota-exceeded', retryable: false }],
  ['rate_limit_exceeded', { code: 'rate-limited', retryable: true }],
  ['requests', { code: 'rate-limited', retryable: true }],
  ['tokens', { code: 'rate-limited', retryable: true }],
  ['content_filter', { code: 'content-filtered', retryable: false }],
  ['content_policy_violation', { code: 'content-filtered', retryable: false }],
  ['invalid_api_key', { code: 'authentication', retryable: false }],
  ['authentication_error', { code: 'authentication', retryable: false }],
  ['permission_error', { code: 'permission-denied', retryable: false }],
  ['model_not_found', { code: 'not-found', retryable: false }],
  ['server_error', { code: 'provider-error', retryable: true }],
  ['overloaded', { code: 'overloaded', retryable: true }],
  ['insufficient_system_resource', { code: 'overloaded', retryable: true }],
]);

/** Input of {@link mapOpenAiChatHttpError}. */
export interface OpenAiChatHttpErrorInput extends OpenAiHttpErrorInput {
  /** The `error` member of the body, when the body was a readable error envelope. */
  readonly error: OpenAiChatWireError | undefined;
}

/**
 * Maps an HTTP error response (`{error:{message,type,code,param}}`) to a normalized failure: the status gives the
 * default and a known `error.code` or `error.type` refines it (a 400 with `context_length_exceeded` is
 * `context-length-exceeded`); `x-should-retry` overrides `retryable`; `retryAfterMs` comes from `retry-after-ms`,
 * else `Retry-After`. See {@link mapOpenAiHttpError}.
 */
export function mapOpenAiChatHttpError(input: OpenAiChatHttpErrorInput): NormalizedProviderFailureV1 {
  return mapOpenAiHttpError(ERROR_MEANINGS, input);
}

/**
 * Maps an error that arrived after a 200 (a `data: {"error":…}` chunk, an SSE event named `error`, or an
 * `error` member in a 200 body). A known code or type decides; a numeric `code` in the HTTP range is read as that
 * status; anything else is a non-retryable `provider-error`.
 */
export function mapOpenAiChatInBandError(error: OpenAiChatWireError): NormalizedProviderFailureV1 {
  return mapOpenAiInBandError(ERROR_MEANINGS, error);
}

/**
 * Finish reasons that report a failure rather than an end of generation: OpenRouter's `error` (the chunk also
 * carries an `error` object, read first) and DeepSeek's `insufficient_system_resource` (a retryable
 * `overloaded`). `undefined` for every other value.
 */
export function mapOpenAiChatFinishReasonFailure(raw: string | undefined): NormalizedProviderFailureV1 | undefined {
  switch (raw) {
    case 'error':
      return { code: 'provider-error', retryable: false, providerCode: 'error' };
    case 'insufficient_system_resource':
      return { code: 'overloaded', retryable: true, providerCode: 'insufficient_system_resource' };
    default:
      return undefined;
  }
}
