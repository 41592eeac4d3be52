import type { UsageV3 } from '@tokenforge/model-protocol';

/** `usage` as this family writes it for clients. */
export interface OpenAiChatEgressUsage {
  readonly prompt_tokens: number;
  readonly completion_tokens: number;
  readonly total_tokens: number;
  readonly prompt_tokens_details?: {
    readonly cached_tokens?: number;
    readonly cache_write_tokens?: number;
    readonly text_tokens?: number;
    readonly image_tokens?: number;
    readonly audio_tokens?: number;
  };
  readonly completion_tokens_details?: { readonly reasoning_tokens?: number; readonly text_tokens?: number; readonly audio_tokens?: number };
}

/** The service tiers OpenAI clients know (the envelope's `service_tier`); another dialect's tier is not written. */
const OPENAI_SERVICE_TIERS: ReadonlySet<string> = new Set(['auto', 'default', 'flex', 'scale', 'priority']);

/** The envelope's `service_tier` for `usage`, when it has an OpenAI tier (`{}` otherwise). */
export function encodeOpenAiServiceTier(usage: UsageV3 | undefined): { readonly service_tier?: string } {
  const tier = usage?.serviceTier;
  return tier !== undefined && OPENAI_SERVICE_TIERS.has(tier) ? { service_tier: tier } : {};
}

function present(entries: Readonly<Record<string, number | undefined>>): Record<string, number> {
  const result: Record<string, number> = {};
  for (const [key, value] of Object.entries(entries)) if (value !== undefined) result[key] = value;
  return result;
}

/**
 * Writes normalized usage in OpenAI's arithmetic (the same as {@link UsageV3}'s: prompt includes cached and
 * cache-write tokens, completion includes reasoning). `total_tokens` is the reported total, else input plus
 * output. Without both input and output counts nothing is written: the dialect has no partial usage, and
 * missing counts are never invented as zeros. Details go to `prompt_tokens_details` (cache reads and writes, text /
 * image / audio tokens) and `completion_tokens_details` (reasoning, text / audio tokens); a modality OpenAI has no
 * field for (video, document) is not written.
 */
export function encodeOpenAiChatEgressUsage(usage: UsageV3 | undefined): OpenAiChatEgressUsage | undefined {
  if (usage === undefined || usage.inputTokens === undefined || usage.outputTokens === undefined) return undefined;
  const promptDetails = present({
    cached_tokens: usage.cacheReadInputTokens,
    cache_write_tokens: usage.cacheWriteInputTokens,
    text_tokens: usage.inputTokensByModality?.text,
    image_tokens: usage.inputTokensByModality?.image,
    audio_tokens: usage.inputTokensByModality?.audio,
  });
  const completionDetails = present({
    reasoning_tokens: usage.reasoningOutputTokens,
    text_tokens: usage.outputTokensByModality?.text,
    audio_tokens: usage.outputTokensByModality?.audio,
  });
  return {
    prompt_tokens: usage.inputTokens,
    completion_tokens: usage.outputTokens,
    total_tokens: usage.totalTokens ?? usage.inputTokens + usage.outputTokens,
    ...(Object.keys(promptDetails).length === 0 ? {} : { prompt_tokens_details: promptDetails }),
    ...(Object.keys(completionDetails).length === 0 ? {} : { completion_tokens_details: completionDetails }),
  };
}
