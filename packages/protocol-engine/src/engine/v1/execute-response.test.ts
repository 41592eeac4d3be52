import { ProviderTransportFailureV1, type ProtocolCapabilityV2, type ProtocolFamily, type TaskEnvelopeV2 } from '@tokenforge/model-protocol';
import { describe, expect, it } from 'vitest';
import { isProtocolEngineErrorV1 } from '../../error/v1/protocol-engine-error-v1.js';
import {
  CHAT_FAMILY,
  SECRET_CONNECTION,
  SECRET_MODEL,
  SECRET_PROMPT,
  SECRET_PROVIDER,
  chatTask,
  completedChat,
  countingBinding,
  fakeTransport,
  makeTarget,
  newSignal,
  registryOf,
  respondWith,
  syncFactory,
} from '../../test-support/fakes.js';
import { createProtocolEngineV1 } from './create-protocol-engine-v1.js';

const FAMILY = 'fake-any/v1' as ProtocolFamily;
const capability = (overrides: Partial<ProtocolCapabilityV2> = {}): ProtocolCapabilityV2 => ({
  protocolFamily: FAMILY,
  executionMode: 'sync',
  taskKinds: ['chat', 'embedding', 'image-generation', 'rerank'],
  embedding: { spaceId: 'space-a', defaultDimensions: 3 },
  ...overrides,
});

async function run(adapterExecution: unknown, task: TaskEnvelopeV2 = chatTask(), targetCapability = capability()) {
  const factory = syncFactory(() => (typeof adapterExecution === 'function' ? adapterExecution() : adapterExecution) as never, FAMILY);
  const engine = createProtocolEngineV1({ registry: registryOf([factory]) });
  return { execution: await engine.execute({ binding: countingBinding(makeTarget(targetCapability)).binding, task, signal: newSignal() }), factory };
}

async function failure(adapterExecution: unknown, task?: TaskEnvelopeV2, targetCapability?: ProtocolCapabilityV2) {
  try {
    await run(adapterExecution, task, targetCapability);
  } catch (error) {
    if (!isProtocolEngineErrorV1(error)) throw error;
    for (const secret of [SECRET_PROVIDER, SECRET_MODEL, SECRET_PROMPT, SECRET_CONNECTION]) expect(error.message).not.toContain(secret);
    return error.code;
  }
  throw new Error('expected a failure');
}

const response = (terminal: unknown, extra: Record<string, unknown> = {}) => respondWith(terminal, extra)();
const embedding = (vectors: Float32Array[], dimensions = 3, extra: Record<string, unknown> = {}) =>
  response({ status: 'completed', result: { kind: 'embedding', vectors, dimensions, ...extra } });
const rerankTask: TaskEnvelopeV2 = { kind: 'rerank', query: 'q', documents: ['a', 'b', 'c'], topN: 2 };
const rerank = (results: unknown[]) => response({ status: 'completed', result: { kind: 'rerank', results } });
const images = (count: number, image: Record<string, unknown> = { base64: 'AAAA' }) =>
  response({ status: 'completed', result: { kind: 'image-generation', images: Array.from({ length: count }, () => image) } });

