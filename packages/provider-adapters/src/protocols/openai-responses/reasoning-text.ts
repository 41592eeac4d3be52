/** What separates the summary and reasoning-text parts of one reasoning item inside its single reasoning block. */
export const OPENAI_RESPONSES_REASONING_PART_SEPARATOR = '\n\n';

/**
 * The text of a reasoning item's block: its `summary` texts, then its `content` (`reasoning_text`) texts, joined by
 * {@link OPENAI_RESPONSES_REASONING_PART_SEPARATOR}. One item is one block so that its `encrypted_content` (the
 * block's signature) replays as one item.
 */
export function joinOpenAiResponsesReasoningText(summary: readonly string[], content: readonly string[]): string {
  return [...summary, ...content].join(OPENAI_RESPONSES_REASONING_PART_SEPARATOR);
}
