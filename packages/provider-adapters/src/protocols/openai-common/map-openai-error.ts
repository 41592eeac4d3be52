import type { NormalizedProviderFailureV1 } from '@tokenforge/model-protocol';
import {
  boundProviderCode,
  createHttpFailure,
  mapHttpStatusToFailure,
  type HttpStatusFailure,
} from '../../codec-kit/http-failure.js';

/** The members of an OpenAI `error` object that decide its meaning (each dialect's wire error has them). */
export interface OpenAiWireErrorFields {
  /** `error.code`: a string, or a number as on OpenRouter. */
  readonly code?: string | number;
  /** `error.type`. */
  readonly type?: string;
  /** `error.message`: only tested for a context-overflow sentence, never kept. */
  readonly message?: string;
}

/**
 * What compatible servers that send no `context_length_exceeded` code write instead: OpenAI's own sentence (`Your
 * input exceeds the context window of this model`) and the one vLLM, DeepSeek and OpenRouter use (`This model's
 * maximum context length is N tokens`).
 */
const CONTEXT_OVERFLOW_MESSAGE = /exceeds the context window|maximum context length is \d+ tokens/i;
const CONTEXT_OVERFLOW: HttpStatusFailure = { code: 'context-length-exceeded', retryable: false };

/** What an `error.code` or `error.type` means, whatever the HTTP status; each dialect keeps its own table. */
export type OpenAiErrorMeanings = ReadonlyMap<string, HttpStatusFailure>;

/** Input of {@link mapOpenAiHttpError}. */
export interface OpenAiHttpErrorInput {
  /** The non-success HTTP status. */
  readonly status: number;
  /** Response headers, lower-case names. */
  readonly headers: Readonly<Record<string, string>>;
  /** The `error` member of the body, when the body was a readable error envelope. */
  readonly error: OpenAiWireErrorFields | undefined;
  /** Current time in epoch milliseconds (for an HTTP-date `Retry-After`), injected by the adapter. */
  readonly nowMs: number;
}

function meaningOf(meanings: OpenAiErrorMeanings, error: OpenAiWireErrorFields | undefined): HttpStatusFailure | undefined {
  if (error === undefined) return undefined;
  if (typeof error.code === 'string') {
    const byCode = meanings.get(error.code);
    if (byCode !== undefined) return byCode;
  }
  const byType = error.type === undefined ? undefined : meanings.get(error.type);
  if (byType !== undefined) return byType;
  return typeof error.message === 'string' && CONTEXT_OVERFLOW_MESSAGE.test(error.message) ? CONTEXT_OVERFLOW : undefined;
}

function providerCodeOf(error: OpenAiWireErrorFields | undefined): string | undefined {
  if (error === undefined) return undefined;
  return boundProviderCode(error.code) ?? boundProviderCode(error.type);
}

/**
 * Maps an HTTP error response (`{error:{message,type,code,param}}`) to a normalized failure.
 *
 * - The status gives the default (the kit's table); a code or type known to `meanings` (looked up by code first,
 *   then by type) refines it, so a 429 with `insufficient_quota` is a non-retryable `quota-exceeded`. Without one,
 *   a message with a compatible server's context-overflow sentence is `context-length-exceeded`.
 * - `x-should-retry: true|false` (sent by OpenAI and honoured by the official SDK) overrides `retryable`.
 * - `retryAfterMs` comes from `retry-after-ms` (OpenAI, milliseconds), else `Retry-After` (seconds or an
 *   HTTP-date). The `x-ratelimit-reset-*` headers are not read: they say when a quota window resets, not how
 *   long this request should wait, and their duration format is not specified for compatible servers.
 * - `providerCode` is `error.code` (a string or a number) else `error.type`, bounded by the kit. The message is
 *   never kept.
 */
export function mapOpenAiHttpError(meanings: OpenAiErrorMeanings, input: OpenAiHttpErrorInput): NormalizedProviderFailureV1 {
  const meaning = meaningOf(meanings, input.error) ?? mapHttpStatusToFailure(input.status);
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
 * Maps an error that arrived after a 200. A code or type known to `meanings` decides; a numeric `code` in the
 * HTTP range (OpenRouter puts the status there) is read as that status; anything else is a non-retryable
 * `provider-error`, since nothing says sending the same request again would help.
 */
export function mapOpenAiInBandError(meanings: OpenAiErrorMeanings, error: OpenAiWireErrorFields | undefined): NormalizedProviderFailureV1 {
  const numeric = typeof error?.code === 'number' && error.code >= 400 && error.code <= 599 ? error.code : undefined;
  const meaning: HttpStatusFailure = meaningOf(meanings, error) ??
    (numeric === undefined ? undefined : mapHttpStatusToFailure(numeric)) ?? { code: 'provider-error', retryable: false };
  const providerCode = providerCodeOf(error);
  return { code: meaning.code, retryable: meaning.retryable, ...(providerCode === undefined ? {} : { providerCode }) };
}
