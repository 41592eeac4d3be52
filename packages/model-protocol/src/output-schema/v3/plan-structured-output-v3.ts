import type { ProtocolCapabilityV3 } from '../../capability/v3/protocol-capability-v3.js';
import type { ChatTaskV3 } from '../../task/v3/task-envelope-v3.js';

/**
 * The name of the tool that carries the answer under the `forced-tool` strategy (contract revision V3). A task
 * may not declare a tool of this name: its calls are read back as the answer text.
 */
export const STRUCTURED_OUTPUT_TOOL_NAME_V3 = 'tokenforge_structured_output';

/**
 * How a schema request is carried to the target:
 * - `native`: the dialect's own JSON-schema field (the provider enforces the schema);
 * - `json-object`: the dialect's JSON-object mode, with the schema in an extra system segment;
 * - `forced-tool`: the schema becomes the parameters of {@link STRUCTURED_OUTPUT_TOOL_NAME_V3}, whose call is forced
 *   and read back as text.
 */
export const STRUCTURED_OUTPUT_STRATEGIES_V3 = ['native', 'json-object', 'forced-tool'] as const;
/** One of {@link STRUCTURED_OUTPUT_STRATEGIES_V3}. */
export type StructuredOutputStrategyV3 = (typeof STRUCTURED_OUTPUT_STRATEGIES_V3)[number];

/**
 * Why a schema request cannot be served by a target:
 * - `unsupported`: the target declares no structured output (`structuredOutput` absent or `none`), or declares
 *   `forced-tool` without `forcedToolChoice`;
 * - `tools-conflict`: `forced-tool` would replace the task's own tools or tool choice (a `forced-tool` target has
 *   no JSON mode to fall back to, by the definition of that mode);
 * - `reasoning-conflict`: `forced-tool` with reasoning turned on, and the target does not declare
 *   `forcedToolChoiceWithReasoning`.
 */
export type StructuredOutputRefusalV3 = 'unsupported' | 'tools-conflict' | 'reasoning-conflict';

/** What {@link planStructuredOutputV3} decided. */
export type StructuredOutputPlanV3 =
  /** The task asks for no schema: nothing to plan, nothing to check. */
  | { readonly status: 'none' }
  | {
      readonly status: 'planned';
      /** The strategy the encoders apply. */
      readonly strategy: StructuredOutputStrategyV3;
      /** The schema the answer must match. */
      readonly schema: Readonly<Record<string, unknown>>;
    }
  | {
      readonly status: 'refused';
      /** Why. */
      readonly reason: StructuredOutputRefusalV3;
    };

/** The task members the plan reads. */
export type StructuredOutputTaskV3 = Pick<ChatTaskV3, 'responseFormat' | 'tools' | 'hostedTools' | 'toolChoice' | 'reasoning'>;

const NONE: StructuredOutputPlanV3 = Object.freeze({ status: 'none' });

/** Whether the task turns reasoning on (effort `none` and a zero budget turn it off). */
function reasoningRequested(task: StructuredOutputTaskV3): boolean {
  const reasoning = task.reasoning;
  return reasoning !== undefined && reasoning.effort !== 'none' && reasoning.budgetTokens !== 0;
}

/**
 * Decides how a chat task's JSON-schema request reaches a target, from the target's declared facts only (never a
 * provider or model name). Pure and cheap: a task without a schema is `none` at once. The engine refuses a
 * `refused` plan before any transport work; the encoders apply a `planned` one; a host may report the strategy.
 */
export function planStructuredOutputV3(task: StructuredOutputTaskV3, capability: ProtocolCapabilityV3): StructuredOutputPlanV3 {
  const format = task.responseFormat;
  if (format === undefined || format.type !== 'json' || format.schema === undefined) return NONE;
  const schema = format.schema;
  switch (capability.structuredOutput ?? 'none') {
    case 'native-json-schema':
      return { status: 'planned', strategy: 'native', schema };
    case 'json-object':
      return { status: 'planned', strategy: 'json-object', schema };
    case 'forced-tool': {
      if (capability.forcedToolChoice !== true || capability.tools !== true) return { status: 'refused', reason: 'unsupported' };
      const ownTools = (task.tools?.length ?? 0) > 0 || (task.hostedTools?.length ?? 0) > 0 || task.toolChoice !== undefined;
      if (ownTools) return { status: 'refused', reason: 'tools-conflict' };
      if (reasoningRequested(task) && capability.forcedToolChoiceWithReasoning !== true) return { status: 'refused', reason: 'reasoning-conflict' };
      return { status: 'planned', strategy: 'forced-tool', schema };
    }
    default:
      return { status: 'refused', reason: 'unsupported' };
  }
}
