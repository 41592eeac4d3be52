import { REASONING_EFFORTS_V3, type ReasoningControlV3, type ReasoningEffortV3 } from '@tokenforge/model-protocol';
import { resolveReasoningEffortV3 } from '../../codec-kit/index.js';

/**
 * The `reasoning_effort` values this family sends: a level of the V3 scale the target declares
 * (`capability.reasoningEfforts`), by default one of `minimal`, `low`, `medium`, `high`.
 */
export type OpenAiChatReasoningEffort = ReasoningEffortV3;

/**
 * Chooses `reasoning_effort` from the task's reasoning controls. An explicit `effort` wins, mapped onto the levels
 * the target declares (default `minimal` to `high`) by `mapReasoningEffortV3`: `none` becomes `minimal` and
 * `xhigh` / `max` become `high` on a target that declares none of them. Otherwise a token budget maps by these
 * thresholds (OpenAI documents no budget; they follow the budgets other dialects pair with each level): under
 * 1,024 → `minimal`; 1,024 to 8,191 → `low`; 8,192 to 24,575 → `medium`; 24,576 and above → `high`. No effort
 * and no budget: no `reasoning_effort` (the server's default).
 * `includeReasoning` has no Chat Completions field and is ignored: OpenAI returns no reasoning text here, and
 * compatible servers that do return it decide on their own.
 */
export function mapOpenAiChatReasoningEffort(
  reasoning: ReasoningControlV3 | undefined,
  declared?: readonly ReasoningEffortV3[],
): OpenAiChatReasoningEffort | undefined {
  if (reasoning === undefined) return undefined;
  if (reasoning.effort !== undefined) return resolveReasoningEffortV3(reasoning.effort, declared, REASONING_EFFORTS_V3);
  const budget = reasoning.budgetTokens;
  if (budget === undefined) return undefined;
  if (budget < 1024) return 'minimal';
  if (budget < 8192) return 'low';
  if (budget < 24_576) return 'medium';
  return 'high';
}
