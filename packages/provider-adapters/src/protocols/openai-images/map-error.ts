import type { NormalizedProviderFailureV1 } from '@tokenforge/model-protocol';
import { boundProviderCode, createHttpFailure } from '../../codec-kit/index.js';
import { mapOpenAiChatHttpError } from '../openai-chat/map-error.js';
import { readOpenAiChatError } from '../openai-chat/wire-readers.js';

/** Input of {@link mapOpenAiImagesHttpError}. */
export interface OpenAiImagesHttpErrorInput {
  /** The non-success HTTP status. */
  readonly status: number;
  /** Response headers, lower-case names. */
  readonly headers: Readonly<Record<string, string>>;
  /** The parsed error body, or `undefined` when it was empty or unreadable. */
  readonly errorBody: unknown;
  /** Current time in epoch milliseconds (for an HTTP-date `Retry-After`), injected by the adapter. */
  readonly nowMs: number;
}

/** Image-specific `error.code` values whose meaning differs from the status default. */
const IMAGE_ERROR_CODES: ReadonlySet<string> = new Set(['moderation_blocked', 'image_generation_user_error']);

/**
 * Maps an HTTP error of the Images API to a normalized failure. The envelope is OpenAI's, read as in
 * `openai-chat/v1` (status default refined by a known `error.code` / `error.type`, `x-should-retry`,
 * `retry-after-ms` / `Retry-After`, bounded `providerCode`), plus the image safety system's codes:
 * `moderation_blocked` and `image_generation_user_error` are a non-retryable `content-filtered`. The recorded
 * `unknown_parameter` error (a GPT image model refusing `response_format`) is the 400 default, `invalid-request`.
 */
export function mapOpenAiImagesHttpError(input: OpenAiImagesHttpErrorInput): NormalizedProviderFailureV1 {
  let error;
  try {
    const body = input.errorBody;
    error = typeof body === 'object' && body !== null && 'error' in body ? readOpenAiChatError(body.error) : undefined;
  } catch {
    // A malformed envelope says nothing more than the status.
    error = undefined;
  }
  if (typeof error?.code === 'string' && IMAGE_ERROR_CODES.has(error.code)) {
    return createHttpFailure({
      status: input.status,
      headers: input.headers,
      nowMs: input.nowMs,
      override: { code: 'content-filtered', retryable: false },
      providerCode: boundProviderCode(error.code),
    });
  }
  return mapOpenAiChatHttpError({ status: input.status, headers: input.headers, error, nowMs: input.nowMs });
}
