import type { ProtocolFamily } from '@tokenforge/model-protocol';
import { describe, expect, it } from 'vitest';
import { createProtocolEngineV1 } from '../../engine/v1/create-protocol-engine-v1.js';
import { isProtocolEngineErrorV1 } from '../../error/v1/protocol-engine-error-v1.js';
import {
  ASYNC_FAMILY,
  CHAT_FAMILY,
  asyncCapability,
  asyncFactory,
  chatCapability,
  chatTask,
  completedChat,
  countingBinding,
  makeTarget,
  newSignal,
  registryOf,
  respondWith,
  syncFactory,
  videoTask,
} from '../../test-support/fakes.js';

function codeOf(action: () => unknown): string | undefined {
  try {
    action();
  } catch (error) {
    return isProtocolEngineErrorV1(error) ? error.code : 'not-an-engine-error';
  }
  return undefined;
}

async function rejection(promise: Promise<unknown>): Promise<{ code: string; phase: string }> {
  try {
    await promise;
  } catch (error) {
    if (!isProtocolEngineErrorV1(error)) throw error;
    return { code: error.code, phase: error.phase };
  }
  throw new Error('expected a rejection');
}

const list = (...families: string[]) => ({
  listProtocolFamilies: () => families as ProtocolFamily[],
  require: () => {
    throw new Error('unused');
  },
});

describe('registry snapshot', () => {
  it('validates, sorts and freezes the families', () => {
    const engine = createProtocolEngineV1({ registry: list('zeta-chat/v1', 'alpha-chat/v2', 'alpha-chat/v1') });
    expect(engine.protocolFamilies).toEqual(['alpha-chat/v1', 'alpha-chat/v2', 'zeta-chat/v1']);
    expect(Object.isFrozen(engine.protocolFamilies)).toBe(true);
    expect(Object.isFrozen(engine)).toBe(true);
    expect(engine.apiVersion).toBe('tokenforge-protocol-engine/v1');
  });

  it('takes a snapshot: later changes to the registry list do not change dispatch authority', () => {
    const families: ProtocolFamily[] = ['alpha-chat/v1'];
    const engine = createProtocolEngineV1({ registry: { listProtocolFamilies: () => families, require: () => undefined as never } });
    families.push('beta-chat/v1');
    expect(engine.protocolFamilies).toEqual(['alpha-chat/v1']);
  });

  it('refuses duplicates, malformed ids, non-arrays, throwing lists and missing functions', () => {
    expect(codeOf(() => createProtocolEngineV1({ registry: list('alpha-chat/v1', 'alpha-chat/v1') }))).toBe('PROTOCOL_ENGINE_REGISTRY_INVALID');
    expect(codeOf(() => createProtocolEngineV1({ registry: list('Alpha/v1') }))).toBe('PROTOCOL_ENGINE_REGISTRY_INVALID');
    expect(codeOf(() => createProtocolEngineV1({ registry: list('alpha-chat') }))).toBe('PROTOCOL_ENGINE_REGISTRY_INVALID');
    expect(
      codeOf(() => createProtocolEngineV1({ registry: { listProtocolFamilies: () => 'alpha/v1' as never, require: () => undefined as never } })),
    ).toBe('PROTOCOL_ENGINE_REGISTRY_INVALID');
    expect(
      codeOf(() =>
        createProtocolEngineV1({
          registry: {
            listProtocolFamilies: () => {
              throw new Error('down');
            },
            require: () => undefined as never,
          },
        }),
      ),
    ).toBe('PROTOCOL_ENGINE_REGISTRY_INVALID');
    expect(codeOf(() => createProtocolEngineV1({ registry: { listProtocolFamilies: () => [] } as never }))).toBe('PROTOCOL_ENGINE_REGISTRY_INVALID');
    expect(codeOf(() => createProtocolEngineV1({ registry: null as never }))).toBe('PROTOCOL_ENGINE_REGISTRY_INVALID');
    expect(codeOf(() => createProtocolEngineV1({ registry: { ...list(), requireAsync: 3 } as never }))).toBe('PROTOCOL_ENGINE_REGISTRY_INVALID');
  });
});

