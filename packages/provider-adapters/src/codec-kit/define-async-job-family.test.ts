import { CodecErrorV1, type ProviderAdapterTargetV1 } from '@tokenforge/model-protocol';
import { describe, expect, it } from 'vitest';
import { createFixtureTransportV1, type FixtureResponseV1 } from '../testing/fixture-transport.js';
import { defineAsyncJobFamily, type AsyncJobFamilyDefinitionV1, type AsyncJobFamilyOptionsV1, type AsyncJobRequestV1 } from './define-async-job-family.js';
import { ProtocolViolationError } from './protocol-violation-error.js';

const target: ProviderAdapterTargetV1 = {
  providerModel: 'm',
  capability: { protocolFamily: 'kit-jobs/v1', executionMode: 'async-job', taskKinds: ['video-generation'] },
};
const request: AsyncJobRequestV1 = { method: 'GET', path: '/job', headers: { accept: 'application/json' }, body: { type: 'none' } };

function definition(overrides: Partial<AsyncJobFamilyDefinitionV1<AsyncJobFamilyOptionsV1, AsyncJobRequestV1>> = {}): AsyncJobFamilyDefinitionV1<AsyncJobFamilyOptionsV1, AsyncJobRequestV1> {
  return {
    protocolFamily: 'kit-jobs/v1',
    transportMetadata: Object.freeze({ auth: Object.freeze({ scheme: 'bearer' as const }), fixedHeaders: Object.freeze({}) }),
    defaultMaxBodyBytes: 64,
    encodeStart: () => request,
    decodeStart: ({ outcome }) =>
      outcome.ok ? { acceptance: { state: 'accepted' }, responseMetadata: {}, providerJobId: 'j1' } : { acceptance: { state: 'not-accepted' }, responseMetadata: {}, failure: { code: 'provider-error', retryable: false } },
    readAnswer: ({ outcome }) => (outcome.ok ? { ok: true, value: outcome.value } : { ok: false, failure: { code: 'not-found', retryable: false } }),
    get: async (_input, kit) => {
      const answer = await kit.ask(request);
      if (!answer.ok) return answer.result;
      return kit.decode(() => {
        if (answer.value === null) throw new ProtocolViolationError('invalid-event', 'kit-jobs null');
        return { providerJobId: 'j1', state: 'running' as const };
      });
    },
    ...overrides,
  };
}

const operationInput = (responses: FixtureResponseV1[]) => ({ providerJobId: 'j1', target, transport: createFixtureTransportV1({ responses }), signal: new AbortController().signal });

describe('defineAsyncJobFamily', () => {
  it('declares exactly the operations given, in the order get, list, cancel', () => {
    const family = defineAsyncJobFamily(definition({ cancel: async () => ({ status: 'ok', value: null }) }));
    const factory = family.createAdapterFactory();
    expect(factory.jobOperations).toEqual(['get', 'cancel']);
    expect(Object.keys(factory.createAdapter()).sort()).toEqual(['cancel', 'get', 'start']);
    expect(family.createSuiteEntry()).toMatchObject({ execution: 'async', directHttp: false, protocolFamily: 'kit-jobs/v1' });
  });

  it('start: a codec error is not-accepted with nothing sent', async () => {
    const family = defineAsyncJobFamily(definition({ encodeStart: () => { throw new CodecErrorV1('unsupported-feature', 'no'); } }));
    const transport = createFixtureTransportV1({ responses: [] });
    const outcome = await family.createAdapterFactory().createAdapter().start({ task: { kind: 'video-generation', prompt: 'p' }, target, transport, signal: new AbortController().signal });
    expect(outcome).toEqual({ acceptance: { state: 'not-accepted' }, responseMetadata: {}, failure: { code: 'unsupported', retryable: false } });
    expect(transport.requests).toEqual([]);
  });

  it('operations: an HTTP failure, an oversized body and a protocol violation are failed results', async () => {
    const adapter = defineAsyncJobFamily(definition()).createAdapterFactory().createAdapter();
    expect(await adapter.get?.(operationInput([{ body: { type: 'text', text: '{"a":1}' } }]))).toEqual({ status: 'ok', value: { providerJobId: 'j1', state: 'running' } });
    expect(await adapter.get?.(operationInput([{ status: 404, body: { type: 'text', text: '{}' } }]))).toEqual({ status: 'failed', failure: { code: 'not-found', retryable: false } });
    expect(await adapter.get?.(operationInput([{ body: { type: 'text', text: 'null' } }]))).toEqual({ status: 'failed', failure: { code: 'protocol-violation', retryable: false } });
    expect(await adapter.get?.(operationInput([{ body: { type: 'text', text: `{"a":"${'x'.repeat(100)}"}` } }]))).toEqual({
      status: 'failed',
      failure: { code: 'protocol-violation', retryable: false },
    });
  });
});
