import { REASONING_EFFORTS_V3, type ReasoningControlV3, type ReasoningEffortV3 } from '@tokenforge/model-protocol';
import { resolveReasoningEffortV3 } from '../../codec-kit/index.js';

/** The `reasoning` object this family sends. */
export interface OpenAiResponsesRequestReasoning {
  /** Qualitative effort: a level the target declares, by default `minimal` to `high`. */
  readonly effort?: ReasoningEffortV3;
  /** Ask for reasoning summaries: the task's `summary`, else `auto` when the task asks to include reasoning. */
  readonly summary?: 'auto' | 'concise' | 'detailed';
  /** Which earlier reasoning the model sees (`auto`, `all_turns`, `current_turn`), when the task says. */
  readonly context?: 'auto' | 'all_turns' | 'current_turn';
}

const WIRE_CONTEXT = { auto: 'auto', 'all-turns': 'all_turns', 'current-turn': 'current_turn' } as const;

/**
 * Chooses `reasoning` from the task's reasoning controls.
 *
 * - `effort`: an explicit effort wins, mapped onto the levels the target declares (default `minimal` to `high`) by
 *   `mapReasoningEffortV3` (`none` → `minimal`, `xhigh` / `max` → `high` when undeclared). Otherwise a token budget maps by the thresholds the `openai-chat/v1` family
 *   uses for `reasoning_effort` (OpenAI documents no budget): under 1,024 → `minimal`; 1,024 to 8,191 → `low`;
 *   8,192 to 24,575 → `medium`; 24,576 and above → `high`.
 * - `summary`: the task's `summary` when set, else `auto` when `includeReasoning` is true (OpenAI returns reasoning
 *   only as summaries, and only when asked); absent otherwise.
 * - `context`: the task's `context` (`all-turns` → `all_turns`, `current-turn` → `current_turn`).
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
  const summary = reasoning.summary ?? (reasoning.includeReasoning === true ? ('auto' as const) : undefined);
  const context = reasoning.context === undefined ? undefined : WIRE_CONTEXT[reasoning.context];
  if (effort === undefined && summary === undefined && context === undefined) return undefined;
  return { ...(effort === undefined ? {} : { effort }), ...(summary === undefined ? {} : { summary }), ...(context === undefined ? {} : { context }) };
}
