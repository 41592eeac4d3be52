import { protocolCapabilityFromV2, type ProtocolCapabilityV2, type ProtocolCapabilityV3, type ProtocolFamily, type TaskEnvelopeV4 } from '@tokenforge/model-protocol';
import type { FixtureChunkFramingV1 } from '@tokenforge/provider-adapters';

/**
 * How each builtin streaming dialect frames its stream, for replaying recorded `*.chunks.txt` files. A dialect fact
 * of the replay tool only (the adapters never read it); other families need `--framing`.
 */
export const DEFAULT_CHUNK_FRAMING: Readonly<Partial<Record<ProtocolFamily, FixtureChunkFramingV1>>> = {
  'openai-chat/v1': 'openai-chat',
  'openai-responses/v1': 'typed-sse',
  'anthropic-messages/v1': 'typed-sse',
  'gemini-generate-content/v1': 'gemini-sse',
};

/** Input of {@link defaultReplayCapability}. */
export interface DefaultReplayCapabilityInput {
  readonly family: ProtocolFamily;
  /** Whether the suite declares the family async. */
  readonly async: boolean;
  readonly task: TaskEnvelopeV4;
  /** Dimensions of the embedding space (embedding tasks). */
  readonly embeddingDimensions?: number;
}

/**
 * The capability replay gives a target when no `--capability` file is given: the family, `async-job` for async
 * families and `stream-capable` otherwise, the task's own kind, every input feature switched on (tools, image,
 * document and audio input, reasoning, structured output; callback URLs for async families), and for embedding
 * tasks a space `replay` whose default dimensions are `--embedding-dimensions` or the task's `dimensions`.
 * Replay debugs decoding, so the capability admits whatever the task asks for: a chat task that carries a V3 field
 * (context management, a parallel-tool-calls switch, hosted tools, a forced tool choice while reasoning) gets the V3
 * capability with each of those facts declared, as does a `token-count` task, which only V3 can declare.
 *
 * @returns the capability, or a message when an embedding task leaves the dimensions unknown.
 */
export function defaultReplayCapability(input: DefaultReplayCapabilityInput): ProtocolCapabilityV2 | ProtocolCapabilityV3 | string {
  const { task } = input;
  let embedding: ProtocolCapabilityV2['embedding'];
  if (task.kind === 'embedding') {
    const dimensions = input.embeddingDimensions ?? task.dimensions;
    if (dimensions === undefined) return 'an embedding task without dimensions needs --embedding-dimensions';
    embedding = { spaceId: 'replay', defaultDimensions: dimensions };
  }
  const capability: ProtocolCapabilityV2 = {
    protocolFamily: input.family,
    executionMode: input.async ? 'async-job' : 'stream-capable',
    taskKinds: [task.kind === 'token-count' ? 'chat' : task.kind],
    tools: true,
    imageInput: true,
    documentInput: true,
    audioInput: true,
    reasoning: true,
    structuredOutput: true,
    ...(input.async ? { callbackUrl: true } : {}),
    ...(embedding === undefined ? {} : { embedding }),
  };
  if (task.kind === 'token-count') return { ...protocolCapabilityFromV2(capability), taskKinds: ['token-count'] };
  if (task.kind !== 'chat') return capability;
  const agentFacts: Partial<ProtocolCapabilityV3> = {
    ...(task.contextManagement === undefined ? {} : { contextManagement: true }),
    ...(task.parallelToolCalls === undefined ? {} : { parallelToolCalls: true }),
    ...(task.hostedTools === undefined || task.hostedTools.length === 0 ? {} : { hostedTools: [...new Set(task.hostedTools.map((tool) => tool.kind))] }),
    ...(task.reasoning === undefined ? {} : { forcedToolChoiceWithReasoning: true }),
  };
  return Object.keys(agentFacts).length === 0 ? capability : { ...protocolCapabilityFromV2(capability), ...agentFacts };
}
