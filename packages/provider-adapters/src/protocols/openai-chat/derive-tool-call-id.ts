/**
 * The id given to a tool call the server sent without one (some compatible servers omit it): derived from the
 * call's normalized block index, so the same response always yields the same id, and unique within the answer.
 */
export function deriveOpenAiChatToolCallId(blockIndex: number): string {
  return `call_derived_${blockIndex}`;
}
