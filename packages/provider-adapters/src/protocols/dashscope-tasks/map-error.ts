import type { NormalizedProviderFailureV1 } from '@tokenforge/model-protocol';
import { createHttpFailure, type HttpStatusFailure } from '../../codec-kit/index.js';

/**
 * What a DashScope error `code` means, whatever the HTTP status carrying it (DashScope's public status-code list,
 * help.aliyun.com "返回状态码说明"; `UnsupportedOperation` and `InvalidParameter` are also in fact sheet §5):
 *
 * | code | normalized | retryable |
 * |---|---|---|
 * | `InvalidParameter*`, `BadRequest*`, `InvalidURL` | `invalid-request` | no |
 * | `DataInspectionFailed`, `InvalidParameter.DataInspection` | `content-filtered` | no |
 * | `Arrearage` | `quota-exceeded` | no |
 * | `InvalidApiKey` | `authentication` | no |
 * | `AccessDenied*` | `permission-denied` | no |
 * | `Throttling*` | `rate-limited` | yes |
 * | `UnsupportedOperation` (e.g. cancelling a task that is not PENDING) | `conflict` | no |
 * | `RequestTimeOut` | `timeout` | yes |
 * | `InternalError*` | `provider-error` | yes |
 *
 * Anything else keeps the HTTP status default.
 */
export function dashScopeCodeMeaning(code: string): HttpStatusFailure | undefined {
  if (code === 'DataInspectionFailed' || code === 'InvalidParameter.DataInspection') return { code: 'content-filtered', retryable: false };
  if (code === 'InvalidParameter' || code.startsWith('InvalidParameter.') || code.startsWith('BadRequest') || code === 'InvalidURL') {
    return { code: 'invalid-request', retryable: false };
  }
  if (code === 'Arrearage') return { code: 'quota-exceeded', retryable: false };
  if (code === 'InvalidApiKey') return { code: 'authentication', retryable: false };
  if (code === 'AccessDenied' || code.startsWith('AccessDenied.')) return { code: 'permission-denied', retryable: false };
  if (code === 'Throttling' || code.startsWith('Throttling.')) return { code: 'rate-limited', retryable: true };
  if (code === 'UnsupportedOperation') return { code: 'conflict', retryable: false };
  if (code === 'RequestTimeOut') return { code: 'timeout', retryable: true };
  if (code === 'InternalError' || code.startsWith('InternalError.')) return { code: 'provider-error', retryable: true };
  return undefined;
}

/** Input of {@link mapDashScopeError}. */
export interface DashScopeErrorInput {
  /** The HTTP status (200 for a task-level `output.code` or an error body on HTTP 200). */
  readonly status: number;
  /** Response headers, lower-case names (read for `Retry-After`). */
  readonly headers: Readonly<Record<string, string>>;
  /** DashScope's `code`, when the body had one. */
  readonly code: string | undefined;
  /** Current time in epoch milliseconds (HTTP-date retry hints). */
  readonly nowMs: number;
}

/**
 * Maps a DashScope error (HTTP `{code, message, request_id}`, or a `code` on HTTP 200) to a normalized failure.
 * An unknown code on HTTP 200 is a non-retryable `provider-error`. `providerCode` is the bounded code; the message
 * is never kept.
 */
export function mapDashScopeError(input: DashScopeErrorInput): NormalizedProviderFailureV1 {
  const meaning = input.code === undefined ? undefined : dashScopeCodeMeaning(input.code);
  const override = meaning ?? (input.status >= 200 && input.status <= 299 ? ({ code: 'provider-error', retryable: false } as const) : undefined);
  return createHttpFailure({
    status: input.status,
    headers: input.headers,
    nowMs: input.nowMs,
    ...(input.code === undefined ? {} : { providerCode: input.code }),
    ...(override === undefined ? {} : { override }),
  });
}
