import type { ProtocolCapabilityV2, ProtocolCapabilityV3, ProviderDispatchTargetV3 } from '@tokenforge/model-protocol';
import { describe, expect, it } from 'vitest';
import { createProtocolEngineTargetBindingV1 } from '../../binding/v1/create-protocol-engine-target-binding-v1.js';
import { isProtocolEngineErrorV1 } from '../../error/v1/protocol-engine-error-v1.js';
import {
  CHAT_FAMILY,
  SECRET_CONNECTION,
  SECRET_MODEL,
  SECRET_PROVIDER,
  chatCapability,
  chatTask,
  collect,
  completedChat,
  countingBinding,
  fakeTransport,
  makeTarget,
  newSignal,
  registryOf,
  respondWith,
  streamFactory,
  syncFactory,
  terminalPart,
  textBlock,
} from '../../test-support/fakes.js';
import { createProtocolEngineV1 } from './create-protocol-engine-v1.js';

const weatherTool = { name: 'weather', inputSchema: { type: 'object' } };

function v3Target(capability: Partial<ProtocolCapabilityV3> = {}): ProviderDispatchTargetV3 {
  return {
    provider: SECRET_PROVIDER,
    providerModel: SECRET_MODEL,
    connectionRef: SECRET_CONNECTION,
    capability: { protocolFamily: CHAT_FAMILY, executionMode: 'stream-capable', taskKinds: ['chat'], ...capability },
  };
}

/** Runs one sync execution and returns what the adapter received, or the engine error code. */
async function run(target: unknown, task: unknown, terminal: unknown = completedChat()) {
  const factory = syncFactory(respondWith(terminal));
  const engine = createProtocolEngineV1({ registry: registryOf([factory]) });
  const { binding, calls } = countingBinding(target as ProviderDispatchTargetV3);
  try {
    const execution = await engine.execute({ binding, task: task as never, signal: newSignal() });
    return { execution, input: factory.inputs[0], calls: calls.count, code: undefined };
  } catch (error) {
    if (!isProtocolEngineErrorV1(error)) throw error;
    return { execution: undefined, input: factory.inputs[0], calls: calls.count, code: error.code };
  }
}

const v3ChatTask = {
  kind: 'chat',
  stream: false,
  messages: [
    { role: 'user', content: [{ type: 'text', text: 'weather?' }] },
    { role: 'assistant', content: [{ type: 'tool-call', toolCallId: 'c1', toolName: 'weather', argumentsText: '{}', cacheControl: { type: 'ephemeral' } }] },
    { role: 'tool', content: [{ type: 'tool-result', toolCallId: 'c1', toolName: 'weather', content: [{ type: 'text', text: 'sunny' }], cacheControl: { type: 'ephemeral' } }] },
  ],
  tools: [{ ...weatherTool, deferLoading: true, eagerInputStreaming: true }],
  toolChoice: { type: 'required' },
  hostedTools: [{ kind: 'web-search', maxUses: 3, allowedDomains: ['example.com'] }],
  parallelToolCalls: false,
  reasoning: { effort: 'max', adaptive: true, display: 'omitted' },
  verbosity: 'low',
  contextManagement: { clearThinking: { keep: 2 } },
  endUserId: 'user-42',
  store: false,
} as const;

const fullV3Capability: Partial<ProtocolCapabilityV3> = {
  tools: true,
  forcedToolChoice: true,
  parallelToolCalls: true,
  hostedTools: ['web-search'],
  reasoning: true,
  reasoningEfforts: ['low', 'medium', 'high', 'xhigh', 'max'],
  contextManagement: true,
  structuredOutput: 'json-object',
};

