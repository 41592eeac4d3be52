import type { UsageV1 } from '@tokenforge/model-protocol';
import type { OpenAiEmbeddingsWireUsage } from './wire-readers.js';

/**
 * Converts OpenAI embeddings usage. Arithmetic: embeddings have no output, so `prompt_tokens` is every token
 * billed (`inputTokens`) and `total_tokens` (`totalTokens`) equals it on OpenAI; a compatible server's own total is
 * kept as reported. A missing field stays absent (never 0); no usage at all gives `undefined`.
 */
export function convertOpenAiEmbeddingsUsage(usage: OpenAiEmbeddingsWireUsage | undefined): UsageV1 | undefined {
  if (usage === undefined) return undefined;
  const converted: UsageV1 = {
    ...(usage.prompt_tokens === undefined ? {} : { inputTokens: usage.prompt_tokens }),
    ...(usage.total_tokens === undefined ? {} : { totalTokens: usage.total_tokens }),
  };
  return Object.keys(converted).length === 0 ? undefined : converted;
}
