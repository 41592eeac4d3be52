import { CONTRACT_BOUNDS_V3, type ProviderRateLimitsV3, type RateLimitWindowV3 } from '@tokenforge/model-protocol';
import { readRetryAfterMs } from './retry-after.js';

/** The three headers of one rate-limit dimension. */
export interface RateLimitWindowHeadersV1 {
  readonly limit: string;
  readonly remaining: string;
  readonly reset: string;
}

/** Where a dialect puts its rate-limit facts, and how it writes the reset (header names lower-case). */
export interface RateLimitHeaderDialectV1 {
  readonly requests?: RateLimitWindowHeadersV1;
  readonly tokens?: RateLimitWindowHeadersV1;
  readonly inputTokens?: RateLimitWindowHeadersV1;
  readonly outputTokens?: RateLimitWindowHeadersV1;
  /**
   * `duration`: a Go-style duration from now (`6m0s`, `1s`, `20ms`, OpenAI). `timestamp`: an RFC 3339 time
   * (Anthropic). Both also take plain seconds.
   */
  readonly reset: 'duration' | 'timestamp';
}

const FIGURE = /^\d{1,16}$/;
const DURATION = /^(?:\d{1,9}(?:\.\d{1,9})?(?:h|m|s|ms|us|µs|ns))+$/;
const DURATION_PART = /(\d{1,9}(?:\.\d{1,9})?)(h|ms|m|s|us|µs|ns)/g;
const SECONDS = /^\d{1,9}(?:\.\d{1,9})?$/;
const RFC_3339 = /^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}:\d{2}(?:\.\d{1,9})?(?:[Zz]|[+-]\d{2}:\d{2})$/;
const UNIT_MS: Readonly<Record<string, number>> = { h: 3_600_000, m: 60_000, s: 1000, ms: 1, us: 0.001, µs: 0.001, ns: 0.000001 };

function figure(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const text = value.trim();
  // A negative figure (Azure sends -1 for "not reported") or anything not a count is absent, never zero.
  if (!FIGURE.test(text)) return undefined;
  const parsed = Number(text);
  return parsed <= CONTRACT_BOUNDS_V3.rateLimitFigureMax ? parsed : undefined;
}

function bounded(milliseconds: number): number | undefined {
  if (!Number.isFinite(milliseconds)) return undefined;
  return Math.min(Math.max(0, Math.ceil(milliseconds)), CONTRACT_BOUNDS_V3.rateLimitResetMsMax);
}

/** Reads a reset header as milliseconds from `nowMs`; `undefined` for an absent or unreadable value. */
export function parseRateLimitResetMs(value: string | undefined, form: 'duration' | 'timestamp', nowMs: number): number | undefined {
  if (value === undefined) return undefined;
  const text = value.trim();
  if (text.length === 0 || text.length > 64) return undefined;
  if (SECONDS.test(text)) return bounded(Number(text) * 1000);
  if (form === 'duration') {
    if (!DURATION.test(text)) return undefined;
    let total = 0;
    for (const [, amount, unit] of text.matchAll(DURATION_PART)) total += Number(amount) * (UNIT_MS[unit as string] as number);
    return bounded(total);
  }
  if (!RFC_3339.test(text)) return undefined;
  const at = Date.parse(text);
  return Number.isFinite(at) ? bounded(at - nowMs) : undefined;
}

function window(headers: Readonly<Record<string, string>>, names: RateLimitWindowHeadersV1 | undefined, form: 'duration' | 'timestamp', nowMs: number): RateLimitWindowV3 | undefined {
  if (names === undefined) return undefined;
  const limit = figure(headers[names.limit]);
  const remaining = figure(headers[names.remaining]);
  const resetMs = parseRateLimitResetMs(headers[names.reset], form, nowMs);
  if (limit === undefined && remaining === undefined && resetMs === undefined) return undefined;
  return {
    ...(limit === undefined ? {} : { limit }),
    ...(remaining === undefined ? {} : { remaining }),
    ...(resetMs === undefined ? {} : { resetMs }),
  };
}

/**
 * The rate-limit facts of a response head in `dialect`'s headers, plus the wait `retry-after-ms` / `retry-after`
 * asks for; `undefined` when the head carries none. Unreadable values are left out, never guessed.
 */
