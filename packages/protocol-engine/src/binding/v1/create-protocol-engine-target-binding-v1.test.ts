import { describe, expect, it } from 'vitest';
import { createProtocolEngineV1 } from '../../engine/v1/create-protocol-engine-v1.js';
import { isProtocolEngineErrorV1 } from '../../error/v1/protocol-engine-error-v1.js';
import {
  SECRET_CONNECTION,
  chatTask,
  completedChat,
  fakeTransport,
  makeTarget,
  newSignal,
  registryOf,
  respondWith,
  syncFactory,
} from '../../test-support/fakes.js';
import { createProtocolEngineTargetBindingV1 } from './create-protocol-engine-target-binding-v1.js';

async function codeOf(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (error) {
    return isProtocolEngineErrorV1(error) ? error.code : `foreign: ${String(error)}`;
  }
  return 'resolved';
}

describe('createProtocolEngineTargetBindingV1', () => {
  it('refuses connection substitution before the host factory runs', async () => {
    let hostCalls = 0;
    const binding = createProtocolEngineTargetBindingV1({
      target: makeTarget(),
      bindTransport: () => {
        hostCalls += 1;
        return fakeTransport();
      },
    });
    expect(await codeOf(binding.bindTransport('someone-elses-connection', newSignal()))).toBe('PROTOCOL_ENGINE_CONNECTION_MISMATCH');
    expect(hostCalls).toBe(0);
    await binding.bindTransport(SECRET_CONNECTION, newSignal());
    expect(hostCalls).toBe(1);
  });

  it('passes the operation signal to the host factory', async () => {
    const signal = newSignal();
    let received: AbortSignal | undefined;
    const binding = createProtocolEngineTargetBindingV1({
      target: makeTarget(),
      bindTransport: (hostSignal) => {
        received = hostSignal;
        return fakeTransport();
      },
    });
    await binding.bindTransport(SECRET_CONNECTION, signal);
    expect(received).toBe(signal);
  });

  it('maps host factory failures and non-transports to TRANSPORT_BIND_FAILED, with the failure only in cause', async () => {
    const failure = new Error('vault unreachable: token=abc');
    const throwing = createProtocolEngineTargetBindingV1({
      target: makeTarget(),
      bindTransport: () => Promise.reject(failure),
    });
    const error = await throwing.bindTransport(SECRET_CONNECTION, newSignal()).catch((caught: unknown) => caught);
    expect(isProtocolEngineErrorV1(error) && error.code).toBe('PROTOCOL_ENGINE_TRANSPORT_BIND_FAILED');
    expect((error as Error).cause).toBe(failure);
    expect((error as Error).message).not.toContain('token');
    const notATransport = createProtocolEngineTargetBindingV1({ target: makeTarget(), bindTransport: () => ({}) as never });
    expect(await codeOf(notATransport.bindTransport(SECRET_CONNECTION, newSignal()))).toBe('PROTOCOL_ENGINE_TRANSPORT_BIND_FAILED');
  });

  it('keeps only the dispatch fields of the target, frozen, and refuses invalid targets', () => {
    const binding = createProtocolEngineTargetBindingV1({
      target: { ...makeTarget(), sourceId: 'host-private', capabilityId: 'host-private' } as never,
      bindTransport: () => fakeTransport(),
    });
    expect(Object.keys(binding.target).sort()).toEqual(['capability', 'connectionRef', 'provider', 'providerModel']);
    expect(Object.isFrozen(binding.target)).toBe(true);
    expect(Object.isFrozen(binding.target.capability)).toBe(true);
    expect(() => createProtocolEngineTargetBindingV1({ target: { ...makeTarget(), connectionRef: '' }, bindTransport: () => fakeTransport() })).toThrow(
      expect.objectContaining({ code: 'PROTOCOL_ENGINE_INPUT_INVALID' }),
    );
    expect(() => createProtocolEngineTargetBindingV1({ target: makeTarget(), bindTransport: 'no' as never })).toThrow(
      expect.objectContaining({ code: 'PROTOCOL_ENGINE_INPUT_INVALID' }),
    );
  });

  it('lets the engine bind only the target connection, even for a hand-written binding', async () => {
    const factory = syncFactory(respondWith(completedChat()));
    const engine = createProtocolEngineV1({ registry: registryOf([factory]) });
    const requested: string[] = [];
    const handWritten = {
      target: makeTarget(),
      bindTransport: async (connectionRef: string) => {
        requested.push(connectionRef);
        return fakeTransport();
      },
    };
    await engine.execute({ binding: handWritten, task: chatTask(), signal: newSignal() });
    expect(requested).toEqual([SECRET_CONNECTION]);
  });

  it('reports a hand-written binding that throws as TRANSPORT_BIND_FAILED and an aborted bind as ABORTED', async () => {
    const engine = createProtocolEngineV1({ registry: registryOf([syncFactory(respondWith(completedChat()))]) });
    const failing = { target: makeTarget(), bindTransport: async () => Promise.reject(new Error('no')) };
    expect(await codeOf(engine.execute({ binding: failing, task: chatTask(), signal: newSignal() }))).toBe(
      'PROTOCOL_ENGINE_TRANSPORT_BIND_FAILED',
    );
    const controller = new AbortController();
    const aborting = {
      target: makeTarget(),
      bindTransport: async () => {
        controller.abort();
        throw new Error('cancelled');
      },
    };
    expect(await codeOf(engine.execute({ binding: aborting, task: chatTask(), signal: controller.signal }))).toBe('PROTOCOL_ENGINE_ABORTED');
  });
});
