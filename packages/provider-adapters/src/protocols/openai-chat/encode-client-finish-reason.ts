import type { FinishReasonV1 } from '@tokenforge/model-protocol';

/** The `finish_reason` values this family writes for clients. */
export type OpenAiChatEgressFinishReason = 'stop' | 'length' | 'tool_calls' | 'content_filter';

/**
 * Maps a unified finish reason to the Chat Completions value clients know: `stop`, `length`, `tool-calls` →
 * `tool_calls`, `content-filter` → `content_filter`. A `refusal` ends with `stop` (as OpenAI ends refusals), and
 * `other` or an absent reason is written as `stop`: the dialect has no value for them and clients only branch on
 * the four known ones.
 */
export function mapOpenAiChatEgressFinishReason(finishReason: FinishReasonV1 | undefined): OpenAiChatEgressFinishReason {
  const unified = finishReason?.unified;
  switch (unified) {
    case 'length':
      return 'length';
    case 'tool-calls':
      return 'tool_calls';
    case 'content-filter':
      return 'content_filter';
    case 'stop':
    case 'refusal':
    case 'other':
    case undefined:
      return 'stop';
    default: {
      const unknownReason: never = unified;
      void unknownReason;
      return 'stop';
    }
  }
}
