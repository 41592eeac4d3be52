import {
  ADAPTER_STREAM_TAKE_BUFFERED_V1,
  CodecErrorV1,
  planStructuredOutputV3,
  STRUCTURED_OUTPUT_TOOL_NAME_V3,
  type AdapterStreamPartV1,
  type AdapterTerminalOutcomeV4,
  type ChatOutputPartV4,
  type ChatTaskV4,
  type ProtocolCapabilityV3,
  type StructuredOutputStrategyV3,
  type TaskEnvelopeV4,
} from '@tokenforge/model-protocol';

/** A task as the family encoder receives it, and the strategy that shaped it (`undefined`: no schema was asked). */
export interface StructuredOutputEmulationV1 {
  /** The task to encode: the original for `native` or no schema, rewritten for `json-object` and `forced-tool`. */
  readonly task: TaskEnvelopeV4;
  /** The strategy applied. */
  readonly strategy: StructuredOutputStrategyV3 | undefined;
}

/** The system segment of the `json-object` strategy: the schema, as the only instruction it adds. */
export function structuredOutputInstruction(schema: Readonly<Record<string, unknown>>): string {
  return `Answer with a single JSON value that matches this JSON Schema, and nothing else:\n${JSON.stringify(schema)}`;
}

const TOOL_DESCRIPTION = 'Return the final answer as the arguments of this call.';

/**
 * Applies the structured-output strategy of `planStructuredOutputV3` to a chat task, for the family encoders (pure):
 * - `native`: the task unchanged (each family maps `responseFormat` to its own JSON-schema field);
 * - `json-object`: `responseFormat` without the schema (the dialect's JSON-object mode) and one more system
 *   segment, after the client's own, that carries the schema;
 * - `forced-tool`: no `responseFormat`; the schema becomes the input schema of the reserved tool
 *   `tokenforge_structured_output`, the only tool, and the tool choice forces it. The schema must describe an
 *   object (tool arguments are one); any other schema is refused. The answer is read back by
 *   {@link structuredOutputTerminal} and {@link structuredOutputParts}.
 *
 * A refused plan (the engine refuses it first) is a `CodecErrorV1` `unsupported-feature`.
 */
export function applyStructuredOutputStrategy(task: TaskEnvelopeV4, capability: ProtocolCapabilityV3): StructuredOutputEmulationV1 {
  if (task.kind !== 'chat') return { task, strategy: undefined };
  const plan = planStructuredOutputV3(task, capability);
  switch (plan.status) {
    case 'none':
      return { task, strategy: undefined };
    case 'refused':
      throw new CodecErrorV1('unsupported-feature', `the target cannot carry the response schema (${plan.reason})`, { path: 'responseFormat' });
    case 'planned':
      break;
    default: {
      const never: never = plan;
      return never;
    }
  }
  const { schema, strategy } = plan;
  if (strategy === 'native') return { task, strategy };
  const format = task.responseFormat as Extract<ChatTaskV4['responseFormat'], { type: 'json' }>;
  if (strategy === 'json-object') {
    const system = [...(task.system ?? []), { type: 'text' as const, text: structuredOutputInstruction(schema) }];
    return { task: { ...task, system, responseFormat: { type: 'json' } }, strategy };
  }
  if (schema.type !== 'object') {
    throw new CodecErrorV1('unsupported-feature', 'a forced-tool response schema must describe an object', { path: 'responseFormat.schema' });
  }
  const { responseFormat: _dropped, ...rest } = task;
  const tool = {
    name: STRUCTURED_OUTPUT_TOOL_NAME_V3,
    description: TOOL_DESCRIPTION,
    inputSchema: schema as Record<string, unknown>,
    ...(format.strict === undefined ? {} : { strict: format.strict }),
  };
  return { task: { ...rest, tools: [tool], toolChoice: { type: 'tool', toolName: STRUCTURED_OUTPUT_TOOL_NAME_V3 } }, strategy };
}

/**
 * The terminal of a `forced-tool` execution as the client asked for it: each call of the reserved tool becomes a
 * text part with its argument text, and a `tool-calls` finish becomes `stop` (the raw value stays as the provider
 * sent it). Any other terminal is returned unchanged.
 */
export function structuredOutputTerminal(outcome: AdapterTerminalOutcomeV4): AdapterTerminalOutcomeV4 {
  if (outcome.status !== 'completed' || outcome.result.kind !== 'chat') return outcome;
  const content = outcome.result.content;
  if (!content.some(isReservedCall)) return outcome;
  const mapped = content.map((part): ChatOutputPartV4 => (isReservedCall(part) ? { type: 'text', text: part.argumentsText } : part));
  const finishReason = outcome.finishReason;
  return {
    ...outcome,
    result: { ...outcome.result, content: mapped },
    ...(finishReason === undefined ? {} : { finishReason: finishReason.unified === 'tool-calls' ? { ...finishReason, unified: 'stop' } : finishReason }),
  };
}

function isReservedCall(part: ChatOutputPartV4): part is Extract<ChatOutputPartV4, { type: 'tool-call' }> {
  return part.type === 'tool-call' && part.toolName === STRUCTURED_OUTPUT_TOOL_NAME_V3;
}

/** Maps one part of a `forced-tool` stream; `reserved` holds the block indexes of the reserved tool's calls. */
function mapPart(part: AdapterStreamPartV1, reserved: Set<number>): AdapterStreamPartV1 {
  switch (part.type) {
    case 'tool-call-start':
      if (part.toolName !== STRUCTURED_OUTPUT_TOOL_NAME_V3) return part;
      reserved.add(part.index);
      return { type: 'text-start', index: part.index };
    case 'tool-call-delta':
      return reserved.has(part.index) ? { type: 'text-delta', index: part.index, delta: part.delta } : part;
    case 'tool-call-end':
      return reserved.has(part.index) ? { type: 'text-end', index: part.index } : part;
    case 'terminal':
      return { type: 'terminal', outcome: structuredOutputTerminal(part.outcome) };
    default:
      return part;
  }
}

/**
 * The parts of a `forced-tool` stream as the client asked for them: the reserved tool's call streams as a text
 * block (its argument deltas become text deltas, at the same index), and the terminal goes through
 * {@link structuredOutputTerminal}. Returning, aborting and the kit's take-buffered fast path pass through.
 */
export function structuredOutputParts(parts: AsyncIterable<AdapterStreamPartV1>): AsyncIterable<AdapterStreamPartV1> {
  return {
    [Symbol.asyncIterator]: () => {
      const inner = parts[Symbol.asyncIterator]();
      const reserved = new Set<number>();
      const map = (step: IteratorResult<AdapterStreamPartV1>): IteratorResult<AdapterStreamPartV1> =>
        step.done === true ? step : { done: false, value: mapPart(step.value, reserved) };
      const iterator: AsyncIterator<AdapterStreamPartV1> & { [ADAPTER_STREAM_TAKE_BUFFERED_V1]?: () => AdapterStreamPartV1 | undefined } = {
        next: () => inner.next().then(map),
        return: async (value?: unknown) => (inner.return === undefined ? { done: true, value: undefined } : inner.return(value)),
      };
      const take = (inner as { [ADAPTER_STREAM_TAKE_BUFFERED_V1]?: () => AdapterStreamPartV1 | undefined })[ADAPTER_STREAM_TAKE_BUFFERED_V1];
      if (typeof take === 'function') {
        iterator[ADAPTER_STREAM_TAKE_BUFFERED_V1] = () => {
          const part = take.call(inner);
          return part === undefined ? undefined : mapPart(part, reserved);
        };
      }
      return iterator;
    },
  };
}