describe('dispatch', () => {
  it('refuses a family outside the snapshot before asking the registry or binding', async () => {
    const registry = registryOf([syncFactory(respondWith(completedChat()))]);
    const engine = createProtocolEngineV1({ registry });
    const { binding, calls } = countingBinding(makeTarget(chatCapability({ protocolFamily: 'other-chat/v1' as ProtocolFamily })));
    expect(await rejection(engine.execute({ binding, task: chatTask(), signal: newSignal() }))).toEqual({
      code: 'PROTOCOL_ENGINE_PROTOCOL_UNDECLARED',
      phase: 'configuration',
    });
    expect(registry.requested).toEqual([]);
    expect(calls.count).toBe(0);
  });

  it('picks require or requireAsync by the capability execution mode, never by the task kind', async () => {
    const imageTask = { kind: 'image-generation', prompt: 'a lighthouse' } as const;
    const imageResult = { status: 'completed', result: { kind: 'image-generation', images: [{ url: 'https://cdn.example/i.png' }] } };
    const syncImages = syncFactory(respondWith(imageResult), 'fake-images/v1' as ProtocolFamily);
    const asyncImages = asyncFactory(
      { start: async () => ({ acceptance: { state: 'accepted' }, responseMetadata: {}, providerJobId: 'job-1' }) },
      [],
      'fake-image-jobs/v1' as ProtocolFamily,
    );
    const registry = registryOf([syncImages], [asyncImages]);
    const engine = createProtocolEngineV1({ registry });
    const syncTarget = makeTarget({ protocolFamily: 'fake-images/v1' as ProtocolFamily, executionMode: 'sync', taskKinds: ['image-generation'] });
    const asyncTarget = makeTarget({
      protocolFamily: 'fake-image-jobs/v1' as ProtocolFamily,
      executionMode: 'async-job',
      taskKinds: ['image-generation'],
    });
    const first = await engine.execute({ binding: countingBinding(syncTarget).binding, task: imageTask, signal: newSignal() });
    const second = await engine.execute({ binding: countingBinding(asyncTarget).binding, task: imageTask, signal: newSignal() });
    expect(first.kind).toBe('response');
    expect(second.kind).toBe('accepted-job');
    expect(registry.requested).toEqual(['require:fake-images/v1', 'requireAsync:fake-image-jobs/v1']);
  });

  it('refuses a factory that declares another family before the transport is bound', async () => {
    const wrong = syncFactory(respondWith(completedChat()), 'other-chat/v1' as ProtocolFamily);
    const registry = {
      listProtocolFamilies: () => [CHAT_FAMILY],
      require: () => wrong,
    };
    const engine = createProtocolEngineV1({ registry });
    const { binding, calls } = countingBinding();
    expect(await rejection(engine.execute({ binding, task: chatTask(), signal: newSignal() }))).toEqual({
      code: 'PROTOCOL_ENGINE_FACTORY_MISMATCH',
      phase: 'configuration',
    });
    expect(calls.count).toBe(0);
    expect(wrong.inputs).toEqual([]);
  });

  it('refuses async factories whose jobOperations are not a valid subset, or whose adapter lacks a declared operation', async () => {
    const start = async () => ({ acceptance: { state: 'accepted' as const }, responseMetadata: {}, providerJobId: 'job-1' });
    for (const factory of [
      asyncFactory({ start }, ['get', 'get']),
      asyncFactory({ start }, ['get', 'delete' as never]),
      { protocolFamily: ASYNC_FAMILY, jobOperations: 'get', createAdapter: () => ({ start }) } as never,
      asyncFactory({ start }, ['get']),
    ]) {
      const engine = createProtocolEngineV1({ registry: registryOf([], [factory]) });
      const { binding, calls } = countingBinding(makeTarget(asyncCapability()));
      expect((await rejection(engine.execute({ binding, task: videoTask(), signal: newSignal() }))).code).toBe(
        'PROTOCOL_ENGINE_FACTORY_MISMATCH',
      );
      expect(calls.count).toBe(0);
    }
  });

  it('reports a registry without requireAsync, or one that throws, as REGISTRY_INVALID', async () => {
    const noAsync = { listProtocolFamilies: () => [ASYNC_FAMILY], require: () => undefined as never };
    const engine = createProtocolEngineV1({ registry: noAsync });
    expect((await rejection(engine.execute({ binding: countingBinding(makeTarget(asyncCapability())).binding, task: videoTask(), signal: newSignal() }))).code).toBe(
      'PROTOCOL_ENGINE_REGISTRY_INVALID',
    );
    const throwing = {
      listProtocolFamilies: () => [CHAT_FAMILY],
      require: () => {
        throw new Error('missing');
      },
    };
    const second = createProtocolEngineV1({ registry: throwing });
    expect((await rejection(second.execute({ binding: countingBinding().binding, task: chatTask(), signal: newSignal() }))).code).toBe(
      'PROTOCOL_ENGINE_REGISTRY_INVALID',
    );
  });
});