describe('engine with V3 contracts', () => {
  it('passes a V3 chat task with the new members to the adapter intact, with the V3 capability', async () => {
    const { input, code } = await run(v3Target(fullV3Capability), v3ChatTask);
    expect(code).toBeUndefined();
    expect(input?.task).toEqual(v3ChatTask);
    expect(input?.target.capability).toEqual(v3Target(fullV3Capability).capability);
  });

  it('still serves a V2 target: its capability reaches the adapter in V3 form and tools can still be forced', async () => {
    const v2: ProtocolCapabilityV2 = chatCapability({ tools: true, structuredOutput: true, reasoning: true });
    const task = chatTask({ tools: [weatherTool], toolChoice: { type: 'required' } });
    const { input, code, execution } = await run(makeTarget(v2), task);
    expect(code).toBeUndefined();
    expect(execution?.kind).toBe('response');
    expect(input?.target.capability).toEqual({ ...v2, structuredOutput: 'native-json-schema', forcedToolChoice: true });
    expect(input?.task).toEqual(task);
  });

  it('reads a capability that is valid V2 (no V3-only member) as V2, so tools alone still allow forcing', async () => {
    const task = chatTask({ tools: [weatherTool], toolChoice: { type: 'required' } });
    expect((await run(v3Target({ tools: true }), task)).code).toBeUndefined();
    expect((await run(v3Target({ tools: true, forcedToolChoice: false }), task)).code).toBe('PROTOCOL_ENGINE_FORCED_TOOL_CHOICE_UNSUPPORTED');
    expect((await run(v3Target({ tools: true, structuredOutput: 'none' }), task)).code).toBe('PROTOCOL_ENGINE_FORCED_TOOL_CHOICE_UNSUPPORTED');
  });

  it('names the V2 schema for a boolean structuredOutput and the V3 schema otherwise when a target is malformed', async () => {
    const refusal = (target: unknown) => {
      try {
        createProtocolEngineTargetBindingV1({ target: target as ProviderDispatchTargetV3, bindTransport: () => fakeTransport() });
      } catch (error) {
        return isProtocolEngineErrorV1(error) ? `${error.code} ${error.message}` : 'not an engine error';
      }
      return 'accepted';
    };
    expect(refusal(v3Target({ structuredOutput: true, parallelToolCalls: true } as never))).toBe(
      'PROTOCOL_ENGINE_INPUT_INVALID the target is not a valid ProviderDispatchTargetV2 at capability',
    );
    expect(refusal(v3Target({ structuredOutput: 'sometimes' as never }))).toBe(
      'PROTOCOL_ENGINE_INPUT_INVALID the target is not a valid ProviderDispatchTargetV3 at capability.structuredOutput',
    );
  });

  it('keeps the host target as declared on the binding: a V2 capability stays V2', async () => {
    const v2 = chatCapability({ structuredOutput: false, tools: true });
    const { binding } = countingBinding(makeTarget(v2));
    expect(binding.target.capability).toEqual(v2);
  });

  it('refuses a V2 structured-output request on a V2 target without it, and a V3 target declaring none', async () => {
    const task = chatTask({ responseFormat: { type: 'json', schema: { type: 'object' } } });
    expect((await run(makeTarget(chatCapability({ structuredOutput: false })), task)).code).toBe('PROTOCOL_ENGINE_CAPABILITY_UNSUPPORTED');
    expect((await run(v3Target({ structuredOutput: 'none' }), task)).code).toBe('PROTOCOL_ENGINE_CAPABILITY_UNSUPPORTED');
    expect((await run(v3Target({}), task)).code).toBe('PROTOCOL_ENGINE_CAPABILITY_UNSUPPORTED');
    for (const support of ['native-json-schema', 'json-object', 'forced-tool'] as const) {
      // forced-tool needs a target that can force a tool call.
      const facts = support === 'forced-tool' ? { tools: true, forcedToolChoice: true } : {};
      expect((await run(v3Target({ structuredOutput: support, ...facts }), task)).code).toBeUndefined();
    }
  });

  const refusals: [string, Partial<ProtocolCapabilityV3>, Record<string, unknown>, string][] = [
    ['a required tool choice without forcedToolChoice', { tools: true, forcedToolChoice: false }, { tools: [weatherTool], toolChoice: { type: 'required' } }, 'PROTOCOL_ENGINE_FORCED_TOOL_CHOICE_UNSUPPORTED'],
    ['a named tool choice without forcedToolChoice', { tools: true, forcedToolChoice: false }, { tools: [weatherTool], toolChoice: { type: 'tool', toolName: 'weather' } }, 'PROTOCOL_ENGINE_FORCED_TOOL_CHOICE_UNSUPPORTED'],
    ['parallelToolCalls without the switch', { tools: true }, { tools: [weatherTool], parallelToolCalls: true }, 'PROTOCOL_ENGINE_PARALLEL_TOOL_CALLS_UNSUPPORTED'],
    ['a hosted tool the target does not list', {}, { hostedTools: [{ kind: 'web-search' }] }, 'PROTOCOL_ENGINE_HOSTED_TOOL_UNSUPPORTED'],
    ['contextManagement without the capability', {}, { contextManagement: { clearToolUses: { keepToolUses: 2 } } }, 'PROTOCOL_ENGINE_CONTEXT_MANAGEMENT_UNSUPPORTED'],
    ['a token-count task on a target without the kind', {}, { kind: 'token-count', stream: undefined }, 'PROTOCOL_ENGINE_TARGET_TASK_MISMATCH'],
  ];
  for (const [name, capability, overrides, code] of refusals) {
    it(`refuses ${name} with ${code}, before the transport is bound`, async () => {
      const task: Record<string, unknown> = { ...chatTask(), ...overrides };
      if (task.kind === 'token-count') delete (task as { stream?: unknown }).stream;
      const result = await run(v3Target(capability), task);
      expect(result.code).toBe(code);
      expect(result.calls).toBe(0);
    });
  }

  it('accepts each of those requests once the target declares the fact, and auto / none tool choices without forcedToolChoice', async () => {
    const accepted: [Partial<ProtocolCapabilityV3>, Record<string, unknown>][] = [
      [{ tools: true, forcedToolChoice: true }, { tools: [weatherTool], toolChoice: { type: 'tool', toolName: 'weather' } }],
      [{ tools: true }, { tools: [weatherTool], toolChoice: { type: 'auto' } }],
      [{ tools: true }, { tools: [weatherTool], toolChoice: { type: 'none' } }],
      [{ tools: true, parallelToolCalls: true }, { tools: [weatherTool], parallelToolCalls: false }],
      [{ hostedTools: ['web-search'] }, { hostedTools: [{ kind: 'web-search' }] }],
      [{ contextManagement: true }, { contextManagement: { clearThinking: { keep: 'all' } } }],
    ];
    for (const [capability, overrides] of accepted) expect((await run(v3Target(capability), { ...chatTask(), ...overrides })).code).toBeUndefined();
  });

  it('runs a token-count task on a target that declares the kind and checks its tools and media like chat', async () => {
    const task = { kind: 'token-count', messages: [{ role: 'user', content: [{ type: 'text', text: 'count me' }] }] };
    const terminal = { status: 'completed', result: { kind: 'token-count', inputTokens: 7 } };
    const ok = await run(v3Target({ taskKinds: ['chat', 'token-count'] }), task, terminal);
    expect(ok.code).toBeUndefined();
    expect(ok.execution?.kind === 'response' ? ok.execution.terminal : undefined).toEqual(terminal);
    const withTools = { ...task, tools: [weatherTool] };
    expect((await run(v3Target({ taskKinds: ['token-count'] }), withTools, terminal)).code).toBe('PROTOCOL_ENGINE_CAPABILITY_UNSUPPORTED');
    const wrongKind = { status: 'completed', result: { kind: 'chat', content: [] } };
    expect((await run(v3Target({ taskKinds: ['token-count'] }), task, wrongKind)).code).toBe('PROTOCOL_ENGINE_ADAPTER_OUTPUT_INVALID');
  });

  it('accepts V3 terminals and metadata: usage details, cost, rate limits and the output-schema-mismatch failure', async () => {
    const completed = { ...completedChat(), usage: { inputTokens: 3, inputTokensByModality: { text: 3 }, serviceTier: 'flex' }, cost: { amountMicros: 12, currency: 'USD' } };
    expect((await run(v3Target(), chatTask(), completed)).execution).toMatchObject({ terminal: completed });
    const failed = { status: 'failed', failure: { code: 'output-schema-mismatch', retryable: false } };
    expect((await run(v3Target(), chatTask(), failed)).execution).toMatchObject({ terminal: failed });
    const factory = syncFactory(respondWith(completedChat(), { responseMetadata: { providerRequestId: 'r1', rateLimits: { requests: { remaining: 9 }, retryAfterMs: 10 } } }));
    const engine = createProtocolEngineV1({ registry: registryOf([factory]) });
    const execution = await engine.execute({ binding: countingBinding(v3Target()).binding, task: chatTask(), signal: newSignal() });
    expect(execution.responseMetadata).toEqual({ providerRequestId: 'r1', rateLimits: { requests: { remaining: 9 }, retryAfterMs: 10 } });
    const inconsistent = { ...completedChat(), usage: { inputTokens: 1, inputTokensByModality: { text: 2 } } };
    expect((await run(v3Target(), chatTask(), inconsistent)).code).toBe('PROTOCOL_ENGINE_ADAPTER_OUTPUT_INVALID');
  });
});

