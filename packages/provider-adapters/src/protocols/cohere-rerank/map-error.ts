import type { NormalizedProviderFailureV1 } from '@tokenforge/model-protocol';
import { boundProviderCode, createHttpFailure, mapHttpStatusToFailure, type HttpStatusFailure } from '../../codec-kit/index.js';

/** Input of {@link mapCohereRerankHttpError}. */
export interface CohereRerankHttpErrorInput {
  /** The non-success HTTP status. */
  readonly status: number;
  /** Response headers, lower-case names. */
  readonly headers: Readonly<Record<string, string>>;
  /** The parsed error body, or `undefined` when it was empty or unreadable. */
  readonly errorBody: unknown;
  /** Current time in epoch milliseconds (for an HTTP-date `Retry-After`), injected by the adapter. */
  readonly nowMs: number;
}

/**
 * Cohere's own statuses beyond the kit's table: 498 is an invalid or expired token, 499 a request Cohere saw as
 * cancelled (sending it again may succeed), 501 a feature the model does not implement.
 */
const COHERE_STATUSES: ReadonlyMap<number, HttpStatusFailure> = new Map([
  [498, { code: 'authentication', retryable: false }],
  [499, { code: 'provider-error', retryable: true }],
  [501, { code: 'unsupported', retryable: false }],
]);

/** Known `error.code` / `error.type` values of OpenAI-style envelopes (Together, vLLM). */
const ERROR_MEANINGS: ReadonlyMap<string, HttpStatusFailure> = new Map([
  ['rate_limit_exceeded', { code: 'rate-limited', retryable: true }],
  ['insufficient_quota', { code: 'quota-exceeded', retryable: false }],
  ['invalid_api_key', { code: 'authentication', retryable: false }],
  ['model_not_found', { code: 'not-found', retryable: false }],
  ['context_length_exceeded', { code: 'context-length-exceeded', retryable: false }],
]);

function envelopeCode(body: unknown): string | undefined {
  if (typeof body !== 'object' || body === null || !('error' in body)) return undefined;
  const error = body.error;
  if (typeof error !== 'object' || error === null) return undefined;
  const { code, type } = error as { code?: unknown; type?: unknown };
  return boundProviderCode(code) ?? boundProviderCode(type);
}

/**
 * Maps an HTTP error of a rerank server to a normalized failure. Cohere answers `{id?, message}` (the message is
 * never kept); Jina and Voyage `{detail}`; Together and vLLM an OpenAI-style `{error:{message,type,code}}`. The
 * status decides (the kit's table plus Cohere's 498, 499 and 501); a known OpenAI-style code refines it and is
 * kept, bounded, as `providerCode`. `retryAfterMs` comes from `retry-after-ms` or `Retry-After`.
 */
export function mapCohereRerankHttpError(input: CohereRerankHttpErrorInput): NormalizedProviderFailureV1 {
  const providerCode = envelopeCode(input.errorBody);
  const override = (providerCode === undefined ? undefined : ERROR_MEANINGS.get(providerCode)) ?? COHERE_STATUSES.get(input.status) ?? mapHttpStatusToFailure(input.status);
  return createHttpFailure({
    status: input.status,
    headers: input.headers,
    nowMs: input.nowMs,
    override,
    ...(providerCode === undefined ? {} : { providerCode }),
  });
}
