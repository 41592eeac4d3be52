import { CodecErrorV1, type ChatTaskV4, type ReasoningEffortV3 } from '@tokenforge/model-protocol';
import { resolveReasoningEffortV3 } from '../../codec-kit/index.js';
import type { AnthropicThinkingParam } from './wire-request.js';

/**
 * `max_tokens` sent when the task sets no `maxOutputTokens`. The Messages API requires `max_tokens`; rather
 * than refuse tasks from dialects where it is optional, the family sends this default (overridable per
 * adapter factory). 4,096 fits the output limit of every Messages model.
 */
export const ANTHROPIC_DEFAULT_MAX_TOKENS = 4096;

/** The smallest thinking budget the API accepts. */
export const ANTHROPIC_MIN_THINKING_BUDGET = 1024;

/**
 * The thinking budget each qualitative effort maps to. Chosen so that budget plus the default answer room
 * (`ANTHROPIC_DEFAULT_MAX_TOKENS`) stays within the 32,000-token output limit of the smallest
 * thinking-capable model.
 */
export const ANTHROPIC_EFFORT_THINKING_BUDGETS: Readonly<Record<AnthropicBudgetEffort, number>> = {
  minimal: 1024,
  low: 2048,
  medium: 8192,
  high: 16_384,
};

/** The effort levels with a thinking budget of their own. */
type AnthropicBudgetEffort = 'minimal' | 'low' | 'medium' | 'high';
const BUDGET_EFFORTS: readonly AnthropicBudgetEffort[] = ['minimal', 'low', 'medium', 'high'];

/** `max_tokens` and, when reasoning is asked for, `thinking`. */
export interface AnthropicOutputBudget {
  readonly max_tokens: number;
  readonly thinking?: AnthropicThinkingParam;
}

/**
 * Derives `max_tokens` and `thinking` from the task.
 *
 * - The thinking budget is `reasoning.budgetTokens` when set, else the effort's entry in
 *   {@link ANTHROPIC_EFFORT_THINKING_BUDGETS}, the effort first mapped onto the levels the target declares among
 *   the table's (`resolveReasoningEffortV3`; `none` takes `minimal`'s budget, `xhigh` and `max` `high`'s); a
 *   budget of 0, or neither field, sends no `thinking`.
 *   `reasoning.includeReasoning` has no Anthropic counterpart: with thinking on, Anthropic always returns it.
 * - An explicit budget below {@link ANTHROPIC_MIN_THINKING_BUDGET} is raised to it (the API minimum).
 * - With `maxOutputTokens`, `max_tokens` is exactly that, and the budget, which Anthropic counts inside
 *   `max_tokens`, must stay below it: an explicit budget that does not is refused; an effort budget is
 *   lowered to `max_tokens - 1`, and refused if that falls under the minimum.
 * - Without `maxOutputTokens`, `max_tokens` is the default plus the budget, so thinking never eats the
 *   answer's room.
 *
 * @throws {CodecErrorV1} `invalid-request` when the budget cannot fit below `max_tokens`.
 */
export function encodeAnthropicOutputBudget(
  task: Pick<ChatTaskV4, 'maxOutputTokens' | 'reasoning'>,
  defaultMaxTokens: number,
  reasoningEfforts?: readonly ReasoningEffortV3[],
): AnthropicOutputBudget {
  const explicit = task.reasoning?.budgetTokens;
  const effort = task.reasoning?.effort;
  const requested =
    explicit ?? (effort === undefined ? undefined : ANTHROPIC_EFFORT_THINKING_BUDGETS[resolveReasoningEffortV3(effort, reasoningEfforts, BUDGET_EFFORTS)]);
  if (requested === undefined || requested === 0) return { max_tokens: task.maxOutputTokens ?? defaultMaxTokens };
  let budget = Math.max(requested, ANTHROPIC_MIN_THINKING_BUDGET);
  if (task.maxOutputTokens === undefined) {
    return { max_tokens: defaultMaxTokens + budget, thinking: { type: 'enabled', budget_tokens: budget } };
  }
  const maxTokens = task.maxOutputTokens;
  if (budget >= maxTokens) {
    if (explicit !== undefined) {
      throw new CodecErrorV1('invalid-request', 'reasoning budget must be below max output tokens', { path: 'reasoning.budgetTokens' });
    }
    budget = maxTokens - 1;
    if (budget < ANTHROPIC_MIN_THINKING_BUDGET) {
      throw new CodecErrorV1('invalid-request', 'max output tokens leave no room for the minimum reasoning budget', {
        path: 'maxOutputTokens',
      });
    }
  }
  return { max_tokens: maxTokens, thinking: { type: 'enabled', budget_tokens: budget } };
}
