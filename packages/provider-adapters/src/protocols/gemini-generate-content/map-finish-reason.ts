import type { FinishReasonV1, UnifiedFinishReasonV1 } from '@tokenforge/model-protocol';

/** Candidate finish reasons that mean generation was stopped by a content filter. */
const CONTENT_FILTER_REASONS: ReadonlySet<string> = new Set([
  'SAFETY',
  'RECITATION',
  'BLOCKLIST',
  'PROHIBITED_CONTENT',
  'SPII',
  'IMAGE_SAFETY',
  'IMAGE_PROHIBITED_CONTENT',
  'IMAGE_RECITATION',
]);

/** Prefix of the raw finish reason recorded for a blocked prompt, so that the Gemini egress can say so again. */
export const GEMINI_BLOCK_REASON_RAW_PREFIX = 'blockReason:';

/**
 * Maps a candidate `finishReason` to the unified reason, keeping the raw value.
 * - `STOP` is `tool-calls` when the candidate produced a `functionCall` (Gemini has no tool-call reason),
 *   otherwise `stop`;
 * - `MAX_TOKENS` is `length`;
 * - `SAFETY`, `RECITATION`, `BLOCKLIST`, `PROHIBITED_CONTENT`, `SPII` and the `IMAGE_*` filter reasons are
 *   `content-filter`;
 * - everything else is `other`: `MALFORMED_FUNCTION_CALL`, `UNEXPECTED_TOOL_CALL` and `TOO_MANY_TOOL_CALLS`
 *   (the model failed to produce a usable call: neither a stop nor a call the host can run), `LANGUAGE`,
 *   `OTHER`, `FINISH_REASON_UNSPECIFIED`, `NO_IMAGE`, `IMAGE_OTHER` and any value not listed here.
 */
export function mapGeminiFinishReason(raw: string, hasToolCalls: boolean): FinishReasonV1 {
  return { unified: unifyFinishReason(raw, hasToolCalls), raw };
}

function unifyFinishReason(raw: string, hasToolCalls: boolean): UnifiedFinishReasonV1 {
  if (raw === 'STOP') return hasToolCalls ? 'tool-calls' : 'stop';
  if (raw === 'MAX_TOKENS') return 'length';
  if (CONTENT_FILTER_REASONS.has(raw)) return 'content-filter';
  return 'other';
}

/**
 * A blocked prompt (`promptFeedback.blockReason`, no candidate) is `content-filter`; the raw value is
 * `blockReason:<value>` so that it cannot be mistaken for a candidate finish reason.
 */
export function mapGeminiBlockReason(blockReason: string): FinishReasonV1 {
  return { unified: 'content-filter', raw: `${GEMINI_BLOCK_REASON_RAW_PREFIX}${blockReason}` };
}
