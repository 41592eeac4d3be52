import type { EgressContextV1 } from '@tokenforge/model-protocol';
import { describe, expect, it } from 'vitest';
import { parseSafeJsonBytes } from '../../codec-kit/index.js';
import { createCohereRerankEgressCodec } from './egress.js';

const egress = createCohereRerankEgressCodec();
const context: EgressContextV1 = { responseId: 'host-id', modelLabel: 'm', createdAtMs: 0 };

describe('cohere-rerank egress', () => {
  it('writes results and only the meta it knows', () => {
    const response = egress.encodeResponse(
      { status: 'completed', result: { kind: 'rerank', results: [{ index: 3, relevanceScore: 0.5 }] }, usage: { inputTokens: 10, totalTokens: 10 } },
      context,
    );
    expect(response).toMatchObject({ status: 200, headers: { 'content-type': 'application/json' } });
    expect(parseSafeJsonBytes(response.body)).toEqual({
      id: 'host-id',
      results: [{ index: 3, relevance_score: 0.5 }],
      meta: { api_version: { version: '2' }, tokens: { input_tokens: 10 } },
    });
    const bare = egress.encodeResponse({ status: 'completed', result: { kind: 'rerank', results: [] } }, context);
    expect(parseSafeJsonBytes(bare.body)).toEqual({ id: 'host-id', results: [], meta: { api_version: { version: '2' } } });
  });

  it('writes failures in the {id, message} envelope with status and retry-after', () => {
    const limited = egress.encodeResponse({ status: 'failed', failure: { code: 'rate-limited', retryable: true, retryAfterMs: 1200, providerCode: 'x' } }, context);
    expect(limited.status).toBe(429);
    expect(limited.headers).toEqual({ 'content-type': 'application/json', 'retry-after': '2' });
    expect(parseSafeJsonBytes(limited.body)).toEqual({ id: 'host-id', message: 'The upstream rate limit was reached.' });
    expect(egress.encodeResponse({ status: 'failed', failure: { code: 'authentication', retryable: false } }, context).status).toBe(502);
    expect(egress.encodeResponse({ status: 'cancelled' }, context).status).toBe(499);
    expect(egress.encodeResponse({ status: 'completed', result: { kind: 'chat', content: [] } }, context).status).toBe(500);
    expect(egress.encodeError({ source: 'ingress', code: 'unsupported-feature' }, context).status).toBe(422);
    expect(egress.encodeError({ source: 'ingress', code: 'malformed-json' }, context).status).toBe(400);
    expect(egress.encodeError({ source: 'engine', code: 'PROTOCOL_ENGINE_TRANSPORT_FAILED' }, context).status).toBe(502);
    expect(egress.encodeError({ source: 'engine', code: 'PROTOCOL_ENGINE_PROVIDER_FAILED' }, context).status).toBe(502);
    expect(egress.encodeError({ source: 'engine', code: 'PROTOCOL_ENGINE_ABORTED' }, context).status).toBe(499);
    expect(egress.encodeError({ source: 'engine', code: 'SOMETHING_NEW' }, context).status).toBe(500);
  });
});
