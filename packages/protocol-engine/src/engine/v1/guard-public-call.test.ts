import fc from 'fast-check';
import type { ProviderAsyncJobAdapterV1 } from '@tokenforge/model-protocol';
import { describe, expect, it } from 'vitest';
import { createProtocolEngineTargetBindingV1 } from '../../binding/v1/create-protocol-engine-target-binding-v1.js';
import { isProtocolEngineErrorV1, type ProtocolEngineErrorPhaseV1 } from '../../error/v1/protocol-engine-error-v1.js';
import {
  asyncCapability,
  asyncFactory,
  chatCapability,
  chatTask,
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
  videoTask,
} from '../../test-support/fakes.js';
import { createProtocolEngineV1 } from './create-protocol-engine-v1.js';

const RAW = new Error('raw error from a hostile getter');

/** `value` with `key` turned into a getter that throws {@link RAW}. */
function throwingAt<T extends object>(value: T, key: PropertyKey): T {
  const copy = Array.isArray(value) ? [...value] : { ...value };
  Object.defineProperty(copy, key, {
    enumerable: true,
    get() {
      throw RAW;
    },
  });
  return copy as T;
}

/** A Proxy whose every trap throws {@link RAW}. */
function hostileProxy(): object {
  const fail = (): never => {
    throw RAW;
  };
  return new Proxy({}, { get: fail, has: fail, ownKeys: fail, getOwnPropertyDescriptor: fail, getPrototypeOf: fail });
}

function revoked(): object {
  const { proxy, revoke } = Proxy.revocable({}, {});
  revoke();
  return proxy;
}

async function failureOf(run: () => unknown): Promise<unknown> {
  try {
    await run();
  } catch (error) {
    return error;
  }
  throw new Error('expected a failure');
}

function expectEngineError(error: unknown, code: string, phase: ProtocolEngineErrorPhaseV1): void {
  expect(isProtocolEngineErrorV1(error)).toBe(true);
  expect(error).toMatchObject({ code, phase });
  const descriptor = Object.getOwnPropertyDescriptor(error, 'cause');
  if (descriptor !== undefined) expect(descriptor.enumerable).toBe(false);
}

const chatEngine = (execute = respondWith(completedChat())) => createProtocolEngineV1({ registry: registryOf([syncFactory(execute)]) });
const chatInput = (overrides: Record<string, unknown> = {}) => ({ task: chatTask(), binding: countingBinding().binding, signal: newSignal(), ...overrides });

const jobAdapter = (overrides: Partial<ProviderAsyncJobAdapterV1> = {}): ProviderAsyncJobAdapterV1 => ({
  start: async () => ({ acceptance: { state: 'accepted' }, responseMetadata: {}, providerJobId: 'job-1' }),
  get: async () => ({ status: 'ok', value: { providerJobId: 'job-1', state: 'running' } }),
  list: async () => ({ status: 'ok', value: { items: [], total: 0, totalKind: 'exact' } }),
  cancel: async () => ({ status: 'ok', value: null }),
  ...overrides,
});
const jobEngine = (adapter = jobAdapter()) => createProtocolEngineV1({ registry: registryOf([], [asyncFactory(adapter)]) });
const jobBinding = () => countingBinding(makeTarget(asyncCapability())).binding;

type Case = readonly [label: string, run: () => unknown, code: string, phase: ProtocolEngineErrorPhaseV1];

