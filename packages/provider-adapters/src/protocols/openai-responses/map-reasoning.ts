import type { ReasoningControlV2 } from '@tokenforge/model-protocol';

/** The `reasoning` object this family sends. */
export interface OpenAiResponsesRequestReasoning {
  /** Qualitative effort. */
  readonly effort?: 'minimal' | 'low' | 'medium' | 'high';
  /** `auto`: ask for reasoning summaries (sent when the task asks to include reasoning). */
  readonly summary?: 'auto';
}

/**
 * Chooses `reasoning` from the task's reasoning controls.
 *
 * - `effort`: an explicit effort wins. Otherwise a token budget maps by the thresholds the `openai-chat/v1` family
 *   uses for `reasoning_effort` (OpenAI documents no budget): under 1,024 → `minimal`; 1,024 to 8,191 → `low`;
 *   8,192 to 24,575 → `medium`; 24,576 and above → `high`.
 * - `summary`: `auto` when `includeReasoning` is true (OpenAI returns reasoning only as summaries, and only when
 *   asked); absent otherwise.
 *
 * Returns `undefined` (no `reasoning` object: the server's defaults) when neither is set.
 */
export function mapOpenAiResponsesReasoning(reasoning: ReasoningControlV2 | undefined): OpenAiResponsesRequestReasoning | undefined {
  if (reasoning === undefined) return undefined;
  let effort = reasoning.effort;
  const budget = reasoning.budgetTokens;
  if (effort === undefined && budget !== undefined) {
    if (budget < 1024) effort = 'minimal';
    else if (budget < 8192) effort = 'low';
    else if (budget < 24_576) effort = 'medium';
    else effort = 'high';
  }
  const summary = reasoning.includeReasoning === true ? ('auto' as const) : undefined;
  if (effort === undefined && summary === undefined) return undefined;
  return { ...(effort === undefined ? {} : { effort }), ...(summary === undefined ? {} : { summary }) };
}