describe('engine.execute: response', () => {
  it('returns validated, frozen facts without echoing the target, and hands the adapter only dispatch facts', async () => {
    const { execution, factory } = await run(response(completedChat('hi'), { responseMetadata: { providerRequestId: 'req-9' } }));
    expect(execution).toEqual({
      apiVersion: 'tokenforge-protocol-engine/v1',
      kind: 'response',
      acceptance: { state: 'accepted' },
      responseMetadata: { providerRequestId: 'req-9' },
      terminal: completedChat('hi'),
    });
    expect(Object.isFrozen(execution)).toBe(true);
    expect(execution.kind === 'response' && Object.isFrozen(execution.terminal)).toBe(true);
    const serialized = JSON.stringify(execution);
    for (const secret of [SECRET_PROVIDER, SECRET_CONNECTION]) expect(serialized).not.toContain(secret);
    const input = factory.inputs[0];
    expect(Object.keys(input?.target ?? {}).sort()).toEqual(['capability', 'providerModel']);
    expect(input?.target.providerModel).toBe(SECRET_MODEL);
  });

  it('returns a provider failure as a failed terminal fact', async () => {
    const failed = { status: 'failed', failure: { code: 'rate-limited', retryable: true, retryAfterMs: 1000 } };
    const { execution } = await run(response(failed, { acceptance: { state: 'not-accepted' } }));
    expect(execution.kind === 'response' && execution.terminal).toEqual(failed);
  });

  it('maps a thrown transport failure to TRANSPORT_FAILED and anything else thrown to ADAPTER_FAILED', async () => {
    expect(
      await failure(() => {
        throw new ProviderTransportFailureV1('before-send', 'connect-failed');
      }),
    ).toBe('PROTOCOL_ENGINE_TRANSPORT_FAILED');
    expect(
      await failure(() => {
        throw new Error(`provider said ${SECRET_PROMPT}`);
      }),
    ).toBe('PROTOCOL_ENGINE_ADAPTER_FAILED');
  });

  it('maps an adapter failure after the host aborted to ABORTED', async () => {
    const controller = new AbortController();
    const factory = syncFactory(() => {
      controller.abort();
      throw new Error('aborted');
    });
    const engine = createProtocolEngineV1({ registry: registryOf([factory]) });
    await expect(engine.execute({ binding: countingBinding().binding, task: chatTask(), signal: controller.signal })).rejects.toMatchObject({
      code: 'PROTOCOL_ENGINE_ABORTED',
      phase: 'lifecycle',
    });
  });

  it('reports a throwing createAdapter as ADAPTER_FAILED before binding', async () => {
    const engine = createProtocolEngineV1({
      registry: registryOf([
        {
          protocolFamily: CHAT_FAMILY,
          createAdapter: () => {
            throw new Error('broken');
          },
        },
      ]),
    });
    const { binding, calls } = countingBinding();
    await expect(engine.execute({ binding, task: chatTask(), signal: newSignal() })).rejects.toMatchObject({ code: 'PROTOCOL_ENGINE_ADAPTER_FAILED' });
    expect(calls.count).toBe(0);
  });

  const invalidOutputs: [string, unknown, TaskEnvelopeV2?][] = [
    ['a non-object execution', 42],
    ['a stream for a non-stream task', { kind: 'stream', acceptance: { state: 'accepted' }, responseMetadata: {}, parts: [] }],
    ['an undeclared execution field', response(completedChat(), { debug: { raw: 'x' } })],
    ['bad acceptance', response(completedChat(), { acceptance: { state: 'maybe' } })],
    ['acceptance with an extra field', response(completedChat(), { acceptance: { state: 'accepted', status: 200 } })],
    ['metadata with an extra field', response(completedChat(), { responseMetadata: { headers: {} } })],
    ['a terminal with an extra field', response({ ...completedChat(), providerPayload: {} })],
    ['a result with an extra field', response({ status: 'completed', result: { kind: 'chat', content: [], raw: {} } })],
    ['a completed terminal that was not accepted', response(completedChat(), { acceptance: { state: 'unknown' } })],
    ['a result kind other than the task kind', rerank([])],
    ['inconsistent usage', response({ ...completedChat(), usage: { inputTokens: 1, outputTokens: 1, totalTokens: 1 } })],
    ['a vector count other than the input count', embedding([new Float32Array(3)]), { kind: 'embedding', inputs: ['a', 'b'] }],
    ['dimensions other than requested', embedding([new Float32Array(4)], 4), { kind: 'embedding', inputs: ['a'] }],
    ['a vector of another length', embedding([new Float32Array(2)]), { kind: 'embedding', inputs: ['a'] }],
    ['a vector from another space', embedding([new Float32Array(3)], 3, { spaceId: 'space-b' }), { kind: 'embedding', inputs: ['a'] }],
    ['a non-finite vector value', embedding([new Float32Array([0, Number.NaN, 0])]), { kind: 'embedding', inputs: ['a'] }],
    ['a rerank index outside the documents', rerank([{ index: 3, relevanceScore: 1 }]), rerankTask],
    ['a repeated rerank index', rerank([{ index: 1, relevanceScore: 1 }, { index: 1, relevanceScore: 0.5 }]), rerankTask],
    ['more rerank results than topN', rerank([{ index: 0, relevanceScore: 3 }, { index: 1, relevanceScore: 2 }, { index: 2, relevanceScore: 1 }]), rerankTask],
    ['rerank results out of order', rerank([{ index: 0, relevanceScore: 1 }, { index: 1, relevanceScore: 2 }]), rerankTask],
    ['more images than requested', images(2), { kind: 'image-generation', prompt: 'p' }],
    ['an image without bytes or url', images(1, { mediaType: 'image/png' }), { kind: 'image-generation', prompt: 'p' }],
    ['an image url with userinfo', images(1, { url: 'https://u:p@cdn.example/i.png' }), { kind: 'image-generation', prompt: 'p' }],
  ];
  for (const [name, output, task] of invalidOutputs) {
    it(`refuses ${name} with ADAPTER_OUTPUT_INVALID`, async () => {
      expect(await failure(output, task)).toBe('PROTOCOL_ENGINE_ADAPTER_OUTPUT_INVALID');
    });
  }

  it('accepts valid embedding, rerank and image results', async () => {
    expect((await run(embedding([new Float32Array(3), new Float32Array(3)], 3, { spaceId: 'space-a' }), { kind: 'embedding', inputs: ['a', 'b'] })).execution.kind).toBe(
      'response',
    );
    expect((await run(rerank([{ index: 2, relevanceScore: 0.9 }, { index: 0, relevanceScore: 0.9 }]), rerankTask)).execution.kind).toBe('response');
    expect((await run(images(2, { url: 'https://cdn.example/i.png' }), { kind: 'image-generation', prompt: 'p', count: 2 })).execution.kind).toBe(
      'response',
    );
  });

  it('does not branch on provider or model names: targets differing only in them yield identical facts', async () => {
    const outputs = [];
    for (const [provider, providerModel] of [
      ['vendor-a', 'model-a'],
      ['vendor-b', 'completely-different-model'],
    ] as const) {
      const factory = syncFactory(respondWith(completedChat('same')));
      const engine = createProtocolEngineV1({ registry: registryOf([factory]) });
      const target = { ...makeTarget(), provider, providerModel };
      outputs.push(await engine.execute({ binding: countingBinding(target, fakeTransport()).binding, task: chatTask(), signal: newSignal() }));
    }
    expect(outputs[0]).toEqual(outputs[1]);
  });
});
