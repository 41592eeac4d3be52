import type { NormalizedProviderFailureV1 } from '@tokenforge/model-protocol';
import { createHttpFailure, type HttpStatusFailure } from '../../codec-kit/index.js';

/**
 * What a Kling envelope `code` means (fact sheet §4, "Errors"), whatever the HTTP status carrying it:
 *
 * | code | meaning | normalized | retryable |
 * |---|---|---|---|
 * | 1000-1002 | authentication failed | `authentication` | no |
 * | 1003, 1004 | token not yet valid / expired (clock skew) | `authentication` | yes: the transport mints a new token |
 * | 1100 | account problem | `permission-denied` | no |
 * | 1101, 1102 | arrears, resource pack used up | `quota-exceeded` | no |
 * | 1103 | no permission for the resource or model | `permission-denied` | no |
 * | 1200, 1201 | invalid parameters | `invalid-request` | no |
 * | 1202 | wrong method | `invalid-request` | no |
 * | 1203 | unknown resource or model | `not-found` | no |
 * | 1300, 1301 | policy or content-safety block | `content-filtered` | no |
 * | 1302, 1303 | rate or concurrency limit | `rate-limited` | yes |
 * | 1304 | IP allow-list policy | `permission-denied` | no |
 * | 5000 | internal error | `provider-error` | yes |
 * | 5001 | maintenance | `overloaded` | yes |
 * | 5002 | internal timeout (backlog) | `timeout` | yes |
 *
 * Any other code keeps the HTTP status default (the kit's table); an unknown code on HTTP 200 is a non-retryable
 * `provider-error`.
 */
export function klingCodeMeaning(code: number): HttpStatusFailure | undefined {
  if (code >= 1000 && code <= 1002) return { code: 'authentication', retryable: false };
  if (code === 1003 || code === 1004) return { code: 'authentication', retryable: true };
  if (code === 1100 || code === 1103 || code === 1304) return { code: 'permission-denied', retryable: false };
  if (code === 1101 || code === 1102) return { code: 'quota-exceeded', retryable: false };
  if (code >= 1200 && code <= 1202) return { code: 'invalid-request', retryable: false };
  if (code === 1203) return { code: 'not-found', retryable: false };
  if (code === 1300 || code === 1301) return { code: 'content-filtered', retryable: false };
  if (code === 1302 || code === 1303) return { code: 'rate-limited', retryable: true };
  if (code === 5000) return { code: 'provider-error', retryable: true };
  if (code === 5001) return { code: 'overloaded', retryable: true };
  if (code === 5002) return { code: 'timeout', retryable: true };
  return undefined;
}

/** Input of {@link mapKlingError}. */
export interface KlingErrorInput {
  /** The HTTP status (200 when the error travelled in a success envelope). */
  readonly status: number;
  /** Response headers, lower-case names (read for `Retry-After`). */
  readonly headers: Readonly<Record<string, string>>;
  /** The envelope `code`, when the body was a readable envelope. */
  readonly code: number | undefined;
  /** Current time in epoch milliseconds (HTTP-date retry hints). */
  readonly nowMs: number;
}

/**
 * Maps a Kling error (HTTP 4xx/5xx with the envelope, or `code != 0` inside HTTP 200: both the same error model,
 * fact sheet §4 edge case 5) to a normalized failure. `providerCode` is the numeric code as text; the message is
 * never kept.
 */
export function mapKlingError(input: KlingErrorInput): NormalizedProviderFailureV1 {
  const meaning = input.code === undefined ? undefined : klingCodeMeaning(input.code);
  const override: HttpStatusFailure | undefined =
    meaning ?? (input.status >= 200 && input.status <= 299 ? { code: 'provider-error', retryable: false } : undefined);
  return createHttpFailure({
    status: input.status,
    headers: input.headers,
    nowMs: input.nowMs,
    ...(input.code === undefined ? {} : { providerCode: input.code }),
    ...(override === undefined ? {} : { override }),
  });
}
