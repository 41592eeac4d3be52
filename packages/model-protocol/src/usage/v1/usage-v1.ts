import { z } from 'zod';

const count = z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER);

/**
 * Normalized usage. Every field is a non-negative integer the provider reported (or that follows from
 * reported numbers by the family's documented arithmetic). A field the provider did not report is
 * absent, never zero.
 *
 * Conventions: `inputTokens` counts all input including cached input; `cacheReadInputTokens` and
 * `cacheWriteInputTokens` are parts of it. `outputTokens` counts all output including reasoning;
 * `reasoningOutputTokens` is part of it.
 */
export const usageV1Schema = z
  .strictObject({
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
    /** Output tokens spent on reasoning (part of `outputTokens`). */
    reasoningOutputTokens: count.optional(),
    /** Images produced or billed. */
    images: count.optional(),
    /** Search units billed (rerank). */
    searchUnits: count.optional(),
    /** Seconds of video produced or billed. */
    videoSeconds: count.optional(),
  })
  .superRefine((usage, context) => {
    const problem = describeUsageInconsistency(usage);
    if (problem !== undefined) context.addIssue({ code: 'custom', message: problem });
  });
export type UsageV1 = z.infer<typeof usageV1Schema>;

/** Returns why usage figures contradict each other, or `undefined` when they are consistent. */
export function describeUsageInconsistency(usage: UsageV1): string | undefined {
  const { inputTokens, outputTokens, totalTokens, cacheReadInputTokens, cacheWriteInputTokens, reasoningOutputTokens } =
    usage;
  if (inputTokens !== undefined && (cacheReadInputTokens ?? 0) + (cacheWriteInputTokens ?? 0) > inputTokens) {
    return 'cached input tokens exceed input tokens';
  }
  if (outputTokens !== undefined && reasoningOutputTokens !== undefined && reasoningOutputTokens > outputTokens) {
    return 'reasoning tokens exceed output tokens';
  }
  if (totalTokens !== undefined && inputTokens !== undefined && outputTokens !== undefined) {
    if (totalTokens < inputTokens + outputTokens) return 'total tokens are less than input plus output';
  }
  return undefined;
}
