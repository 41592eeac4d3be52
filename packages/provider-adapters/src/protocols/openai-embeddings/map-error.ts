import type { NormalizedProviderFailureV1 } from '@tokenforge/model-protocol';
import { mapOpenAiChatHttpError } from '../openai-chat/map-error.js';
import { readOpenAiChatError } from '../openai-chat/wire-readers.js';

/** Input of {@link mapOpenAiEmbeddingsHttpError}. */
export interface OpenAiEmbeddingsHttpErrorInput {
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
 * Maps an HTTP error of `POST /embeddings` to a normalized failure. The envelope (`{error:{message,type,code,
 * param}}`) and its meanings are OpenAI's, shared with every OpenAI endpoint, so the reading is the one of
 * `openai-chat/v1`: the status default, refined by a known `error.code` / `error.type` (a 429 with
 * `insufficient_quota` is a non-retryable `quota-exceeded`), `x-should-retry` overriding `retryable`,
 * `retryAfterMs` from `retry-after-ms` else `Retry-After`, and the bounded code as `providerCode`. An error body
 * that is not an OpenAI envelope keeps the status default.
 */
export function mapOpenAiEmbeddingsHttpError(input: OpenAiEmbeddingsHttpErrorInput): NormalizedProviderFailureV1 {
  let error;
  try {
    const body = input.errorBody;
    error = typeof body === 'object' && body !== null && 'error' in body ? readOpenAiChatError(body.error) : undefined;
  } catch {
    // A malformed envelope says nothing more than the status.
    error = undefined;
  }
  return mapOpenAiChatHttpError({ status: input.status, headers: input.headers, error, nowMs: input.nowMs });
}
