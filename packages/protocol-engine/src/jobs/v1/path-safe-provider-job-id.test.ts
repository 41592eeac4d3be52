import fc from 'fast-check';
import type { ProviderAsyncJobAdapterV1 } from '@tokenforge/model-protocol';
import { describe, expect, it } from 'vitest';
import { createProtocolEngineV1 } from '../../engine/v1/create-protocol-engine-v1.js';
import { asyncCapability, asyncFactory, countingBinding, makeTarget, newSignal, registryOf } from '../../test-support/fakes.js';
import { isPathSafeProviderJobId } from './path-safe-provider-job-id.js';

const HOSTILE_IDS = ['../../../admin/keys', '..%2F..%2Fadmin', 'abc/cancel', 'a\\b', '..', '.', '%2e%2e', 'job?x=1', 'job#frag', '%00'];

function setup() {
  const calls: string[] = [];
  const adapter: ProviderAsyncJobAdapterV1 = {
    start: async () => ({ acceptance: { state: 'accepted' }, responseMetadata: {}, providerJobId: 'job-1' }),
    get: async ({ providerJobId }) => {
      calls.push(providerJobId);
      return { status: 'ok', value: { providerJobId, state: 'running' } };
    },
    cancel: async ({ providerJobId }) => {
      calls.push(providerJobId);
      return { status: 'ok', value: null };
    },
  };
  const engine = createProtocolEngineV1({ registry: registryOf([], [asyncFactory(adapter, ['get', 'cancel'])]) });
  const { binding } = countingBinding(makeTarget(asyncCapability()));
  return { engine, calls, binding };
}

describe('provider job ids in paths', () => {
  it.each(HOSTILE_IDS)('refuses the job id %s for get and cancel before the transport is bound', async (providerJobId) => {
    const { engine, calls } = setup();
    const counting = countingBinding(makeTarget(asyncCapability()));
    for (const operation of ['get', 'cancel'] as const) {
      await expect(engine.jobs[operation]({ binding: counting.binding, providerJobId, signal: newSignal() })).rejects.toMatchObject({
        code: 'PROTOCOL_ENGINE_INPUT_INVALID',
        phase: 'input',
      });
    }
    expect(counting.calls.count).toBe(0);
    expect(calls).toEqual([]);
  });

  it('accepts the ids providers hand out (UUIDs, numeric and prefixed ids)', async () => {
    const { engine, binding, calls } = setup();
    for (const providerJobId of ['0f8fad5b-d9cb-469f-a165-70867728950e', '791204163729092667', 'task_01HZX:v2', 'a.b']) {
      await engine.jobs.get({ binding, providerJobId, signal: newSignal() });
    }
    expect(calls).toHaveLength(4);
  });

  it('refuses exactly the ids holding a separator, an escape, a query or fragment mark, or a dot segment', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme-ascii', minLength: 1, maxLength: 20 }), (id) => {
        const hazardous = id === '.' || id === '..' || /[/\\%?#]/.test(id);
        expect(isPathSafeProviderJobId(id)).toBe(!hazardous);
      }),
      { numRuns: 2000 },
    );
  });
});
