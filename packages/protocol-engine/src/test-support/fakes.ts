import type {
  AdapterStreamPartV1,
  AdapterTerminalOutcome,
  AsyncJobOperationV1,
  ProtocolCapabilityV2,
  ProtocolFamily,
  ProviderAdapterExecuteInputV1,
  ProviderAdapterExecutionV1,
  ProviderAdapterFactory,
  ProviderAsyncJobAdapterFactory,
  ProviderAsyncJobAdapterV1,
  ProviderDispatchTargetV2,
  ProviderTransport,
  TaskEnvelopeV2,
} from '@tokenforge/model-protocol';
import type { ProtocolEngineAdapterRegistryPortV1, ProtocolEngineDispatchTargetV1 } from '../contracts/v1/protocol-engine-contracts-v1.js';
import { createProtocolEngineTargetBindingV1 } from '../binding/v1/create-protocol-engine-target-binding-v1.js';

/** Distinctive names: tests assert they never appear in engine errors or results. */
export const SECRET_PROVIDER = 'zz-provider-secretive';
export const SECRET_MODEL = 'zz-model-confidential';
export const SECRET_CONNECTION = 'conn-zz-private-ref';
export const SECRET_PROMPT = 'zz prompt that must never leak';

export const CHAT_FAMILY = 'fake-chat/v1' as ProtocolFamily;
export const ASYNC_FAMILY = 'fake-video/v1' as ProtocolFamily;

export function chatCapability(overrides: Partial<ProtocolCapabilityV2> = {}): ProtocolCapabilityV2 {
  return { protocolFamily: CHAT_FAMILY, executionMode: 'stream-capable', taskKinds: ['chat'], ...overrides };
}

export function makeTarget(capability: ProtocolCapabilityV2 = chatCapability()): ProviderDispatchTargetV2 {
  return { provider: SECRET_PROVIDER, providerModel: SECRET_MODEL, connectionRef: SECRET_CONNECTION, capability };
}

export function chatTask(overrides: Record<string, unknown> = {}): TaskEnvelopeV2 {
  return {
    kind: 'chat',
    messages: [{ role: 'user', content: [{ type: 'text', text: SECRET_PROMPT }] }],
    stream: false,
    ...overrides,
  } as TaskEnvelopeV2;
}

export const completedChat = (text = 'hello'): AdapterTerminalOutcome => ({
  status: 'completed',
  result: { kind: 'chat', content: [{ type: 'text', text }] },
  finishReason: { unified: 'stop', raw: 'stop' },
  usage: { inputTokens: 3, outputTokens: 2, totalTokens: 5 },
});

/** A transport that records sends and answers with fixed bytes. */
export function fakeTransport(bodyChunks: readonly string[] = []): ProviderTransport & { readonly sent: unknown[] } {
  const sent: unknown[] = [];
  return {
    sent,
    async send(request) {
      sent.push(request);
      const encoder = new TextEncoder();
      return {
        status: 200,
        headers: { 'x-request-id': 'req-1' },
        body: (async function* body() {
          for (const chunk of bodyChunks) yield encoder.encode(chunk);
        })(),
      };
    },
  };
}

/** A binding whose host factory counts its calls. */
export function countingBinding(target: ProtocolEngineDispatchTargetV1 = makeTarget(), transport: ProviderTransport = fakeTransport()) {
  const calls = { count: 0 };
  const binding = createProtocolEngineTargetBindingV1({
    target,
    bindTransport: async () => {
      calls.count += 1;
      return transport;
    },
  });
  return { binding, calls, transport };
}

export function syncFactory(
  execute: (input: ProviderAdapterExecuteInputV1) => Promise<ProviderAdapterExecutionV1> | ProviderAdapterExecutionV1,
  protocolFamily: ProtocolFamily = CHAT_FAMILY,
): ProviderAdapterFactory & { readonly inputs: ProviderAdapterExecuteInputV1[] } {
  const inputs: ProviderAdapterExecuteInputV1[] = [];
  return {
    protocolFamily,
    inputs,
    createAdapter: () => ({
      execute: async (input) => {
        inputs.push(input);
        return execute(input);
      },
    }),
  };
}

