import { z } from 'zod';
import { CONTRACT_BOUNDS_V3 as BOUNDS } from '../../bounds/v3/contract-bounds-v3.js';
import { describeUsageInconsistency } from '../v1/usage-v1.js';

const count = z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER);

/** Tokens split by modality; each figure is part of the total it details. */
export const tokensByModalityV3Schema = z.strictObject({
  /** Text tokens. */
  text: count.optional(),
  /** Image tokens. */
  image: count.optional(),
  /** Audio tokens. */
  audio: count.optional(),
  /** Video tokens. */
  video: count.optional(),
  /** Document tokens (PDF pages and the like). */
  document: count.optional(),
});
export type TokensByModalityV3 = z.infer<typeof tokensByModalityV3Schema>;

/** Requests the provider made to its own hosted tools while answering (billed per request by some providers). */
export const serverToolRequestsV3Schema = z.strictObject({
  /** Web searches. */
  webSearch: count.optional(),
  /** Web page fetches. */
  webFetch: count.optional(),
  /** Code-execution runs. */
  codeExecution: count.optional(),
  /** File or vector-store searches. */
  fileSearch: count.optional(),
});
export type ServerToolRequestsV3 = z.infer<typeof serverToolRequestsV3Schema>;

const usageV3Shape = z.strictObject({
  /** All input tokens, cached ones included. */
  inputTokens: count.optional(),
  /** All output tokens, reasoning included. */
  outputTokens: count.optional(),
  /** The provider's total, when it reports one. */
  totalTokens: count.optional(),
  /** Input tokens read from the provider's prompt cache (part of `inputTokens`). */
  cacheReadInputTokens: count.optional(),
  /** Input tokens written to the provider's prompt cache (part of `inputTokens`). */
  cacheWriteInputTokens: count.optional(),
  /**
   * `cacheWriteInputTokens` split by the cache entry's time to live, as providers that price them differently
   * report it. The parts never exceed `cacheWriteInputTokens`.
   */
  cacheWriteInputTokensByTtl: z
    .strictObject({
      /** Written with a five-minute time to live. */
      fiveMinutes: count.optional(),
      /** Written with a one-hour time to live. */
      oneHour: count.optional(),
    })
    .optional(),
  /** Output tokens spent on reasoning (part of `outputTokens`). */
  reasoningOutputTokens: count.optional(),
  /** `inputTokens` by modality, where reported. */
  inputTokensByModality: tokensByModalityV3Schema.optional(),
  /** `outputTokens` by modality, where reported. */
  outputTokensByModality: tokensByModalityV3Schema.optional(),
  /** Hosted-tool requests, where reported. */
  serverToolRequests: serverToolRequestsV3Schema.optional(),
  /** The service tier the provider says it served the request on (for example `default`, `priority`, `flex`). */
  serviceTier: z
    .string()
    .min(1)
    .max(BOUNDS.serviceTierMaxLength)
    .regex(/^[A-Za-z0-9_.:-]+$/)
    .optional(),
  /** Images produced or billed. */
  images: count.optional(),
  /** Search units billed (rerank). */
  searchUnits: count.optional(),
  /** Seconds of video produced or billed. */
  videoSeconds: count.optional(),
});

/**
 * Normalized usage, V3 revision: every V1 figure with the V1 conventions, plus billing details. Absent stays
 * absent, never zero. Every V1 usage is a V3 usage.
 */
export const usageV3Schema = usageV3Shape.superRefine((usage, context) => {
  const problem = describeUsageV3Inconsistency(usage);
  if (problem !== undefined) context.addIssue({ code: 'custom', message: problem });
});
export type UsageV3 = z.infer<typeof usageV3Shape>;

function sum(parts: Readonly<Record<string, number | undefined>>): number {
  let total = 0;
  for (const key in parts) total += parts[key] ?? 0;
  return total;
}

/** Returns why V3 usage figures contradict each other, or `undefined` when they are consistent. */
export function describeUsageV3Inconsistency(usage: UsageV3): string | undefined {
  const base = describeUsageInconsistency(usage);
  if (base !== undefined) return base;
  const { cacheWriteInputTokensByTtl: byTtl, cacheWriteInputTokens, inputTokens, outputTokens } = usage;
  if (byTtl !== undefined && cacheWriteInputTokens !== undefined && sum(byTtl) > cacheWriteInputTokens) {
    return 'cache writes by time to live exceed cache write tokens';
  }
  if (usage.inputTokensByModality !== undefined && inputTokens !== undefined && sum(usage.inputTokensByModality) > inputTokens) {
    return 'input tokens by modality exceed input tokens';
  }
  if (usage.outputTokensByModality !== undefined && outputTokens !== undefined && sum(usage.outputTokensByModality) > outputTokens) {
    return 'output tokens by modality exceed output tokens';
  }
  return undefined;
}
