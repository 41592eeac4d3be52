import { createProtocolEngineTargetBindingV1, createProtocolEngineV1 } from '@tokenforge/protocol-engine';
import { isProviderTransportFailureV1, type EgressContextV1, type ProviderAdapterTargetV1, type TaskEnvelopeV2 } from '@tokenforge/model-protocol';
import { describe, expect, it } from 'vitest';
import { parseSafeJsonBytes } from '../../codec-kit/index.js';
import { createFixtureTransportV1, type FixtureResponseV1 } from '../../testing/fixture-transport.js';
import { COHERE_RERANKING_JSON, VOYAGE_RERANKING_JSON } from './__fixtures__/recorded-fixtures.js';
import { createCohereRerankAdapterFactory, type CohereRerankAdapterOptionsV1 } from './adapter.js';
import { createCohereRerankEgressCodec } from './egress.js';
import { createCohereRerankIngressCodec } from './ingress.js';

const target: ProviderAdapterTargetV1 = { providerModel: 'rerank-v3.5', capability: { protocolFamily: 'cohere-rerank/v1', executionMode: 'sync', taskKinds: ['rerank'] } };
const rerank: TaskEnvelopeV2 = { kind: 'rerank', query: 'q', documents: ['a', 'b'], topN: 2 };
const nowMs = Date.parse('2026-01-01T00:00:00Z');

async function execute(responses: FixtureResponseV1[], options: CohereRerankAdapterOptionsV1 = {}, task: TaskEnvelopeV2 = rerank) {
  const transport = createFixtureTransportV1({ responses });
  const execution = await createCohereRerankAdapterFactory({ now: () => nowMs, ...options })
    .createAdapter()
    .execute({ task, target, transport, signal: new AbortController().signal });
  return { execution, transport };
}

