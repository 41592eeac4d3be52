import {
  isProtocolCapabilityV2,
  planStructuredOutputV3,
  protocolCapabilityFromV2,
  type ProtocolCapabilityV2,
  type ProtocolCapabilityV3,
  type StructuredOutputStrategyV3,
  type TaskEnvelopeV4,
} from '@tokenforge/model-protocol';

/**
 * The response header that says how a JSON-schema request was carried to the target that answered: `native` (the
 * provider's own schema field), `json-object` (JSON mode plus the schema in an added system segment) or
 * `forced-tool` (a forced call of a reserved tool). Absent when the request asked for no schema.
 */
export const STRUCTURED_OUTPUT_HEADER = 'x-tokenforge-structured-output';

/** The strategy the engine's adapters apply for this task on this target (the same plan), or `undefined`. */
export function structuredOutputStrategyOf(task: TaskEnvelopeV4, capability: ProtocolCapabilityV2 | ProtocolCapabilityV3): StructuredOutputStrategyV3 | undefined {
  if (task.kind !== 'chat' || task.responseFormat?.type !== 'json' || task.responseFormat.schema === undefined) return undefined;
  const plan = planStructuredOutputV3(task, isProtocolCapabilityV2(capability) ? protocolCapabilityFromV2(capability) : capability);
  return plan.status === 'planned' ? plan.strategy : undefined;
}
