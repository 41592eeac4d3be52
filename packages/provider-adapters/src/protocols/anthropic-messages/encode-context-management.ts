import type { CompactionControlV4, ContextManagementV3 } from '@tokenforge/model-protocol';
import type { AnthropicContextEdit } from './wire-request.js';

/** The beta flag a request with `context_management` needs in `anthropic-beta`. */
export const ANTHROPIC_CONTEXT_MANAGEMENT_BETA = 'context-management-2025-06-27';

/**
 * Encodes context management as `context_management.edits`: `clearThinking` → `clear_thinking_20251015` (`keep`
 * `all` or `{type: "thinking_turns", value}`), `clearToolUses` → `clear_tool_uses_20250919` (`trigger`, `keep`,
 * `clear_at_least` as typed counts, `exclude_tools`, `clear_tool_inputs`), then `compaction` → `compact_20260112`
 * (`trigger` as an input-token count, `pause_after_compaction`, `instructions`). `undefined` when no edit is left. Pure.
 */
export function encodeAnthropicContextManagement(management: ContextManagementV3 | undefined, compaction?: CompactionControlV4): { readonly edits: AnthropicContextEdit[] } | undefined {
  const edits: AnthropicContextEdit[] = [];
  const thinking = management?.clearThinking;
  if (thinking !== undefined) {
    const keep = thinking.keep;
    edits.push({ type: 'clear_thinking_20251015', ...(keep === undefined ? {} : { keep: keep === 'all' ? 'all' : { type: 'thinking_turns', value: keep } }) });
  }
  const tools = management?.clearToolUses;
  if (tools !== undefined) {
    edits.push({
      type: 'clear_tool_uses_20250919',
      ...(tools.triggerInputTokens === undefined ? {} : { trigger: { type: 'input_tokens', value: tools.triggerInputTokens } }),
      ...(tools.keepToolUses === undefined ? {} : { keep: { type: 'tool_uses', value: tools.keepToolUses } }),
      ...(tools.clearAtLeastInputTokens === undefined ? {} : { clear_at_least: { type: 'input_tokens', value: tools.clearAtLeastInputTokens } }),
      ...(tools.excludeTools === undefined ? {} : { exclude_tools: [...tools.excludeTools] }),
      ...(tools.clearToolInputs === undefined ? {} : { clear_tool_inputs: tools.clearToolInputs }),
    });
  }
  if (compaction !== undefined) {
    edits.push({
      type: 'compact_20260112',
      ...(compaction.triggerInputTokens === undefined ? {} : { trigger: { type: 'input_tokens', value: compaction.triggerInputTokens } }),
      ...(compaction.pauseAfterCompaction === undefined ? {} : { pause_after_compaction: compaction.pauseAfterCompaction }),
      ...(compaction.instructions === undefined ? {} : { instructions: compaction.instructions }),
    });
  }
  return edits.length === 0 ? undefined : { edits };
}
