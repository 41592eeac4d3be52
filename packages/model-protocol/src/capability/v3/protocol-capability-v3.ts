import { z } from 'zod';
import { protocolFamilySchema } from '../../protocol-family/protocol-family.js';
import { HOSTED_TOOL_KINDS_V3, reasoningEffortV3Schema, taskKindV3Schema } from '../../task/v3/task-envelope-v3.js';
import { EXECUTION_MODES_V2, embeddingSpaceV2Schema, type ProtocolCapabilityV2 } from '../v2/protocol-capability-v2.js';

/**
 * How a target produces JSON that matches a requested schema:
 * - `native-json-schema`: the provider enforces the schema itself;
 * - `json-object`: the provider guarantees JSON but not the schema (the schema travels in the instructions);
 * - `forced-tool`: no JSON mode, but the target can force a tool call, whose arguments carry the answer;
 * - `none`: no structured output (a schema request is refused).
 */
export const STRUCTURED_OUTPUT_SUPPORT_V3 = ['native-json-schema', 'json-object', 'forced-tool', 'none'] as const;
/** One of {@link STRUCTURED_OUTPUT_SUPPORT_V3}. */
export type StructuredOutputSupportV3 = (typeof STRUCTURED_OUTPUT_SUPPORT_V3)[number];
export const structuredOutputSupportV3Schema = z.enum(STRUCTURED_OUTPUT_SUPPORT_V3);

/**
 * What a resolved target can do, V3 revision. Every boolean that is absent means "not supported"; an absent
 * `structuredOutput` means `none`. A V2 capability is read as V3 by {@link protocolCapabilityFromV2}.
 */
export const protocolCapabilityV3Schema = z.strictObject({
  /** The wire dialect the target speaks; the dispatch key. */
  protocolFamily: protocolFamilySchema,
  /** How the family executes. */
  executionMode: z.enum(EXECUTION_MODES_V2),
  /** Task kinds the target accepts; at least one, no repeats. `token-count` needs the provider's counting endpoint. */
  taskKinds: z.array(taskKindV3Schema).min(1),
  /** Tool definitions and tool choice. */
  tools: z.boolean().optional(),
  /** The target can force a tool call (`toolChoice` `required` or a named tool). */
  forcedToolChoice: z.boolean().optional(),
  /**
   * The target still forces a tool call while reasoning is on. Some providers refuse a forced tool choice with
   * extended thinking; absent, the `forced-tool` structured-output strategy is refused for a task that reasons.
   */
  forcedToolChoiceWithReasoning: z.boolean().optional(),
  /** The target honours a switch for several tool calls in one turn (`parallelToolCalls`). */
  parallelToolCalls: z.boolean().optional(),
  /** Hosted tool kinds the provider runs for this target. */
  hostedTools: z.array(z.enum(HOSTED_TOOL_KINDS_V3)).optional(),
  /** Image parts in chat input. */
  imageInput: z.boolean().optional(),
  /** Document (PDF) parts in chat input. */
  documentInput: z.boolean().optional(),
  /** Audio parts in chat input. */
  audioInput: z.boolean().optional(),
  /** Reasoning controls and reasoning replay. */
  reasoning: z.boolean().optional(),
  /**
   * The effort levels the target takes natively, as levels on the wire. Absent: the family's documented
   * mapping applies (levels for dialects that only take levels, a token budget for the others). A requested
   * level outside the list is mapped with `mapReasoningEffortV3`.
   */
  reasoningEfforts: z.array(reasoningEffortV3Schema).min(1).optional(),
  /** How the target produces schema-conforming JSON (absent: `none`). */
  structuredOutput: structuredOutputSupportV3Schema.optional(),
  /** Server-side context management (`contextManagement` of chat tasks). */
  contextManagement: z.boolean().optional(),
  /** A provider callback URL for async jobs. */
  callbackUrl: z.boolean().optional(),
  /** The embedding space, required when `taskKinds` holds `embedding`. */
  embedding: embeddingSpaceV2Schema.optional(),
  /** Largest total bytes of prepared media the target accepts (image edits). */
  maxPreparedMediaBytes: z.number().int().positive().optional(),
});
export type ProtocolCapabilityV3 = z.infer<typeof protocolCapabilityV3Schema>;

/**
 * Reads a V2 capability as V3: `structuredOutput: true` is `native-json-schema`; a target with `tools` could
 * always be forced (V2 had no separate fact), so it gets `forcedToolChoice`. Nothing else changes.
 */
export function protocolCapabilityFromV2(capability: ProtocolCapabilityV2): ProtocolCapabilityV3 {
  const { structuredOutput, ...rest } = capability;
  const out: ProtocolCapabilityV3 = { ...rest };
  if (capability.tools === true) out.forcedToolChoice = true;
  if (structuredOutput === true) out.structuredOutput = 'native-json-schema';
  return out;
}

/** Whether a value is a V3 capability rather than a V2 one (the only V2-only shape is a boolean `structuredOutput`). */
export function isProtocolCapabilityV2(capability: ProtocolCapabilityV2 | ProtocolCapabilityV3): capability is ProtocolCapabilityV2 {
  return typeof capability.structuredOutput === 'boolean';
}