const CASES: readonly Case[] = [
  ['engine input whose registry getter throws', () => createProtocolEngineV1(throwingAt({ registry: registryOf([]) }, 'registry')), 'PROTOCOL_ENGINE_REGISTRY_INVALID', 'configuration'],
  ['a hostile Proxy as registry', () => createProtocolEngineV1({ registry: hostileProxy() as never }), 'PROTOCOL_ENGINE_REGISTRY_INVALID', 'configuration'],
  ['a revoked Proxy as engine input', () => createProtocolEngineV1(revoked() as never), 'PROTOCOL_ENGINE_REGISTRY_INVALID', 'configuration'],
  ['a family list with a throwing entry', () => createProtocolEngineV1({ registry: { ...registryOf([]), listProtocolFamilies: () => throwingAt(['fake-chat/v1'], 0) } as never }), 'PROTOCOL_ENGINE_REGISTRY_INVALID', 'configuration'],
  ['binding input whose bindTransport getter throws', () => createProtocolEngineTargetBindingV1(throwingAt({ target: makeTarget(), bindTransport: async () => fakeTransport() }, 'bindTransport')), 'PROTOCOL_ENGINE_INPUT_INVALID', 'input'],
  ['binding target whose providerModel getter throws', () => createProtocolEngineTargetBindingV1({ target: throwingAt(makeTarget(), 'providerModel'), bindTransport: async () => fakeTransport() }), 'PROTOCOL_ENGINE_INPUT_INVALID', 'input'],
  ['binding target whose capability is a hostile Proxy', () => createProtocolEngineTargetBindingV1({ target: { ...makeTarget(), capability: hostileProxy() as never }, bindTransport: async () => fakeTransport() }), 'PROTOCOL_ENGINE_INPUT_INVALID', 'input'],
  ['a revoked Proxy as binding input', () => createProtocolEngineTargetBindingV1(revoked() as never), 'PROTOCOL_ENGINE_INPUT_INVALID', 'input'],
  ['execute input whose task getter throws', () => chatEngine().execute(throwingAt(chatInput(), 'task') as never), 'PROTOCOL_ENGINE_INPUT_INVALID', 'input'],
  ['execute input that is a revoked Proxy', () => chatEngine().execute(revoked() as never), 'PROTOCOL_ENGINE_INPUT_INVALID', 'input'],
  ['a signal whose aborted getter throws', () => chatEngine().execute(chatInput({ signal: throwingAt({ addEventListener() {}, removeEventListener() {}, aborted: false }, 'aborted') }) as never), 'PROTOCOL_ENGINE_INPUT_INVALID', 'input'],
  ['task messages as a hostile Proxy', () => chatEngine().execute(chatInput({ task: { ...chatTask(), messages: hostileProxy() } }) as never), 'PROTOCOL_ENGINE_INPUT_INVALID', 'input'],
  ['a hand-written binding whose target getter throws', () => chatEngine().execute(chatInput({ binding: throwingAt({ target: makeTarget(), bindTransport: async () => fakeTransport() }, 'target') }) as never), 'PROTOCOL_ENGINE_INPUT_INVALID', 'input'],
  ['prepared media whose getter throws', () => chatEngine().execute(throwingAt(chatInput(), 'preparedMedia') as never), 'PROTOCOL_ENGINE_INPUT_INVALID', 'input'],
  ['a factory whose protocolFamily getter throws', () => createProtocolEngineV1({ registry: { ...registryOf([]), listProtocolFamilies: () => ['fake-chat/v1'], require: () => throwingAt(syncFactory(respondWith(completedChat())), 'protocolFamily') } as never }).execute(chatInput() as never), 'PROTOCOL_ENGINE_FACTORY_MISMATCH', 'configuration'],
  ['a factory that is a revoked Proxy', () => createProtocolEngineV1({ registry: { ...registryOf([]), listProtocolFamilies: () => ['fake-chat/v1'], require: () => revoked() } as never }).execute(chatInput() as never), 'PROTOCOL_ENGINE_FACTORY_MISMATCH', 'configuration'],
  ['an adapter whose execute getter throws', () => createProtocolEngineV1({ registry: registryOf([{ protocolFamily: chatCapability().protocolFamily, createAdapter: () => throwingAt({ execute: async () => undefined }, 'execute') } as never]) }).execute(chatInput() as never), 'PROTOCOL_ENGINE_FACTORY_MISMATCH', 'configuration'],
  ['a bound transport whose send getter throws', () => chatEngine().execute(chatInput({ binding: countingBinding(makeTarget(), throwingAt(fakeTransport(), 'send')).binding }) as never), 'PROTOCOL_ENGINE_TRANSPORT_BIND_FAILED', 'transport'],
  ['an execution whose kind getter throws', () => chatEngine(() => throwingAt(respondWith(completedChat())(), 'kind')).execute(chatInput() as never), 'PROTOCOL_ENGINE_ADAPTER_OUTPUT_INVALID', 'adapter'],
  // Awaiting a Proxy reads its `then`: the adapter's own promise rejects, which is an adapter failure.
  ['an execution that is a hostile Proxy', () => chatEngine(() => hostileProxy() as never).execute(chatInput() as never), 'PROTOCOL_ENGINE_ADAPTER_FAILED', 'adapter'],
  ['a terminal whose result getter throws', () => chatEngine(respondWith(throwingAt(completedChat(), 'result'))).execute(chatInput() as never), 'PROTOCOL_ENGINE_ADAPTER_OUTPUT_INVALID', 'adapter'],
  ['response metadata as a hostile Proxy', () => chatEngine(respondWith(completedChat(), { responseMetadata: hostileProxy() })).execute(chatInput() as never), 'PROTOCOL_ENGINE_ADAPTER_OUTPUT_INVALID', 'adapter'],
  ['a start outcome whose providerJobId getter throws', () => jobEngine(jobAdapter({ start: async () => throwingAt({ acceptance: { state: 'accepted' }, responseMetadata: {}, providerJobId: 'job-1' }, 'providerJobId') as never })).execute({ task: videoTask(), binding: jobBinding(), signal: newSignal() }), 'PROTOCOL_ENGINE_ADAPTER_OUTPUT_INVALID', 'adapter'],
  ['an async factory whose jobOperations getter throws', () => createProtocolEngineV1({ registry: registryOf([], [throwingAt(asyncFactory(jobAdapter()), 'jobOperations')]) }).jobs.get({ binding: jobBinding(), providerJobId: 'job-1', signal: newSignal() }), 'PROTOCOL_ENGINE_FACTORY_MISMATCH', 'configuration'],
  ['a job get input whose providerJobId getter throws', () => jobEngine().jobs.get(throwingAt({ binding: jobBinding(), providerJobId: 'job-1', signal: newSignal() }, 'providerJobId')), 'PROTOCOL_ENGINE_INPUT_INVALID', 'input'],
  ['a job list input that is a hostile Proxy', () => jobEngine().jobs.list(hostileProxy() as never), 'PROTOCOL_ENGINE_INPUT_INVALID', 'input'],
  ['a job cancel input whose binding getter throws', () => jobEngine().jobs.cancel(throwingAt({ binding: jobBinding(), providerJobId: 'job-1', signal: newSignal() }, 'binding')), 'PROTOCOL_ENGINE_INPUT_INVALID', 'input'],
  ['a job snapshot whose state getter throws', () => jobEngine(jobAdapter({ get: async () => ({ status: 'ok', value: throwingAt({ providerJobId: 'job-1', state: 'running' }, 'state') }) as never })).jobs.get({ binding: jobBinding(), providerJobId: 'job-1', signal: newSignal() }), 'PROTOCOL_ENGINE_ADAPTER_OUTPUT_INVALID', 'adapter'],
  ['a job operation result whose status getter throws', () => jobEngine(jobAdapter({ cancel: async () => throwingAt({ status: 'ok', value: null }, 'status') as never })).jobs.cancel({ binding: jobBinding(), providerJobId: 'job-1', signal: newSignal() }), 'PROTOCOL_ENGINE_ADAPTER_OUTPUT_INVALID', 'adapter'],
  ['a job list page that is a hostile Proxy', () => jobEngine(jobAdapter({ list: async () => hostileProxy() as never })).jobs.list({ binding: jobBinding(), pageNum: 1, pageSize: 10, signal: newSignal() }), 'PROTOCOL_ENGINE_ADAPTER_FAILED', 'adapter'],
  ['a job list page whose items getter throws', () => jobEngine(jobAdapter({ list: async () => ({ status: 'ok', value: throwingAt({ items: [], total: 0, totalKind: 'exact' }, 'items') }) as never })).jobs.list({ binding: jobBinding(), pageNum: 1, pageSize: 10, signal: newSignal() }), 'PROTOCOL_ENGINE_ADAPTER_OUTPUT_INVALID', 'adapter'],
];

