import type { ReasoningControlV2 } from '@tokenforge/model-protocol';

/** The `reasoning_effort` values this family sends. */
export type OpenAiChatReasoningEffort = 'minimal' | 'low' | 'medium' | 'high';

/**
 * Chooses `reasoning_effort` from the task's reasoning controls. An explicit `effort` wins. Otherwise a token
 * budget maps by these thresholds (OpenAI documents no budget; they follow the budgets other dialects pair
 * with each level): under 1,024 → `minimal`; 1,024 to 8,191 → `low`; 8,192 to 24,575 → `medium`; 24,576 and
 * above → `high`. No effort and no budget: no `reasoning_effort` (the server's default).
 * `includeReasoning` has no Chat Completions field and is ignored: OpenAI returns no reasoning text here, and
 * compatible servers that do return it decide on their own.
 */
export function mapOpenAiChatReasoningEffort(reasoning: ReasoningControlV2 | undefined): OpenAiChatReasoningEffort | undefined {
  if (reasoning === undefined) return undefined;
  if (reasoning.effort !== undefined) return reasoning.effort;
  const budget = reasoning.budgetTokens;
  if (budget === undefined) return undefined;
  if (budget < 1024) return 'minimal';
  if (budget < 8192) return 'low';
  if (budget < 24_576) return 'medium';
  return 'high';
}
