import type { NormalizedProviderFailureV1, ProviderTransportResponse } from '@tokenforge/model-protocol';
import { createHttpFailure } from './http-failure.js';
import { DEFAULT_MAX_BODY_BYTES, readBodyBytes } from './read-body.js';
import { parseSafeJsonBytes } from './safe-json.js';

/** Default cap of an error body: 1 MiB (error envelopes are small; the rest is not read). */
export const DEFAULT_MAX_ERROR_BODY_BYTES = 1024 * 1024;

/** Options of {@link readJsonResponse}. */
export interface ReadJsonResponseOptions {
  /** The current time in epoch milliseconds, for HTTP-date retry hints. */
  readonly nowMs: number;
  /** Cap of a success body (default 32 MiB). */
  readonly maxBytes?: number;
  /** Deepest accepted nesting (default 64). */
  readonly maxDepth?: number;
  /** Cap of an error body (default {@link DEFAULT_MAX_ERROR_BODY_BYTES}). */
  readonly maxErrorBytes?: number;
}

/** A whole JSON response, read. */
export type JsonResponseOutcome =
  /** A 2xx status with a JSON body. */
  | {
      /** The status was 2xx. */
      readonly ok: true;
      /** The HTTP status. */
      readonly status: number;
      /** The parsed body (not yet validated against the family's wire schema). */
      readonly value: unknown;
    }
  /**
   * Any other status. `failure` is the status default with retry hints; `errorBody` is the parsed body, or
   * `undefined` when it was empty, too large or not JSON (an unreadable error body never hides the status).
   * Families read their error envelope from `errorBody` and rebuild the failure with `createHttpFailure`.
   */
  | {
      /** The status was not 2xx. */
      readonly ok: false;
      /** The HTTP status. */
      readonly status: number;
      /** The status default, with `retryAfterMs` from the headers when present. */
      readonly failure: NormalizedProviderFailureV1;
      /** The parsed error body, or `undefined` when unreadable. */
      readonly errorBody: unknown;
    };

/**
 * Reads a whole (non-stream) JSON response with its status: 2xx bodies through the safe parser, other
 * statuses as a default failure plus their best-effort parsed body. The body is released on every path.
 *
 * @throws {CodecErrorV1} for a 2xx body that is too large or not safe JSON; a transport failure while reading
 * propagates. `terminalForError` maps both.
 */
export async function readJsonResponse(
  response: ProviderTransportResponse,
  options: ReadJsonResponseOptions,
): Promise<JsonResponseOutcome> {
  const status = response.status;
  if (status >= 200 && status <= 299) {
    const maxBytes = options.maxBytes ?? DEFAULT_MAX_BODY_BYTES;
    const bytes = await readBodyBytes(response.body, { maxBytes });
    const limits = options.maxDepth === undefined ? { maxBytes } : { maxBytes, maxDepth: options.maxDepth };
    return { ok: true, status, value: parseSafeJsonBytes(bytes, limits) };
  }
  const failure = createHttpFailure({ status, headers: response.headers, nowMs: options.nowMs });
  let errorBody: unknown;
  try {
    const maxBytes = options.maxErrorBytes ?? DEFAULT_MAX_ERROR_BODY_BYTES;
    const bytes = await readBodyBytes(response.body, { maxBytes });
    errorBody = bytes.byteLength === 0 ? undefined : parseSafeJsonBytes(bytes, { maxBytes });
  } catch {
    // The status already tells what happened; an unreadable error envelope adds nothing.
    errorBody = undefined;
  }
  return { ok: false, status, failure, errorBody };
}