describe('every public engine function fails only with ProtocolEngineErrorV1', () => {
  it.each(CASES)('%s', async (_label, run, code, phase) => {
    const error = await failureOf(run);
    expectEngineError(error, code, phase);
  });

  it('runs every job case against an adapter that works when nothing is hostile', async () => {
    const engine = jobEngine();
    const binding = jobBinding();
    await expect(engine.jobs.get({ binding, providerJobId: 'job-1', signal: newSignal() })).resolves.toMatchObject({ snapshot: { state: 'running' } });
    await expect(engine.jobs.list({ binding, pageNum: 1, pageSize: 10, signal: newSignal() })).resolves.toMatchObject({ items: [] });
    await expect(engine.jobs.cancel({ binding, providerJobId: 'job-1', signal: newSignal() })).resolves.toBeDefined();
  });

  it('keeps the original error as the non-enumerable cause', async () => {
    const error = await failureOf(() => chatEngine().execute(throwingAt(chatInput(), 'task') as never));
    expect((error as { cause?: unknown }).cause).toBe(RAW);
    expect(Object.keys(error as object)).not.toContain('cause');
    expect(JSON.stringify(error)).not.toContain('hostile getter');
  });

  /** Every (object, key) of a plain data tree, for planting a throwing getter there. */
  function locations(root: unknown, path: readonly PropertyKey[] = []): (readonly PropertyKey[])[] {
    if (typeof root !== 'object' || root === null) return [];
    return Object.keys(root).flatMap((key) => [[...path, key], ...locations((root as Record<string, unknown>)[key], [...path, key])]);
  }

  function plantAt(root: unknown, path: readonly PropertyKey[]): unknown {
    const [head, ...rest] = path;
    if (head === undefined || typeof root !== 'object' || root === null) return root;
    if (rest.length === 0) return throwingAt(root as object, head);
    const copy = (Array.isArray(root) ? [...root] : { ...root }) as Record<PropertyKey, unknown>;
    copy[head] = plantAt((root as Record<PropertyKey, unknown>)[head], rest);
    return copy;
  }

  it('turns a throwing getter anywhere in the execute input or a hand-written binding into an input-phase engine error', async () => {
    const tools = [{ name: 'lookup', description: 'look up', inputSchema: { type: 'object', properties: { q: { type: 'string' } } } }];
    const input = {
      task: chatTask({ tools, responseFormat: { type: 'json', schema: { type: 'object' } }, sampling: { temperature: 0.5 } }),
      binding: { target: makeTarget(chatCapability({ tools: true, structuredOutput: true })), bindTransport: async () => fakeTransport() },
      signal: newSignal(),
    };
    await expect(chatEngine().execute(input as never)).resolves.toMatchObject({ kind: 'response' });
    const all = locations(input).filter((path) => path[path.length - 1] !== 'bindTransport');
    expect(all.length).toBeGreaterThan(25);
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...all), async (path) => {
        const hostile = plantAt(input, path) as typeof input;
        const error = await failureOf(() => chatEngine().execute(hostile as never));
        expect(isProtocolEngineErrorV1(error)).toBe(true);
        expect((error as { phase: string }).phase).toBe('input');
      }),
      { numRuns: all.length * 2 },
    );
  });

  it('turns a throwing getter anywhere in a response execution into an adapter-phase engine error', async () => {
    const execution = respondWith(completedChat(), { responseMetadata: { providerRequestId: 'req-1' } })();
    const all = locations(execution);
    await expect(chatEngine(() => execution).execute(chatInput() as never)).resolves.toMatchObject({ kind: 'response' });
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...all), async (path) => {
        const hostile = plantAt(execution, path);
        const error = await failureOf(() => chatEngine(() => hostile as never).execute(chatInput() as never));
        expect(isProtocolEngineErrorV1(error)).toBe(true);
        expect((error as { phase: string }).phase).toBe('adapter');
      }),
      { numRuns: all.length * 2 },
    );
  });

  it('turns a throwing getter anywhere in a stream part into an adapter-phase engine error that also settles the terminal and releases the parts', async () => {
    const parts = [...textBlock(0, 'a', 'b'), terminalPart(completedChat('ab'))];
    const run = async (streamParts: readonly unknown[]) => {
      const factory = streamFactory(streamParts);
      const engine = createProtocolEngineV1({ registry: registryOf([factory]) });
      const execution = await engine.execute({ task: chatTask({ stream: true }), binding: countingBinding().binding, signal: newSignal() });
      if (execution.kind !== 'stream') throw new Error('expected a stream');
      const iterated = await failureOf(async () => {
        for await (const event of execution.events) void event;
        throw new Error('completed');
      });
      const terminal = await execution.terminal.then((outcome) => outcome, (error: unknown) => error);
      return { iterated, terminal, released: factory.probe.released };
    };
    expect((await run(parts)).terminal).toMatchObject({ status: 'completed' });
    const all = locations(parts);
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...all), async (path) => {
        const { iterated, terminal, released } = await run(plantAt(parts, path) as unknown[]);
        expect(isProtocolEngineErrorV1(iterated)).toBe(true);
        expect((iterated as { phase: string }).phase).toBe('adapter');
        expect(terminal).toBe(iterated);
        expect(released).toBe(true);
      }),
      { numRuns: all.length * 2 },
    );
  });
});