export function readRateLimitHeaders(headers: Readonly<Record<string, string>>, dialect: RateLimitHeaderDialectV1, nowMs: number): ProviderRateLimitsV3 | undefined {
  const requests = window(headers, dialect.requests, dialect.reset, nowMs);
  const tokens = window(headers, dialect.tokens, dialect.reset, nowMs);
  const inputTokens = window(headers, dialect.inputTokens, dialect.reset, nowMs);
  const outputTokens = window(headers, dialect.outputTokens, dialect.reset, nowMs);
  const retryAfterMs = readRetryAfterMs(headers, nowMs);
  if (requests === undefined && tokens === undefined && inputTokens === undefined && outputTokens === undefined && retryAfterMs === undefined) {
    return undefined;
  }
  return {
    ...(requests === undefined ? {} : { requests }),
    ...(tokens === undefined ? {} : { tokens }),
    ...(inputTokens === undefined ? {} : { inputTokens }),
    ...(outputTokens === undefined ? {} : { outputTokens }),
    ...(retryAfterMs === undefined ? {} : { retryAfterMs }),
  };
}

/** The headers of one dimension named `<prefix><part><suffix>` for the parts limit, remaining and reset. */
export function rateLimitWindowHeaders(name: (part: 'limit' | 'remaining' | 'reset') => string): RateLimitWindowHeadersV1 {
  return { limit: name('limit'), remaining: name('remaining'), reset: name('reset') };
}

/** A reset as OpenAI writes it: a Go-style duration (`20ms`, `1s`, `6m0s`, `1h2m3.5s`). */
function formatDuration(milliseconds: number): string {
  if (milliseconds < 1000) return `${milliseconds}ms`;
  const hours = Math.floor(milliseconds / 3_600_000);
  const minutes = Math.floor((milliseconds % 3_600_000) / 60_000);
  const seconds = (milliseconds % 60_000) / 1000;
  const secondsText = `${Number.isInteger(seconds) ? seconds : seconds.toFixed(3).replace(/0+$/, '')}s`;
  if (hours > 0) return `${hours}h${minutes}m${secondsText}`;
  if (minutes > 0) return `${minutes}m${secondsText}`;
  return secondsText;
}

function formatReset(resetMs: number, form: 'duration' | 'timestamp', nowMs: number): string {
  if (form === 'duration') return formatDuration(resetMs);
  // RFC 3339 at whole seconds, rounded up so a client never retries before the window resets.
  return new Date(Math.ceil((nowMs + resetMs) / 1000) * 1000).toISOString().replace('.000Z', 'Z');
}

/**
 * The headers that carry `rateLimits` in `dialect` (the reverse of {@link readRateLimitHeaders}): each window's
 * limit, remaining and reset under the dialect's names, resets written in its form from `nowMs`, and the wait as
 * `retry-after` (whole seconds, rounded up). A window the dialect has no names for, or a figure not reported, writes
 * nothing.
 */
export function writeRateLimitHeaders(rateLimits: ProviderRateLimitsV3, dialect: RateLimitHeaderDialectV1, nowMs: number): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const dimension of ['requests', 'tokens', 'inputTokens', 'outputTokens'] as const) {
    const names = dialect[dimension];
    const window = rateLimits[dimension];
    if (names === undefined || window === undefined) continue;
    if (window.limit !== undefined) headers[names.limit] = String(window.limit);
    if (window.remaining !== undefined) headers[names.remaining] = String(window.remaining);
    if (window.resetMs !== undefined) headers[names.reset] = formatReset(window.resetMs, dialect.reset, nowMs);
  }
  if (rateLimits.retryAfterMs !== undefined) headers['retry-after'] = String(Math.ceil(rateLimits.retryAfterMs / 1000));
  return headers;
}

/** Whether two dialects put rate-limit facts under the same names in the same form. */
export function sameRateLimitHeaderDialect(left: RateLimitHeaderDialectV1, right: RateLimitHeaderDialectV1): boolean {
  if (left.reset !== right.reset) return false;
  for (const dimension of ['requests', 'tokens', 'inputTokens', 'outputTokens'] as const) {
    const a = left[dimension];
    const b = right[dimension];
    if (a === undefined || b === undefined) {
      if (a !== b) return false;
      continue;
    }
    if (a.limit !== b.limit || a.remaining !== b.remaining || a.reset !== b.reset) return false;
  }
  return true;
}
