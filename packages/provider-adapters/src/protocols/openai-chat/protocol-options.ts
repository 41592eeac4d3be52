/**
 * Options of the `openai-chat/v1` family for compatible servers that differ from OpenAI. They are facts about the
 * server a host configures, never guessed from a provider or model name. Every option has an OpenAI default.
 */
export interface OpenAiChatProtocolOptionsV1 {
  /**
   * Role that carries the task's system instructions: `system` (default; accepted by OpenAI for every model,
   * which treats it as `developer` on reasoning models, and by every compatible server) or `developer`.
   */
  readonly systemRole?: 'system' | 'developer';
  /**
   * Field that carries `maxOutputTokens`: `max_completion_tokens` (default; OpenAI's current field, an upper
   * bound that includes reasoning tokens, required by reasoning models which reject `max_tokens`) or the
   * deprecated `max_tokens` for older compatible servers that only know it.
   */
  readonly maxTokensField?: 'max_completion_tokens' | 'max_tokens';
  /**
   * What happens to assistant `reasoning` parts of earlier turns: `drop` (default; OpenAI Chat Completions
   * accepts no reasoning input) or `reasoning-content`, which sends their text joined as the assistant
   * message's `reasoning_content` for servers that ask for it back (DeepSeek-style thinking with tool calls).
   * Signatures and `redacted-reasoning` parts are dropped in both cases: this dialect has no carrier for them.
   */
  readonly reasoningReplay?: 'drop' | 'reasoning-content';
  /**
   * What happens to tool-call signatures of earlier turns: `drop` (default; OpenAI has no field for them and may
   * refuse unknown ones) or `google-extra-content`, which sends them as `extra_content.google.thought_signature`
   * on the tool call, as Gemini's OpenAI-compatible endpoint requires for function calling with thinking models.
   */
  readonly toolCallSignatures?: 'drop' | 'google-extra-content';
  /**
   * The ISO 4217 currency of a cost the server reports in `usage.cost` as a decimal amount (OpenRouter reports its
   * credits, which are US dollars, this way: `USD`). When set, a readable `usage.cost` becomes the terminal's
   * `cost` in integer millionths. Default: unset, and `usage.cost` is not read (OpenAI reports no cost, and an
   * amount without a known currency is not a fact).
   */
  readonly reportedCostCurrency?: string;
}

/** The options with their defaults filled in. */
export interface ResolvedOpenAiChatProtocolOptionsV1 {
  readonly systemRole: 'system' | 'developer';
  readonly maxTokensField: 'max_completion_tokens' | 'max_tokens';
  readonly reasoningReplay: 'drop' | 'reasoning-content';
  readonly toolCallSignatures: 'drop' | 'google-extra-content';
}

/** Fills in the defaults. */
export function resolveOpenAiChatProtocolOptions(options?: OpenAiChatProtocolOptionsV1): ResolvedOpenAiChatProtocolOptionsV1 {
  return {
    systemRole: options?.systemRole ?? 'system',
    maxTokensField: options?.maxTokensField ?? 'max_completion_tokens',
    reasoningReplay: options?.reasoningReplay ?? 'drop',
    toolCallSignatures: options?.toolCallSignatures ?? 'drop',
  };
}
