import type { ChatTaskV4, ReasoningEffortV3 } from '@tokenforge/model-protocol';
import { resolveReasoningEffortV3 } from '../../codec-kit/index.js';
import { encodeAnthropicOutputBudget } from './encode-output-budget.js';
import type { AnthropicThinkingParam, AnthropicWireEffort } from './wire-request.js';

/** The levels `output_config.effort` takes. */
const WIRE_EFFORTS: readonly AnthropicWireEffort[] = ['low', 'medium', 'high', 'xhigh', 'max'];

/** `max_tokens`, `thinking` and the `output_config.effort` of a request. */
export interface AnthropicThinkingFields {
  readonly max_tokens: number;
  readonly thinking?: AnthropicThinkingParam;
  readonly effort?: AnthropicWireEffort;
}

/**
 * Derives `max_tokens`, `thinking` and `output_config.effort`.
 *
 * A target that declares its effort levels (`reasoningEfforts`) takes the effort as a level: the task's effort
 * mapped onto the declared levels Anthropic can express (`resolveReasoningEffortV3` over low … max) is sent as
 * `output_config.effort`; with `reasoning.adaptive` the thinking is `{type: "adaptive"}` (with the task's
 * `display`) and `max_tokens` is the task's or the default; otherwise the budget thinking of
 * `encodeAnthropicOutputBudget` goes with it. `none` on such a target sends no thinking and no effort. Without
 * declared levels, or with an explicit `budgetTokens`, `encodeAnthropicOutputBudget` alone decides, as before.
 */
export function encodeAnthropicThinking(
  task: Pick<ChatTaskV4, 'maxOutputTokens' | 'reasoning'>,
  defaultMaxTokens: number,
  reasoningEfforts?: readonly ReasoningEffortV3[],
): AnthropicThinkingFields {
  const reasoning = task.reasoning;
  if (reasoningEfforts === undefined || reasoning?.effort === undefined || reasoning.budgetTokens !== undefined) {
    return encodeAnthropicOutputBudget(task, defaultMaxTokens, reasoningEfforts);
  }
  if (reasoning.effort === 'none') return { max_tokens: task.maxOutputTokens ?? defaultMaxTokens };
  const effort = resolveReasoningEffortV3(reasoning.effort, reasoningEfforts, WIRE_EFFORTS);
  if (reasoning.adaptive === true) {
    return {
      max_tokens: task.maxOutputTokens ?? defaultMaxTokens,
      thinking: { type: 'adaptive', ...(reasoning.display === undefined ? {} : { display: reasoning.display }) },
      effort,
    };
  }
  return { ...encodeAnthropicOutputBudget(task, defaultMaxTokens, reasoningEfforts), effort };
}
