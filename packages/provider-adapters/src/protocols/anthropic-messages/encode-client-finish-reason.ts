import type { FinishReasonV1 } from '@tokenforge/model-protocol';
import { mapAnthropicStopReason } from './map-finish-reason.js';

const ANTHROPIC_STOP_REASONS: ReadonlySet<string> = new Set([
  'end_turn',
  'stop_sequence',
  'pause_turn',
  'max_tokens',
  'model_context_window_exceeded',
  'tool_use',
  'refusal',
  // Server-side compaction with `pause_after_compaction` stops after the compaction block (compaction beta).
  'compaction',
]);

/**
 * The Anthropic `stop_reason` for a normalized finish reason. A raw value that is a documented Anthropic stop
 * reason and means the same unified reason is kept (same-dialect round trips stay exact); otherwise the unified
 * reason decides: `stop` → `end_turn`, `length` → `max_tokens`, `tool-calls` → `tool_use`, `content-filter` and
 * `refusal` → `refusal`, `other` (or no reason) → `end_turn`.
 */
export function encodeAnthropicStopReason(finishReason: FinishReasonV1 | undefined): string {
  if (finishReason === undefined) return 'end_turn';
  const raw = finishReason.raw;
  if (raw !== undefined && ANTHROPIC_STOP_REASONS.has(raw) && mapAnthropicStopReason(raw).unified === finishReason.unified) return raw;
  switch (finishReason.unified) {
    case 'stop':
    case 'other':
      return 'end_turn';
    case 'length':
      return 'max_tokens';
    case 'tool-calls':
      return 'tool_use';
    case 'content-filter':
    case 'refusal':
      return 'refusal';
    default: {
      const unknownReason: never = finishReason.unified;
      void unknownReason;
      return 'end_turn';
    }
  }
}
