import type { UsageV1 } from '@tokenforge/model-protocol';
import type { RerankWireUsage } from './wire-readers.js';

/**
 * Converts rerank usage. Arithmetic per shape: Cohere bills `meta.billed_units.search_units` (`searchUnits`; one
 * unit per query over up to 100 documents, chunks counted separately, per Cohere's pricing notes) and reports no
 * tokens here; Together and vLLM report `prompt_tokens` (`inputTokens`), `completion_tokens` (`outputTokens`,
 * 0 for rerank) and `total_tokens` (`totalTokens`); Jina and Voyage report `total_tokens` only, which stays a
 * total (how it splits is not said); SiliconFlow's `tokens.input_tokens` / `output_tokens` are input and output;
 * TEI reports nothing. A field not reported stays absent; no usage at all gives `undefined`.
 */
export function convertCohereRerankUsage(usage: RerankWireUsage): UsageV1 | undefined {
  const converted: UsageV1 = {
    ...(usage.input_tokens === undefined ? {} : { inputTokens: usage.input_tokens }),
    ...(usage.output_tokens === undefined ? {} : { outputTokens: usage.output_tokens }),
    ...(usage.total_tokens === undefined ? {} : { totalTokens: usage.total_tokens }),
    ...(usage.search_units === undefined ? {} : { searchUnits: usage.search_units }),
  };
  return Object.keys(converted).length === 0 ? undefined : converted;
}
