import { ANTHROPIC_CONTEXT_MANAGEMENT_BETA } from './encode-context-management.js';
import type { AnthropicMessagesRequestBody } from './wire-request.js';

/**
 * The beta flag a request that replays a compaction block needs in `anthropic-beta`
 * (https://platform.claude.com/docs/en/build-with-claude/compaction: "Include the beta header compact-2026-01-12").
 */
export const ANTHROPIC_COMPACTION_BETA = 'compact-2026-01-12';

/** The `anthropic-beta` value an encoded request needs (comma-separated flags), or `undefined` when it needs none. */
export function anthropicBetaFlags(body: Pick<AnthropicMessagesRequestBody, 'messages'> & Partial<Pick<AnthropicMessagesRequestBody, 'context_management'>>): string | undefined {
  const flags: string[] = [];
  const edits = body.context_management?.edits ?? [];
  if (edits.some((edit) => edit.type !== 'compact_20260112')) flags.push(ANTHROPIC_CONTEXT_MANAGEMENT_BETA);
  // Server-side compaction (the `compact_20260112` edit) and replayed compaction blocks share the compaction beta.
  if (edits.some((edit) => edit.type === 'compact_20260112') || body.messages.some((message) => message.content.some((block) => block.type === 'compaction'))) {
    flags.push(ANTHROPIC_COMPACTION_BETA);
  }
  return flags.length === 0 ? undefined : flags.join(',');
}
