import type { NormalizedProviderFailureV1 } from '@tokenforge/model-protocol';
import {
  boundProviderCode,
  createHttpFailure,
  mapHttpStatusToFailure,
  type HttpStatusFailure,
} from '../../codec-kit/http-failure.js';
import type { OpenAiChatWireError } from './wire-schema.js';

/**
 * What an OpenAI-style `error.code` or `error.type` means, whatever the HTTP status. Looked up by code first,
 * then by type. Values from the OpenAI API reference and the compatible servers of §1.8 / §1.10 of the fact
 * sheet; anything else keeps the status default.
 */
const ERROR_MEANINGS: ReadonlyMap<string, HttpStatusFailure> = new Map([
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

function meaningOf(error: OpenAiChatWireError | undefined): HttpStatusFailure | undefined {
  if (error === undefined) return undefined;
  if (typeof error.code === 'string') {
    const byCode = ERROR_MEANINGS.get(error.code);
    if (byCode !== undefined) return byCode;
  }
  return error.type === undefined ? undefined : ERROR_MEANINGS.get(error.type);
}

function providerCodeOf(error: OpenAiChatWireError | undefined): string | undefined {
  if (error === undefined) return undefined;
  return boundProviderCode(error.code) ?? boundProviderCode(error.type);
}

/** Input of {@link mapOpenAiChatHttpError}. */
export interface OpenAiChatHttpErrorInput {
  /** The non-success HTTP status. */
  readonly status: number;
  /** Response headers, lower-case names. */
  readonly headers: Readonly<Record<string, string>>;
  /** The `error` member of the body, when the body was a readable error envelope. */
  readonly error: OpenAiChatWireError | undefined;
  /** Current time in epoch milliseconds (for an HTTP-date `Retry-After`), injected by the adapter. */
  readonly nowMs: number;
}

/**
 * Maps an HTTP error response (`{error:{message,type,code,param}}`) to a normalized failure.
 *
 * - The status gives the default (the kit's table); a known `error.code` or `error.type` refines it, so a 429
 *   with `insufficient_quota` is a non-retryable `quota-exceeded` and a 400 with `context_length_exceeded` is
 *   `context-length-exceeded`.
 * - `x-should-retry: true|false` (sent by OpenAI and honoured by the official SDK) overrides `retryable`.
 * - `retryAfterMs` comes from `retry-after-ms` (OpenAI, milliseconds), else `Retry-After` (seconds or an
 *   HTTP-date). The `x-ratelimit-reset-*` headers are not read: they say when a quota window resets, not how
 *   long this request should wait, and their duration format is not specified for compatible servers.
 * - `providerCode` is `error.code` (a string, or a number as on OpenRouter) else `error.type`, bounded by the kit.
 *   The message is never kept.
 */
export function mapOpenAiChatHttpError(input: OpenAiChatHttpErrorInput): NormalizedProviderFailureV1 {
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
 * Maps an error that arrived after a 200 (a `data: {"error":…}` chunk, an SSE event named `error`, or an
 * `error` member in a 200 body). A known code or type decides; a numeric `code` in the HTTP range (OpenRouter
 * puts the status there) is read as that status; anything else is a non-retryable `provider-error`, since
 * nothing says sending the same request again would help.
 */
export function mapOpenAiChatInBandError(error: OpenAiChatWireError): NormalizedProviderFailureV1 {
  const numeric = typeof error.code === 'number' && error.code >= 400 && error.code <= 599 ? error.code : undefined;
  const meaning: HttpStatusFailure = meaningOf(error) ??
    (numeric === undefined ? undefined : mapHttpStatusToFailure(numeric)) ?? { code: 'provider-error', retryable: false };
  const providerCode = providerCodeOf(error);
  return { code: meaning.code, retryable: meaning.retryable, ...(providerCode === undefined ? {} : { providerCode }) };
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
