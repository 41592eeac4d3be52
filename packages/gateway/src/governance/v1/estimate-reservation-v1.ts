import type { PriceTableV1 } from './price-table-v1.js';

/**
 * Input tokens reserved for each image a request carries, on top of its bytes: an image's tokens are not bounded by
 * its encoded size (a small PNG can cost a full tile grid). 2,000 covers the largest per-image counts providers
 * publish for their default detail (about 1,600 for Anthropic, about 1,100 for OpenAI's high detail).
 */
export const IMAGE_INPUT_TOKEN_ALLOWANCE_V1 = 2_000;

/**
 * Input tokens reserved for each document (PDF and the like) a request carries, on top of its bytes: a referenced
 * document's pages are not in the request. A larger document is still charged in full (an `overrun` row).
 */
export const DOCUMENT_INPUT_TOKEN_ALLOWANCE_V1 = 20_000;

/** Output tokens reserved when neither the request nor the target names a ceiling. */
export const DEFAULT_OUTPUT_TOKEN_CEILING_V1 = 32_768;

/** What a request tells about its size before it is sent (facts of the decoded task, no content). */
export interface ReservationTaskFactsV1 {
  /** UTF-8 bytes of the request body as received: at least as many as its text input tokens (1 token <= 1 byte). */
  readonly requestBytes: number;
  /** Images in the input. */
  readonly inputImages: number;
  /** Documents in the input. */
  readonly inputDocuments: number;
  /** The request's `max_tokens` (or its dialect's equivalent), when it sets one. */
  readonly maxOutputTokens?: number;
  /** Images asked for (image generation `n`). */
  readonly requestedImages?: number;
  /** Seconds of video asked for. */
  readonly requestedVideoSeconds?: number;
  /** The most hosted searches the request allows, where it caps them. */
  readonly maxWebSearches?: number;
}

/** One target the model may be served by: its prices and output ceiling. */
export interface ReservationTargetV1 {
  readonly price: PriceTableV1;
  /** The most output tokens the target produces for one request. */
  readonly maxOutputTokens?: number;
}

/** What one attempt reserves. */
export interface ReservationEstimateV1 {
  /** Input bound plus output ceiling, held in the token windows. */
  readonly reservedTokens: number;
  /** Held against the budget, in micro-units of `currency`. */
  readonly reservedMicros: number;
  readonly currency: string;
  /** The version of the price table the reservation was computed with (the costliest target's). */
  readonly priceVersion: string;
}

function ceilDivideByMillion(value: bigint): bigint {
  return (value + 999_999n) / 1_000_000n;
}

/**
 * What an attempt reserves before it is sent, so that its actual cost cannot exceed the reservation unless the
 * allowances are: input bounded by the request's bytes plus {@link IMAGE_INPUT_TOKEN_ALLOWANCE_V1} per image and
 * {@link DOCUMENT_INPUT_TOKEN_ALLOWANCE_V1} per document, priced at the dearest input rate (cache writes included);
 * output bounded by `max_tokens` (at most the target's ceiling) or the target's ceiling, at the dearest output rate
 * (reasoning included); asked-for images, video seconds and searches at their prices. Every attempt reserves at the
 * HIGHEST figure among the model's targets, so a fallback never needs more than the first attempt held. Answers
 * `undefined` when no target has a price; targets of one model must share one currency.
 */
export function estimateReservationV1(
  task: ReservationTaskFactsV1,
  targets: readonly ReservationTargetV1[],
): ReservationEstimateV1 | undefined {
  const inputTokens = task.requestBytes + task.inputImages * IMAGE_INPUT_TOKEN_ALLOWANCE_V1 + task.inputDocuments * DOCUMENT_INPUT_TOKEN_ALLOWANCE_V1;
  let best: ReservationEstimateV1 | undefined;
  for (const { price, maxOutputTokens: ceiling } of targets) {
    if (best !== undefined && price.currency !== best.currency) throw new RangeError('the targets of one model must share one currency');
    const outputTokens = Math.min(task.maxOutputTokens ?? Number.POSITIVE_INFINITY, ceiling ?? task.maxOutputTokens ?? DEFAULT_OUTPUT_TOKEN_CEILING_V1);
    const inputRate = Math.max(price.inputPerMillion, price.cachedInputReadPerMillion, price.cacheWriteFiveMinutesPerMillion, price.cacheWriteOneHourPerMillion);
    const outputRate = Math.max(price.outputPerMillion, price.reasoningPerMillion);
    const perMillion = BigInt(inputTokens) * BigInt(inputRate) + BigInt(outputTokens) * BigInt(outputRate);
    const perUnit =
      BigInt(task.requestedImages ?? 0) * BigInt(price.perImage ?? 0) +
      BigInt(task.requestedVideoSeconds ?? 0) * BigInt(price.perVideoSecond ?? 0) +
      BigInt(task.maxWebSearches ?? 0) * BigInt(price.perWebSearch ?? 0);
    const reservedMicros = Number(ceilDivideByMillion(perMillion) + perUnit);
    const reservedTokens = inputTokens + outputTokens;
    if (best === undefined || reservedMicros > best.reservedMicros || (reservedMicros === best.reservedMicros && reservedTokens > best.reservedTokens)) {
      best = { reservedTokens: Math.max(reservedTokens, best?.reservedTokens ?? 0), reservedMicros, currency: price.currency, priceVersion: price.version };
    } else if (reservedTokens > best.reservedTokens) {
      best = { ...best, reservedTokens };
    }
  }
  return best;
}
