import { createHash } from 'node:crypto';
import { z } from 'zod';

const DECIMAL_PRICE = /^(0|[1-9][0-9]{0,8})(\.[0-9]{1,6})?$/;

/** Parses a decimal price (at most 6 decimals) into integer micro-units, exactly: `'2.5'` and `2.5` give 2_500_000. */
function toMicros(value: string | number): number | undefined {
  const text = typeof value === 'number' ? String(value) : value;
  if (!DECIMAL_PRICE.test(text)) return undefined;
  const [whole = '0', fraction = ''] = text.split('.');
  return Number(whole) * 1_000_000 + Number(fraction.padEnd(6, '0'));
}

/**
 * A price in the table's currency, written as a decimal number or string with at most 6 decimals (`2.5`, `"0.075"`);
 * read as integer micro-units so that no cost is ever computed in floating point.
 */
const priceSchema = z.union([z.string(), z.number()]).transform((value, context) => {
  const micros = toMicros(value);
  if (micros === undefined) {
    context.addIssue({ code: 'custom', message: 'a price is a non-negative decimal with at most 6 decimals' });
    return z.NEVER;
  }
  return micros;
});

/**
 * What a catalogue target costs, per unit of what its usage reports. Token prices are per million tokens; an absent
 * price falls back as each field says, never to zero unless stated. Values are read into integer micro-units.
 */
export const priceTableV1Schema = z.strictObject({
  /** ISO 4217 code, upper case (`USD`): every price of the table is in it. */
  currency: z.string().regex(/^[A-Z]{3}$/),
  /**
   * The version a ledger row names. Declare it (`2026-04-openai`) to keep it stable across edits that do not change
   * prices; absent, it is derived from the prices' content hash (`p-` and 16 hex digits).
   */
  version: z
    .string()
    .min(1)
    .max(64)
    .regex(/^[A-Za-z0-9_.:-]+$/)
    .optional(),
  /** Uncached input tokens, per million. */
  inputPerMillion: priceSchema,
  /** Input tokens read from the provider's prompt cache, per million; absent: the input price. */
  cachedInputReadPerMillion: priceSchema.optional(),
  /**
   * Input tokens written to the prompt cache, per million, by the entry's time to live; an absent TTL price is the
   * input price. Writes the usage does not split by TTL are charged at the five-minute price.
   */
  cacheWritePerMillion: z
    .strictObject({
      /** Written with a five-minute time to live. */
      fiveMinutes: priceSchema.optional(),
      /** Written with a one-hour time to live. */
      oneHour: priceSchema.optional(),
    })
    .optional(),
  /** Output tokens, per million (reasoning included unless `reasoningPerMillion` is set). */
  outputPerMillion: priceSchema,
  /** Reasoning output tokens, per million; absent: the output price. */
  reasoningPerMillion: priceSchema.optional(),
  /** Each image produced or billed; absent: images are not billed by this target. */
  perImage: priceSchema.optional(),
  /** Each second of video produced; absent: video is not billed by this target. */
  perVideoSecond: priceSchema.optional(),
  /** Each hosted web search the provider ran; absent: searches are not billed by this target. */
  perWebSearch: priceSchema.optional(),
});

/** A price table as written in the catalogue. */
export type PriceTableV1Input = z.input<typeof priceTableV1Schema>;

/** A price table with every price in integer micro-units of `currency` (per million tokens, or per unit). */
export interface PriceTableV1 {
  readonly currency: string;
  /** Declared or derived: see {@link priceTableV1Schema}. */
  readonly version: string;
  readonly inputPerMillion: number;
  readonly cachedInputReadPerMillion: number;
  readonly cacheWriteFiveMinutesPerMillion: number;
  readonly cacheWriteOneHourPerMillion: number;
  readonly outputPerMillion: number;
  readonly reasoningPerMillion: number;
  /** Absent: not billed. */
  readonly perImage?: number;
  readonly perVideoSecond?: number;
  readonly perWebSearch?: number;
}

/** Resolves the fallbacks of a parsed price table and its version. */
export function resolvePriceTableV1(parsed: z.output<typeof priceTableV1Schema>): PriceTableV1 {
  const input = parsed.inputPerMillion;
  const prices = {
    currency: parsed.currency,
    inputPerMillion: input,
    cachedInputReadPerMillion: parsed.cachedInputReadPerMillion ?? input,
    cacheWriteFiveMinutesPerMillion: parsed.cacheWritePerMillion?.fiveMinutes ?? input,
    cacheWriteOneHourPerMillion: parsed.cacheWritePerMillion?.oneHour ?? input,
    outputPerMillion: parsed.outputPerMillion,
    reasoningPerMillion: parsed.reasoningPerMillion ?? parsed.outputPerMillion,
    ...(parsed.perImage === undefined ? {} : { perImage: parsed.perImage }),
    ...(parsed.perVideoSecond === undefined ? {} : { perVideoSecond: parsed.perVideoSecond }),
    ...(parsed.perWebSearch === undefined ? {} : { perWebSearch: parsed.perWebSearch }),
  };
  const canonical = JSON.stringify(Object.entries(prices).sort(([a], [b]) => a.localeCompare(b)));
  const version = parsed.version ?? `p-${createHash('sha256').update(canonical).digest('hex').slice(0, 16)}`;
  return { ...prices, version };
}

/** Parses and resolves a price table written as the catalogue has it (throws the zod error when invalid). */
export function parsePriceTableV1(input: unknown): PriceTableV1 {
  return resolvePriceTableV1(priceTableV1Schema.parse(input));
}
