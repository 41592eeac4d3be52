import type { FinishReasonV1 } from '@tokenforge/model-protocol';

const RAW_PATTERN = /^[A-Za-z0-9_.:-]{1,64}$/;

/**
 * Derives the finish reason of a completed or incomplete response (Responses has no finish-reason field, §2.6):
 *
 * - `completed` → `tool-calls` when the output holds a `function_call` item, else `stop`; raw `completed`;
 * - `incomplete` with `incomplete_details.reason` `max_output_tokens` → `length`, `content_filter` →
 *   `content-filter` (raw: the reason);
 * - `incomplete` with another or no reason → `other`, keeping the reason as raw when it fits the contract's charset.
 *
 * `failed` responses never reach this mapper: they are failed terminals (see `mapOpenAiResponsesFailure`).
 */
export function mapOpenAiResponsesFinishReason(
  status: 'completed' | 'incomplete',
  incompleteReason: string | undefined,
  hasFunctionCalls: boolean,
): FinishReasonV1 {
  if (status === 'completed') return { unified: hasFunctionCalls ? 'tool-calls' : 'stop', raw: 'completed' };
  const raw = incompleteReason !== undefined && RAW_PATTERN.test(incompleteReason) ? { raw: incompleteReason } : {};
  switch (incompleteReason) {
    case 'max_output_tokens':
      return { unified: 'length', ...raw };
    case 'content_filter':
      return { unified: 'content-filter', ...raw };
    default:
      return { unified: 'other', ...(incompleteReason === undefined ? { raw: 'incomplete' } : raw) };
  }
}