describe('cohere-rerank adapter', () => {
  it('sends the v2 request and decodes the recorded Cohere body (recorded)', async () => {
    const { execution, transport } = await execute([{ headers: { 'x-request-id': 'req-7' }, body: { type: 'text', text: COHERE_RERANKING_JSON } }]);
    expect(transport.requests).toEqual([
      { method: 'POST', path: '/v2/rerank', headers: { accept: 'application/json' }, body: { type: 'json', value: { model: 'rerank-v3.5', query: 'q', documents: ['a', 'b'], top_n: 2 } } },
    ]);
    expect(execution).toMatchObject({ acceptance: { state: 'accepted' }, responseMetadata: { providerRequestId: 'req-7' }, terminal: { status: 'completed', usage: { searchUnits: 1 } } });
  });

  it('talks to a Voyage-style server with the path and top_k options (recorded body)', async () => {
    const { execution, transport } = await execute([{ body: { type: 'text', text: VOYAGE_RERANKING_JSON } }], { path: '/rerank', topNField: 'top_k' });
    expect(transport.requests[0]).toMatchObject({ path: '/rerank', body: { value: { top_k: 2 } } });
    expect(execution).toMatchObject({ terminal: { status: 'completed', usage: { totalTokens: 12 } } });
  });

  it.each([
    [498, { message: 'invalid api token' }, {}, { code: 'authentication', retryable: false }, 'not-accepted'],
    [501, { message: 'not implemented' }, {}, { code: 'unsupported', retryable: false }, 'unknown'],
    [422, { message: 'unknown field: parameter top_k is not a valid field' }, {}, { code: 'invalid-request', retryable: false }, 'not-accepted'],
    [400, { error: { message: 'x', type: 'invalid_request_error', code: 'model_not_found' } }, {}, { code: 'not-found', retryable: false, providerCode: 'model_not_found' }, 'not-accepted'],
    [429, { detail: 'slow down' }, { 'retry-after-ms': '250' }, { code: 'rate-limited', retryable: true, retryAfterMs: 250 }, 'not-accepted'],
    [503, { error: 'Service Unavailable' }, {}, { code: 'overloaded', retryable: true }, 'unknown'],
  ])('maps HTTP %i to a normalized failure (constructed)', async (status, body, headers, failure, acceptance) => {
    const { execution } = await execute([{ status, headers, body: { type: 'json', value: body } }]);
    // A retry-after wait is a rate-limit fact of the response head too (Cohere sends no x-ratelimit-* windows).
    const retryAfterMs = 'retryAfterMs' in failure ? failure.retryAfterMs : undefined;
    const rateLimits = retryAfterMs === undefined ? undefined : { retryAfterMs };
    const responseMetadata = rateLimits === undefined ? {} : { rateLimits };
    expect(execution).toEqual({ kind: 'response', acceptance: { state: acceptance }, responseMetadata, terminal: { status: 'failed', failure } });
  });

  it('refuses a foreign task without calling the transport, and types unreadable bodies', async () => {
    const foreign = await execute([], {}, { kind: 'embedding', inputs: ['a'] });
    expect(foreign.transport.requests).toEqual([]);
    expect(foreign.execution).toMatchObject({ acceptance: { state: 'not-accepted' }, terminal: { failure: { code: 'unsupported' } } });
    const oversized = await execute([{ body: { type: 'text', text: COHERE_RERANKING_JSON } }], { maxBodyBytes: 16 });
    expect(oversized.execution).toMatchObject({ acceptance: { state: 'unknown' }, terminal: { failure: { code: 'protocol-violation' } } });
    const truncated = await execute([{ body: { type: 'text', text: COHERE_RERANKING_JSON }, readSize: 10, bodyFailure: { afterBytes: 30 } }]);
    expect(truncated.execution).toMatchObject({ terminal: { failure: { code: 'truncated-stream', retryable: true } } });
    const rejection = await execute([{ failure: { stage: 'before-send' } }]).catch((error: unknown) => error);
    expect(isProviderTransportFailureV1(rejection)).toBe(true);
  });

  it('ends as cancelled and releases the body when aborted while reading', async () => {
    const controller = new AbortController();
    const transport = createFixtureTransportV1({ responses: [{ body: { type: 'text', text: COHERE_RERANKING_JSON }, readSize: 8, readDelayMs: 20 }] });
    const pending = createCohereRerankAdapterFactory().createAdapter().execute({ task: rerank, target, transport, signal: controller.signal });
    setTimeout(() => controller.abort(), 30);
    expect(await pending).toMatchObject({ terminal: { status: 'cancelled' } });
    expect(transport.bodyStates()[0]).not.toBe('reading');
  });

  it('serves a Cohere client end to end: ingress, engine, adapter on recorded traffic, egress', async () => {
    const clientBody = { model: 'client-rerank', query: 'talk about rain', documents: ['sunny', 'rainy'], top_n: 2, max_tokens_per_doc: 512 };
    const decoded = createCohereRerankIngressCodec().decodeRequest({ path: '/v2/rerank', body: new TextEncoder().encode(JSON.stringify(clientBody)) });
    const engine = createProtocolEngineV1({ registry: { listProtocolFamilies: () => ['cohere-rerank/v1'], require: () => createCohereRerankAdapterFactory() } });
    const transport = createFixtureTransportV1({ responses: [{ body: { type: 'text', text: COHERE_RERANKING_JSON } }] });
    const binding = createProtocolEngineTargetBindingV1({
      target: { provider: 'opaque', providerModel: 'rerank-v3.5', connectionRef: 'conn', capability: target.capability },
      bindTransport: () => transport,
    });
    const execution = await engine.execute({ binding, task: decoded.task, signal: new AbortController().signal });
    if (execution.kind !== 'response') throw new Error(`unexpected ${execution.kind}`);
    const context: EgressContextV1 = { responseId: 'host-id', modelLabel: decoded.modelLabel, createdAtMs: 0 };
    const response = createCohereRerankEgressCodec().encodeResponse(execution.terminal, context);
    expect(parseSafeJsonBytes(response.body)).toEqual({
      id: 'host-id',
      results: [
        { index: 1, relevance_score: 0.10183054 },
        { index: 0, relevance_score: 0.03762639 },
      ],
      meta: { api_version: { version: '2' }, billed_units: { search_units: 1 } },
    });
  });
});
