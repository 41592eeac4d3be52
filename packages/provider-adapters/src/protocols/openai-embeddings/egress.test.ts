import { createProtocolEngineTargetBindingV1, createProtocolEngineV1 } from '@tokenforge/protocol-engine';
import type { AdapterTerminalOutcome, EgressContextV1 } from '@tokenforge/model-protocol';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeBase64Float32, parseSafeJsonBytes } from '../../codec-kit/index.js';
import { createFixtureTransportV1 } from '../../testing/fixture-transport.js';
import { OPENAI_EMBEDDING_JSON } from './__fixtures__/recorded-fixtures.js';
import { createOpenAiEmbeddingsAdapterFactory } from './adapter.js';
import { createOpenAiEmbeddingsEgressCodec } from './egress.js';
import { encodeFloat32Base64 } from './encode-base64-float32.js';
import { decodeOpenAiEmbeddingsClientRequest } from './ingress.js';

const context: EgressContextV1 = { responseId: 'resp-1', modelLabel: 'client-model', createdAtMs: 1_700_000_000_000 };
const completed: AdapterTerminalOutcome = {
  status: 'completed',
  result: { kind: 'embedding', vectors: [new Float32Array([1, -2]), new Float32Array([0.5, 0.25])], dimensions: 2, spaceId: 's' },
  usage: { inputTokens: 4, totalTokens: 4 },
};

function json(bytes: Uint8Array): unknown {
  return parseSafeJsonBytes(bytes);
}

describe('openai-embeddings egress', () => {
  it('writes float vectors in input order with usage by default', () => {
    const response = createOpenAiEmbeddingsEgressCodec().encodeResponse(completed, context);
    expect(response.status).toBe(200);
    expect(response.headers).toEqual({ 'content-type': 'application/json' });
    expect(json(response.body)).toEqual({
      object: 'list',
      data: [
        { object: 'embedding', index: 0, embedding: [1, -2] },
        { object: 'embedding', index: 1, embedding: [0.5, 0.25] },
      ],
      model: 'client-model',
      usage: { prompt_tokens: 4, total_tokens: 4 },
    });
  });

  it('writes base64 vectors when created for a base64 client (fact sheet test vector)', () => {
    const body = json(createOpenAiEmbeddingsEgressCodec({ encodingFormat: 'base64' }).encodeResponse(completed, context).body) as { data: { embedding: string }[] };
    expect(body.data.map((item) => item.embedding)).toEqual(['AACAPwAAAMA=', 'AAAAPwAAgD4=']);
  });

  it('omits usage that was never reported and derives total from input', () => {
    const noUsage = { ...completed, usage: undefined } as AdapterTerminalOutcome;
    expect(json(createOpenAiEmbeddingsEgressCodec().encodeResponse(noUsage, context).body)).not.toHaveProperty('usage');
    const inputOnly = { ...completed, usage: { inputTokens: 3 } } as AdapterTerminalOutcome;
    expect(json(createOpenAiEmbeddingsEgressCodec().encodeResponse(inputOnly, context).body)).toHaveProperty('usage', { prompt_tokens: 3, total_tokens: 3 });
  });

  it('writes failures, cancellations and foreign results in the OpenAI error envelope', () => {
    const egress = createOpenAiEmbeddingsEgressCodec();
    const failed = egress.encodeResponse({ status: 'failed', failure: { code: 'rate-limited', retryable: true, retryAfterMs: 2500 } }, context);
    expect(failed.status).toBe(429);
    expect(failed.headers).toMatchObject({ 'retry-after': '3', 'x-should-retry': 'true' });
    expect(json(failed.body)).toMatchObject({ error: { type: 'rate_limit_error', code: 'rate_limit_exceeded', param: null } });
    expect(egress.encodeResponse({ status: 'cancelled' }, context).status).toBe(499);
    const foreign = egress.encodeResponse({ status: 'completed', result: { kind: 'rerank', results: [] } }, context);
    expect(foreign.status).toBe(500);
    expect(egress.encodeError({ source: 'ingress', code: 'unsupported-feature' }, context).status).toBe(400);
    expect(egress.encodeError({ source: 'ingress', code: 'body-too-large' }, context).status).toBe(413);
    expect(egress.createStreamEncoder).toBeUndefined();
  });

  it('base64 egress decodes back to the same vectors (property)', () => {
    fc.assert(
      fc.property(fc.array(fc.float({ noNaN: true, noDefaultInfinity: true }), { minLength: 1, maxLength: 200 }), (values) => {
        const vector = new Float32Array(values);
        expect(decodeBase64Float32(encodeFloat32Base64(vector))).toEqual(vector);
      }),
    );
  });

  it('serves an OpenAI client end to end: ingress, engine, adapter on recorded traffic, egress', async () => {
    const decoded = decodeOpenAiEmbeddingsClientRequest({ path: '/v1/embeddings', body: new TextEncoder().encode(JSON.stringify({ model: 'client-model', input: ['a', 'b'] })) });
    const engine = createProtocolEngineV1({
      registry: { listProtocolFamilies: () => ['openai-embeddings/v1'], require: () => createOpenAiEmbeddingsAdapterFactory() },
    });
    const transport = createFixtureTransportV1({ responses: [{ body: { type: 'text', text: OPENAI_EMBEDDING_JSON } }] });
    const binding = createProtocolEngineTargetBindingV1({
      target: {
        provider: 'opaque',
        providerModel: 'upstream-model',
        connectionRef: 'conn',
        capability: { protocolFamily: 'openai-embeddings/v1', executionMode: 'sync', taskKinds: ['embedding'], embedding: { spaceId: 's', defaultDimensions: 5 } },
      },
      bindTransport: () => transport,
    });
    const execution = await engine.execute({ binding, task: decoded.task, signal: new AbortController().signal });
    if (execution.kind !== 'response') throw new Error(`unexpected ${execution.kind}`);
    const body = json(createOpenAiEmbeddingsEgressCodec({ encodingFormat: decoded.clientEncodingFormat }).encodeResponse(execution.terminal, context).body) as {
      data: { index: number; embedding: number[] }[];
      usage: unknown;
    };
    expect(body.data.map((item) => item.index)).toEqual([0, 1]);
    expect(new Float32Array(body.data[1]?.embedding ?? [])).toEqual(new Float32Array([-0.037104916, -0.05178114, -0.008340587, 0.001164541, -0.0035253682]));
    expect(body.usage).toEqual({ prompt_tokens: 12, total_tokens: 12 });
  });
});
