import type { FinishReasonV1 } from '@tokenforge/model-protocol';

const RAW_STOP_REASON_PATTERN = /^[A-Za-z0-9_.:-]{1,64}$/;

/**
 * Maps an Anthropic `stop_reason` onto the unified vocabulary, keeping the raw value.
 *
 * - `end_turn`, `stop_sequence` → `stop`;
 * - `pause_turn` → `stop`: the provider paused a long server-tool turn and expects the caller to resend the
 *   conversation to continue. The answer so far is complete as far as this turn goes; the raw value tells a
 *   caller that runs server tools to continue;
 * - `max_tokens`, `model_context_window_exceeded` → `length`;
 * - `tool_use` → `tool-calls`;
 * - `refusal` → `refusal` (the model declined; the text so far is kept as text);
 * - `null` or absent → `other` without a raw value;
 * - any other value → `other`, with the raw value kept when it fits the contract's charset, never a guess.
 */
export function mapAnthropicStopReason(raw: string | null | undefined): FinishReasonV1 {
  if (raw === null || raw === undefined) return { unified: 'other' };
  const kept = RAW_STOP_REASON_PATTERN.test(raw) ? { raw } : {};
  switch (raw) {
    case 'end_turn':
    case 'stop_sequence':
    case 'pause_turn':
      return { unified: 'stop', ...kept };
    case 'max_tokens':
    case 'model_context_window_exceeded':
      return { unified: 'length', ...kept };
    case 'tool_use':
      return { unified: 'tool-calls', ...kept };
    case 'refusal':
      return { unified: 'refusal', ...kept };
    default:
      return { unified: 'other', ...kept };
  }
}
