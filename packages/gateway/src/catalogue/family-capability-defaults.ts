import { protocolCapabilityFromV2, type ProtocolCapabilityV2, type ProtocolCapabilityV3, type ProtocolFamily, type TaskKindV2, type TaskKindV3 } from '@tokenforge/model-protocol';
import type { GatewayTargetV1 } from './gateway-catalogue-v1.js';

type CapabilityDefaults = Omit<ProtocolCapabilityV2, 'protocolFamily'>;

const CHAT: CapabilityDefaults = { executionMode: 'stream-capable', taskKinds: ['chat'], tools: true, imageInput: true, reasoning: true, structuredOutput: true };

/**
 * What a target of each builtin family can do unless its catalogue entry says otherwise. A family not listed
 * here must spell out `capability.taskKinds` in the catalogue (and is then taken as sync).
 */
export const FAMILY_CAPABILITY_DEFAULTS: Readonly<Record<string, CapabilityDefaults>> = {
  'openai-chat/v1': CHAT,
  'openai-responses/v1': CHAT,
  'anthropic-messages/v1': CHAT,
  'gemini-generate-content/v1': CHAT,
  'openai-embeddings/v1': { executionMode: 'sync', taskKinds: ['embedding'] },
  'openai-images/v1': { executionMode: 'sync', taskKinds: ['image-generation', 'image-edit'], maxPreparedMediaBytes: 16 * 1024 * 1024 },
  'cohere-rerank/v1': { executionMode: 'sync', taskKinds: ['rerank'] },
  'kling-video/v1': { executionMode: 'async-job', taskKinds: ['video-generation'] },
  'dashscope-tasks/v1': { executionMode: 'async-job', taskKinds: ['video-generation', 'image-generation'] },
  'agent-cli/v1': { executionMode: 'stream-capable', taskKinds: ['chat'], tools: false, reasoning: true },
};

/**
 * The capability of a catalogue target: the family's defaults with the target's overrides on top. It stays V2
 * (which the engine reads as V3 itself) unless the override says what only V3 can say: a structured-output mode
 * (the V2 facts are then read as V3 and the mode replaces the boolean), a `token-count` task kind (the declared
 * task kinds replace the family's on the V3 reading) or an agent-era fact (`hostedTools`, `parallelToolCalls`,
 * `contextManagement`, `reasoningEfforts`, `forcedToolChoice`, `forcedToolChoiceWithReasoning`, added to the V3
 * reading).
 */
export function capabilityOfTarget(target: GatewayTargetV1): ProtocolCapabilityV2 | ProtocolCapabilityV3 {
  const defaults = FAMILY_CAPABILITY_DEFAULTS[target.family] ?? { executionMode: 'sync', taskKinds: v2TaskKinds(target.capability?.taskKinds) ?? ['chat'] };
  const declaredKinds = target.capability?.taskKinds;
  const counting = declaredKinds?.includes('token-count') === true;
  const structuredOutput = target.capability?.structuredOutput;
  const v3Facts = Object.fromEntries(
    Object.entries(target.capability ?? {}).filter(([key, value]) => value !== undefined && V3_ONLY_FACTS.has(key)),
  ) as Partial<ProtocolCapabilityV3>;
  const overrides = Object.fromEntries(
    Object.entries(target.capability ?? {}).filter(
      ([key, value]) => value !== undefined && key !== 'structuredOutput' && !V3_ONLY_FACTS.has(key) && !(counting && key === 'taskKinds'),
    ),
  );
  const v2: ProtocolCapabilityV2 = {
    ...defaults,
    ...overrides,
    ...(typeof structuredOutput === 'boolean' ? { structuredOutput } : {}),
    protocolFamily: target.family as ProtocolFamily,
  };
  const mode = typeof structuredOutput === 'string' ? structuredOutput : undefined;
  const agentFacts = Object.keys(v3Facts).length > 0;
  if (!counting && mode === undefined && !agentFacts) return v2;
  const v3 = { ...protocolCapabilityFromV2(mode === undefined ? v2 : { ...v2, structuredOutput: false }), ...v3Facts };
  const withMode = mode === undefined || mode === 'none' ? v3 : { ...v3, structuredOutput: mode };
  return counting && declaredKinds !== undefined ? { ...withMode, taskKinds: [...declaredKinds] } : withMode;
}

/** Capability facts only V3 can say; declaring one makes the target's capability V3. */
const V3_ONLY_FACTS: ReadonlySet<string> = new Set(['hostedTools', 'parallelToolCalls', 'contextManagement', 'reasoningEfforts', 'forcedToolChoice', 'forcedToolChoiceWithReasoning']);

/** The V2 kinds of a declared list (`undefined` when none is left). */
function v2TaskKinds(kinds: readonly TaskKindV3[] | undefined): TaskKindV2[] | undefined {
  const left = kinds?.filter((kind): kind is TaskKindV2 => kind !== 'token-count');
  return left === undefined || left.length === 0 ? undefined : left;
}