export function respondWith(terminal: unknown, extra: Record<string, unknown> = {}): () => ProviderAdapterExecutionV1 {
  return () =>
    ({ kind: 'response', acceptance: { state: 'accepted' }, responseMetadata: {}, terminal, ...extra }) as ProviderAdapterExecutionV1;
}

/** Observations of a fake stream adapter: how many parts were pulled and whether its body was released. */
export interface StreamProbe {
  pulled: number;
  released: boolean;
  signal: AbortSignal | undefined;
}

/** A stream adapter yielding the given parts from a generator whose `finally` marks the transport released. */
export function streamFactory(
  parts: readonly unknown[] | ((probe: StreamProbe) => AsyncGenerator<unknown>),
  protocolFamily: ProtocolFamily = CHAT_FAMILY,
): ProviderAdapterFactory & { readonly probe: StreamProbe } {
  const probe: StreamProbe = { pulled: 0, released: false, signal: undefined };
  return {
    protocolFamily,
    probe,
    createAdapter: () => ({
      execute: async (input) => {
        probe.signal = input.signal;
        const source =
          typeof parts === 'function'
            ? parts(probe)
            : (async function* generate() {
                try {
                  for (const part of parts) {
                    probe.pulled += 1;
                    yield part;
                  }
                } finally {
                  probe.released = true;
                }
              })();
        return {
          kind: 'stream',
          acceptance: { state: 'accepted' },
          responseMetadata: {},
          parts: source as AsyncIterable<AdapterStreamPartV1>,
        };
      },
    }),
  };
}

export function terminalPart(outcome: unknown): unknown {
  return { type: 'terminal', outcome };
}

/** Text block events for `text` at `index`, split into the given deltas. */
export function textBlock(index: number, ...deltas: string[]): unknown[] {
  return [{ type: 'text-start', index }, ...deltas.map((delta) => ({ type: 'text-delta', index, delta })), { type: 'text-end', index }];
}

export function registryOf(
  factories: readonly ProviderAdapterFactory[],
  asyncFactories: readonly ProviderAsyncJobAdapterFactory[] = [],
): ProtocolEngineAdapterRegistryPortV1 & { readonly requested: string[] } {
  const requested: string[] = [];
  const registry: ProtocolEngineAdapterRegistryPortV1 & { readonly requested: string[] } = {
    requested,
    listProtocolFamilies: () => [...factories.map((factory) => factory.protocolFamily), ...asyncFactories.map((factory) => factory.protocolFamily)],
    require: (family) => {
      requested.push(`require:${family}`);
      const factory = factories.find((candidate) => candidate.protocolFamily === family);
      if (factory === undefined) throw new Error('no such family');
      return factory;
    },
  };
  if (asyncFactories.length > 0) {
    (registry as { requireAsync?: ProtocolEngineAdapterRegistryPortV1['requireAsync'] }).requireAsync = (family) => {
      requested.push(`requireAsync:${family}`);
      const factory = asyncFactories.find((candidate) => candidate.protocolFamily === family);
      if (factory === undefined) throw new Error('no such family');
      return factory;
    };
  }
  return registry;
}

export function asyncCapability(overrides: Partial<ProtocolCapabilityV2> = {}): ProtocolCapabilityV2 {
  return { protocolFamily: ASYNC_FAMILY, executionMode: 'async-job', taskKinds: ['video-generation'], ...overrides };
}

export function asyncFactory(
  adapter: ProviderAsyncJobAdapterV1,
  jobOperations: readonly AsyncJobOperationV1[] = ['get', 'list', 'cancel'],
  protocolFamily: ProtocolFamily = ASYNC_FAMILY,
): ProviderAsyncJobAdapterFactory {
  return { protocolFamily, jobOperations, createAdapter: () => adapter };
}

export const videoTask = (): TaskEnvelopeV2 => ({ kind: 'video-generation', prompt: SECRET_PROMPT });

/** Collects events of a stream; resolves with them. */
export async function collect<T>(iterable: AsyncIterable<T>): Promise<T[]> {
  const items: T[] = [];
  for await (const item of iterable) items.push(item);
  return items;
}

export const newSignal = (): AbortSignal => new AbortController().signal;
