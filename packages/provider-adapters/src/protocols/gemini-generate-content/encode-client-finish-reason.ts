import type { FinishReasonV1 } from '@tokenforge/model-protocol';
import { assertNever } from './assert-never.js';
import { GEMINI_BLOCK_REASON_RAW_PREFIX, mapGeminiFinishReason } from './map-finish-reason.js';

/** Every candidate finish reason Gemini defines (fact sheet §4.4). */
const GEMINI_FINISH_REASONS: ReadonlySet<string> = new Set([
  'FINISH_REASON_UNSPECIFIED',
  'STOP',
  'MAX_TOKENS',
  'SAFETY',
  'RECITATION',
  'LANGUAGE',
  'OTHER',
  'BLOCKLIST',
  'PROHIBITED_CONTENT',
  'SPII',
  'MALFORMED_FUNCTION_CALL',
  'IMAGE_SAFETY',
  'UNEXPECTED_TOOL_CALL',
  'TOO_MANY_TOOL_CALLS',
  'IMAGE_PROHIBITED_CONTENT',
  'NO_IMAGE',
  'IMAGE_RECITATION',
  'IMAGE_OTHER',
]);

const BLOCK_REASON = /^[A-Z_]{1,64}$/;

/**
 * The Gemini finish reason for a normalized one: the raw value when it is a Gemini value that means the same
 * unified reason (a Gemini upstream), else stop and tool-calls `STOP`, length `MAX_TOKENS`, content-filter and
 * refusal `SAFETY`, other `OTHER`. A completed outcome without a finish reason is `STOP`.
 */
export function toGeminiFinishReason(finishReason: FinishReasonV1 | undefined): string {
  if (finishReason === undefined) return 'STOP';
  const raw = finishReason.raw;
  if (raw !== undefined && GEMINI_FINISH_REASONS.has(raw)) {
    const unified = mapGeminiFinishReason(raw, finishReason.unified === 'tool-calls').unified;
    if (unified === finishReason.unified) return raw;
  }
  switch (finishReason.unified) {
    case 'stop':
    case 'tool-calls':
      return 'STOP';
    case 'length':
      return 'MAX_TOKENS';
    case 'content-filter':
    case 'refusal':
      return 'SAFETY';
    case 'other':
      return 'OTHER';
    default:
      return assertNever(finishReason.unified, 'finish reason');
  }
}

/** The prompt block reason a finish reason records (see `mapGeminiBlockReason`), if any. */
export function blockReasonOf(finishReason: FinishReasonV1 | undefined): string | undefined {
  const raw = finishReason?.raw;
  if (finishReason?.unified !== 'content-filter' || raw === undefined || !raw.startsWith(GEMINI_BLOCK_REASON_RAW_PREFIX)) return undefined;
  const reason = raw.slice(GEMINI_BLOCK_REASON_RAW_PREFIX.length);
  return BLOCK_REASON.test(reason) ? reason : undefined;
}
