import { REASONING_EFFORTS_V3, type ReasoningControlV3, type ReasoningEffortV3 } from '@tokenforge/model-protocol';
import { resolveReasoningEffortV3 } from '../../codec-kit/index.js';

/** The `reasoning` object this family sends. */
export interface OpenAiResponsesRequestReasoning {
  /** Qualitative effort: a level the target declares, by default `minimal` to `high`. */
  readonly effort?: ReasoningEffortV3;
  /** `auto`: ask for reasoning summaries (sent when the task asks to include reasoning). */
  readonly summary?: 'auto';
}

/**
 * Chooses `reasoning` from the task's reasoning controls.
 *
 * - `effort`: an explicit effort wins, mapped onto the levels the target declares (default `minimal` to `high`) by
 *   `mapReasoningEffortV3` (`none` → `minimal`, `xhigh` / `max` → `high` when undeclared). Otherwise a token budget maps by the thresholds the `openai-chat/v1` family
 *   uses for `reasoning_effort` (OpenAI documents no budget): under 1,024 → `minimal`; 1,024 to 8,191 → `low`;
 *   8,192 to 24,575 → `medium`; 24,576 and above → `high`.
 * - `summary`: `auto` when `includeReasoning` is true (OpenAI returns reasoning only as summaries, and only when
 *   asked); absent otherwise.
 *
 * Returns `undefined` (no `reasoning` object: the server's defaults) when neither is set.
 */
export function mapOpenAiResponsesReasoning(
  reasoning: ReasoningControlV3 | undefined,
  declared?: readonly ReasoningEffortV3[],
): OpenAiResponsesRequestReasoning | undefined {
  if (reasoning === undefined) return undefined;
  let effort = reasoning.effort === undefined ? undefined : resolveReasoningEffortV3(reasoning.effort, declared, REASONING_EFFORTS_V3);
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
