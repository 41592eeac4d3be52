import type { FinishReasonV1 } from '@tokenforge/model-protocol';

const RAW_FINISH_REASON_PATTERN = /^[A-Za-z0-9_.:-]{1,64}$/;

/**
 * Maps a Chat Completions `finish_reason` onto the unified vocabulary, keeping the raw value.
 *
 * - `stop` → `stop`, except that `stop` with tool calls in the answer is `tool-calls`: OpenAI answers a named
 *   `tool_choice` with `stop` although `tool_calls` is populated, so tool calls are detected by presence;
 * - `tool_calls` and the legacy `function_call` → `tool-calls`;
 * - `length` → `length`; `content_filter` → `content-filter`;
 * - `null` or absent (tolerated on sync bodies) → `other` without a raw value;
 * - any other value → `other` with the raw value kept when it fits the contract's charset, never a guess.
 *
 * Values that mean a failure (`error`, `insufficient_system_resource`) never reach this mapper: the decoders
 * turn them into failed terminals first (see `mapFinishReasonFailure`).
 */
export function mapOpenAiChatFinishReason(raw: string | null | undefined, hasToolCalls: boolean): FinishReasonV1 {
  if (raw === null || raw === undefined) return { unified: hasToolCalls ? 'tool-calls' : 'other' };
  const kept = RAW_FINISH_REASON_PATTERN.test(raw) ? { raw } : {};
  switch (raw) {
    case 'stop':
      return { unified: hasToolCalls ? 'tool-calls' : 'stop', ...kept };
    case 'tool_calls':
    case 'function_call':
      return { unified: 'tool-calls', ...kept };
    case 'length':
      return { unified: 'length', ...kept };
    case 'content_filter':
      return { unified: 'content-filter', ...kept };
    default:
      return { unified: 'other', ...kept };
  }
}
