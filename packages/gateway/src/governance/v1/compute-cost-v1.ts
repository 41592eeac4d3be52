import type { UsageV3 } from '@tokenforge/model-protocol';
import type { PriceTableV1 } from './price-table-v1.js';

const MILLION = 1_000_000n;

/** The cost of one attempt, in integer micro-units of the price table's currency. */
export interface ComputedCostV1 {
  readonly costMicros: number;
}

function tokens(value: number | undefined): bigint {
  return BigInt(value ?? 0);
}

function atLeastZero(value: bigint): bigint {
  return value < 0n ? 0n : value;
}

/**
 * Computes what reported usage costs under a price table. Usage that reports none of the billed quantities (tokens,
 * images, video seconds, hosted searches), or no usage at all, has no cost: the answer is `undefined`, never zero, and
 * the caller settles the attempt as `estimated`.
 *
 * Exact: every part is summed in millionths of a micro-unit as a `BigInt` (tokens times the price per million), and
 * the total is rounded up to a whole micro-unit once, at the end. Cached reads, cache writes by time to live and
 * reasoning tokens are parts of the input and output totals and are priced out of them; a cache write that the usage
 * does not split by time to live is priced at the five-minute rate.
 */
export function computeCostV1(usage: UsageV3 | undefined, price: PriceTableV1): ComputedCostV1 | undefined {
  if (usage === undefined) return undefined;
  const webSearches = usage.serverToolRequests?.webSearch;
  const billed = [usage.inputTokens, usage.outputTokens, usage.images, usage.videoSeconds, webSearches];
  if (billed.every((quantity) => quantity === undefined)) return undefined;

  const cacheRead = tokens(usage.cacheReadInputTokens);
  const cacheWrite = tokens(usage.cacheWriteInputTokens);
  const writeOneHour = tokens(usage.cacheWriteInputTokensByTtl?.oneHour);
  const writeFiveMinutes = atLeastZero(cacheWrite - writeOneHour);
  const uncachedInput = atLeastZero(tokens(usage.inputTokens) - cacheRead - cacheWrite);
  const reasoning = tokens(usage.reasoningOutputTokens);
  const plainOutput = atLeastZero(tokens(usage.outputTokens) - reasoning);

  const perMillionParts =
    uncachedInput * BigInt(price.inputPerMillion) +
    cacheRead * BigInt(price.cachedInputReadPerMillion) +
    writeFiveMinutes * BigInt(price.cacheWriteFiveMinutesPerMillion) +
    writeOneHour * BigInt(price.cacheWriteOneHourPerMillion) +
    plainOutput * BigInt(price.outputPerMillion) +
    reasoning * BigInt(price.reasoningPerMillion);
  const perUnitParts =
    tokens(usage.images) * BigInt(price.perImage ?? 0) +
    tokens(usage.videoSeconds) * BigInt(price.perVideoSecond ?? 0) +
    tokens(webSearches) * BigInt(price.perWebSearch ?? 0);

  const totalMillionths = perMillionParts + perUnitParts * MILLION;
  const costMicros = (totalMillionths + MILLION - 1n) / MILLION;
  return { costMicros: Number(costMicros) };
}
