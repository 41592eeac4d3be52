/** Longest wait any hint may ask for: one day, the bound of `NormalizedProviderFailureV1.retryAfterMs`. */
export const MAX_RETRY_AFTER_MS = 86_400_000;

/** Millisecond hint headers read by {@link readRetryAfterMs} before `retry-after` (OpenAI sends `retry-after-ms`). */
export const DEFAULT_RETRY_AFTER_MS_HEADERS: readonly string[] = ['retry-after-ms'];

const DELTA_SECONDS = /^\d{1,12}(?:\.\d{1,9})?$/;
const DECIMAL_MS = /^\d{1,15}(?:\.\d{1,9})?$/;
// RFC 9110 §5.6.7: IMF-fixdate, the obsolete RFC 850 form and asctime.
const DAY = '(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun)';
const LONG_DAY = '(?:Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday)';
const MONTH = '(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)';
const TIME = '\\d{2}:\\d{2}:\\d{2}';
const IMF_FIXDATE = new RegExp(`^${DAY}, \\d{2} ${MONTH} \\d{4} ${TIME} GMT$`);
const RFC_850 = new RegExp(`^${LONG_DAY}, \\d{2}-${MONTH}-\\d{2} ${TIME} GMT$`);
const ASCTIME = new RegExp(`^${DAY} ${MONTH} [ \\d]\\d ${TIME} \\d{4}$`);

/**
 * Reads a `Retry-After` value: delta-seconds (fractions tolerated, rounded up to the millisecond) or an
 * HTTP-date, measured from `nowMs` (injected: no clock inside). A date in the past means 0; anything past
 * {@link MAX_RETRY_AFTER_MS} is capped to it. Returns `undefined` for an absent or unreadable value.
 */
export function parseRetryAfterMs(value: string | undefined, nowMs: number): number | undefined {
  if (value === undefined) return undefined;
  const text = value.trim();
  if (text.length === 0 || text.length > 64) return undefined;
  if (DELTA_SECONDS.test(text)) return bound(Math.ceil(Number(text) * 1000));
  let dateText = text;
  if (RFC_850.test(text)) {
    // Two-digit years: RFC 9110 reads one more than 50 years ahead as the past century.
    const match = /-(\d{2}) /.exec(text) as RegExpExecArray;
    const shortYear = Number(match[1]);
    const currentYear = new Date(nowMs).getUTCFullYear();
    let year = Math.floor(currentYear / 100) * 100 + shortYear;
    if (year > currentYear + 50) year -= 100;
    dateText = text.replace(/-(\d{2}) /, `-${year} `);
  } else if (ASCTIME.test(text)) {
    dateText = `${text} GMT`;
  } else if (!IMF_FIXDATE.test(text)) {
    return undefined;
  }
  const dateMs = Date.parse(dateText);
  if (!Number.isFinite(dateMs)) return undefined;
  return bound(dateMs - nowMs);
}

/**
 * Reads a provider hint given directly in milliseconds (such as `retry-after-ms`), bounded like
 * {@link parseRetryAfterMs}. Returns `undefined` for an absent or unreadable value.
 */
export function parseRetryAfterMsHint(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const text = value.trim();
  if (!DECIMAL_MS.test(text)) return undefined;
  return bound(Math.ceil(Number(text)));
}

/**
 * The wait a response asks for: the first readable millisecond hint header (default
 * {@link DEFAULT_RETRY_AFTER_MS_HEADERS}), else `retry-after`. Header names are lower-case, as the transport
 * delivers them.
 */
export function readRetryAfterMs(
  headers: Readonly<Record<string, string>>,
  nowMs: number,
  hintHeaders: readonly string[] = DEFAULT_RETRY_AFTER_MS_HEADERS,
): number | undefined {
  for (const name of hintHeaders) {
    const hint = parseRetryAfterMsHint(headers[name]);
    if (hint !== undefined) return hint;
  }
  return parseRetryAfterMs(headers['retry-after'], nowMs);
}

function bound(milliseconds: number): number {
  if (!(milliseconds > 0)) return 0;
  return Math.min(milliseconds, MAX_RETRY_AFTER_MS);
}
