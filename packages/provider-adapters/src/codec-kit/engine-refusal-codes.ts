/**
 * The protocol engine's codes for a task that needs something the target does not declare (strings, so that
 * adapters do not import the engine): the general `CAPABILITY_UNSUPPORTED` and the V3 codes naming one fact.
 * Egress codecs answer all of them as the client's request the selected model cannot serve.
 */
export const ENGINE_CAPABILITY_REFUSAL_CODES = Object.freeze([
  'PROTOCOL_ENGINE_CAPABILITY_UNSUPPORTED',
  'PROTOCOL_ENGINE_FORCED_TOOL_CHOICE_UNSUPPORTED',
  'PROTOCOL_ENGINE_PARALLEL_TOOL_CALLS_UNSUPPORTED',
  'PROTOCOL_ENGINE_HOSTED_TOOL_UNSUPPORTED',
  'PROTOCOL_ENGINE_CONTEXT_MANAGEMENT_UNSUPPORTED',
  'PROTOCOL_ENGINE_STRUCTURED_OUTPUT_CONFLICT',
] as const);

/** Every code of {@link ENGINE_CAPABILITY_REFUSAL_CODES} mapped to the same answer. */
export function forEngineCapabilityRefusals<T>(answer: T): Record<(typeof ENGINE_CAPABILITY_REFUSAL_CODES)[number], T> {
  return Object.fromEntries(ENGINE_CAPABILITY_REFUSAL_CODES.map((code) => [code, answer])) as Record<(typeof ENGINE_CAPABILITY_REFUSAL_CODES)[number], T>;
}
