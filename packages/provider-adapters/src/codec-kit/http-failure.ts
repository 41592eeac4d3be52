import type { NormalizedProviderFailureV1, ProviderFailureCodeV1 } from '@tokenforge/model-protocol';
import { readRetryAfterMs } from './retry-after.js';

/** The normalized failure an HTTP status means before a family reads the error body. */
export interface HttpStatusFailure {
  /** The normalized code. */
  readonly code: ProviderFailureCodeV1;
  /** Whether the same request may succeed when sent again. */
  readonly retryable: boolean;
}

const STATUS_FAILURES: ReadonlyMap<number, HttpStatusFailure> = new Map([
  [400, { code: 'invalid-request', retryable: false }],
  [401, { code: 'authentication', retryable: false }],
  [402, { code: 'quota-exceeded', retryable: false }],
  [403, { code: 'permission-denied', retryable: false }],
  [404, { code: 'not-found', retryable: false }],
  [408, { code: 'timeout', retryable: true }],
  [409, { code: 'conflict', retryable: false }],
  [413, { code: 'invalid-request', retryable: false }],
  [422, { code: 'invalid-request', retryable: false }],
  [429, { code: 'rate-limited', retryable: true }],
  [500, { code: 'provider-error', retryable: true }],
  [502, { code: 'provider-error', retryable: true }],
  [503, { code: 'overloaded', retryable: true }],
  [504, { code: 'timeout', retryable: true }],
  [529, { code: 'overloaded', retryable: true }],
]);

/**
 * The default meaning of a non-success HTTP status: 400, 413, 422 and other 4xx `invalid-request`; 401
 * `authentication`; 402 `quota-exceeded`; 403 `permission-denied`; 404 `not-found`; 408 `timeout`
 * (retryable); 409 `conflict`; 429 `rate-limited` (retryable); 500, 502 and other 5xx `provider-error`
 * (retryable); 503 and 529 `overloaded` (retryable); 504 `timeout` (retryable). Anything else (1xx, 2xx, 3xx,
 * out of range) is a non-retryable `provider-error`: the adapter did not expect it. Families override per
 * their error bodies.
 */
export function mapHttpStatusToFailure(status: number): HttpStatusFailure {
  const known = STATUS_FAILURES.get(status);
  if (known !== undefined) return known;
  if (Number.isInteger(status) && status >= 400 && status <= 499) return { code: 'invalid-request', retryable: false };
  if (Number.isInteger(status) && status >= 500 && status <= 599) return { code: 'provider-error', retryable: true };
  return { code: 'provider-error', retryable: false };
}

const PROVIDER_CODE = /^[A-Za-z0-9_.:-]{1,64}$/;

/**
 * Keeps a provider's error code or type only if it is a string of 1 to 64 characters from
 * `[A-Za-z0-9_.:-]`; numbers are kept as their decimal text under the same rule. Anything else (a message,
 * a long or odd string) is dropped: it could carry payload text.
 */
export function boundProviderCode(value: unknown): string | undefined {
  const text = typeof value === 'number' && Number.isInteger(value) ? String(value) : value;
  return typeof text === 'string' && PROVIDER_CODE.test(text) ? text : undefined;
}

/** Input of {@link createHttpFailure}. */
export interface CreateHttpFailureInput {
  /** The HTTP status. */
  readonly status: number;
  /** Response headers with lower-case names (read for retry hints). */
  readonly headers?: Readonly<Record<string, string>>;
  /** The current time in epoch milliseconds, for HTTP-date retry hints. */
  readonly nowMs: number;
  /** The provider's error code or type, bounded with {@link boundProviderCode}. */
  readonly providerCode?: unknown;
  /** The family's reading of the error body, replacing the status default. */
  readonly override?: HttpStatusFailure;
}

/** Builds a normalized failure from a status (or the family's override), retry hints and a bounded provider code. */
export function createHttpFailure(input: CreateHttpFailureInput): NormalizedProviderFailureV1 {
  const base = input.override ?? mapHttpStatusToFailure(input.status);
  const retryAfterMs = input.headers === undefined ? undefined : readRetryAfterMs(input.headers, input.nowMs);
  const providerCode = boundProviderCode(input.providerCode);
  return {
    code: base.code,
    retryable: base.retryable,
    ...(retryAfterMs === undefined ? {} : { retryAfterMs }),
    ...(providerCode === undefined ? {} : { providerCode }),
  };
}