describe('engine stream with V3 usage', () => {
  async function streamOutcome(parts: readonly unknown[]): Promise<{ events: unknown[] } | { code: string }> {
    const factory = streamFactory(parts);
    const engine = createProtocolEngineV1({ registry: registryOf([factory]) });
    const execution = await engine.execute({ binding: countingBinding(v3Target()).binding, task: chatTask({ stream: true }), signal: newSignal() });
    if (execution.kind !== 'stream') throw new Error('expected a stream');
    try {
      return { events: await collect(execution.events) };
    } catch (error) {
      if (!isProtocolEngineErrorV1(error)) throw error;
      return { code: error.code };
    }
  }
  const done = terminalPart({ status: 'completed', result: { kind: 'chat', content: [{ type: 'text', text: 'Hi' }] } });
  const usage = (details: Record<string, unknown>) => ({ type: 'usage', usage: { inputTokens: 10, outputTokens: 5, ...details } });

  it('passes V3 usage snapshots whose details never decrease', async () => {
    const first = usage({ inputTokensByModality: { text: 8 }, serverToolRequests: { webSearch: 1 }, serviceTier: 'default' });
    const second = usage({ inputTokensByModality: { text: 8, image: 2 }, serverToolRequests: { webSearch: 2 }, serviceTier: 'priority' });
    const outcome = await streamOutcome([first, ...textBlock(0, 'Hi'), second, done]);
    expect(outcome).toEqual({ events: [first, ...textBlock(0, 'Hi'), second] });
  });

  const decreasing: [string, Record<string, unknown>, Record<string, unknown>][] = [
    ['a modality figure decreases', { inputTokensByModality: { text: 8 } }, { inputTokensByModality: { text: 7 } }],
    ['a detail object is dropped', { serverToolRequests: { webSearch: 1 } }, {}],
    ['a figure inside a detail object is dropped', { inputTokensByModality: { text: 8, image: 1 } }, { inputTokensByModality: { text: 8 } }],
    ['a cache write by time to live decreases', { cacheWriteInputTokens: 4, cacheWriteInputTokensByTtl: { oneHour: 3 } }, { cacheWriteInputTokens: 4, cacheWriteInputTokensByTtl: { oneHour: 2 } }],
    ['the service tier is dropped', { serviceTier: 'flex' }, {}],
  ];
  for (const [name, earlier, later] of decreasing) {
    it(`refuses a stream in which ${name}`, async () => {
      expect(await streamOutcome([usage(earlier), usage(later), done])).toEqual({ code: 'PROTOCOL_ENGINE_ADAPTER_OUTPUT_INVALID' });
    });
  }

  it('refuses a terminal whose V3 usage decreases a detail of the last usage event', async () => {
    const terminal = terminalPart({ status: 'completed', result: { kind: 'chat', content: [] }, usage: { inputTokens: 10, outputTokens: 5, inputTokensByModality: { text: 1 } } });
    expect(await streamOutcome([usage({ inputTokensByModality: { text: 8 } }), terminal])).toEqual({ code: 'PROTOCOL_ENGINE_ADAPTER_OUTPUT_INVALID' });
  });
});
