import type { ProviderDispatchTargetV2, RerankTaskV2 } from '@tokenforge/model-protocol';
import type { ConformanceCaseV1, ConformanceExpectedRequestV1 } from '../../conformance/conformance-case-v1.js';
import { COHERE_RERANKING_JSON, TOGETHERAI_RERANKING_JSON, VOYAGE_RERANKING_JSON } from './__fixtures__/recorded-fixtures.js';

const target: ProviderDispatchTargetV2 = {
  provider: 'conformance-provider',
  providerModel: 'cohere-rerank-conformance-model',
  connectionRef: 'conformance-connection',
  capability: { protocolFamily: 'cohere-rerank/v1', executionMode: 'sync', taskKinds: ['rerank'] },
};

const sixDocuments = ['sunny day at the beach', 'rainy day in the city', 'snowy mountain', 'desert noon', 'foggy harbour', 'windy plain'];

function task(documents: readonly string[], topN?: number): RerankTaskV2 {
  return { kind: 'rerank', query: 'talk about rain', documents: [...documents], ...(topN === undefined ? {} : { topN }) };
}

function request(documents: readonly string[], topN?: number): ConformanceExpectedRequestV1 {
  return {
    method: 'POST',
    path: '/v2/rerank',
    headers: { accept: 'application/json' },
    body: {
      type: 'json',
      value: { model: 'cohere-rerank-conformance-model', query: 'talk about rain', documents: [...documents], ...(topN === undefined ? {} : { top_n: topN }) },
    },
  };
}

const violation = { status: 'failed', failure: { code: 'protocol-violation', retryable: false } } as const;

/**
 * Conformance cases of `cohere-rerank/v1`: recorded Cohere v2, Together and Voyage bodies (see
 * `__fixtures__/NOTICE.md`), chosen by structure, and constructed edge cases from §3 of the media wire fact sheet.
 */
export const cohereRerankConformanceCases: readonly ConformanceCaseV1[] = [
  {
    name: 'recorded Cohere v2 answer with search units',
    target,
    task: task(sixDocuments.slice(0, 2), 2),
    responses: [{ label: 'vercel-ai__cohere-reranking.1.json', source: 'recorded', headers: { 'x-trace-id': 'trace-conformance' }, body: { type: 'text', text: COHERE_RERANKING_JSON } }],
    expect: {
      kind: 'response',
      acceptance: 'accepted',
      responseMetadata: { providerRequestId: 'trace-conformance' },
      terminal: {
        status: 'completed',
        result: { kind: 'rerank', results: [{ index: 1, relevanceScore: 0.10183054 }, { index: 0, relevanceScore: 0.03762639 }] },
        usage: { searchUnits: 1 },
      },
    },
    requests: [request(sixDocuments.slice(0, 2), 2)],
  },
  {
    name: 'recorded Together answer (Jina-compatible shape with object documents and usage)',
    target,
    task: task(sixDocuments, 2),
    responses: [{ label: 'vercel-ai__togetherai-reranking.1.json', source: 'recorded', body: { type: 'text', text: TOGETHERAI_RERANKING_JSON } }],
    expect: {
      kind: 'response',
      acceptance: 'accepted',
      terminal: {
        status: 'completed',
        result: { kind: 'rerank', results: [{ index: 0, relevanceScore: 0.6475887154399037 }, { index: 5, relevanceScore: 0.6323295373206566 }] },
        usage: { inputTokens: 2966, outputTokens: 0, totalTokens: 2966 },
      },
    },
    requests: [request(sixDocuments, 2)],
  },
  {
    name: 'recorded Voyage answer (data instead of results), top_n clamped to the document count',
    target,
    task: task(sixDocuments.slice(0, 2), 5),
    responses: [{ label: 'vercel-ai__voyage-reranking.1.json', source: 'recorded', body: { type: 'text', text: VOYAGE_RERANKING_JSON } }],
    expect: {
      kind: 'response',
      acceptance: 'accepted',
      terminal: {
        status: 'completed',
        result: { kind: 'rerank', results: [{ index: 1, relevanceScore: 0.5703125 }, { index: 0, relevanceScore: 0.255859375 }] },
        usage: { totalTokens: 12 },
      },
    },
    requests: [request(sixDocuments.slice(0, 2), 2)],
  },
  {
    name: 'unsorted results from a server that ignores top_n are sorted and cut',
    target,
    task: task(sixDocuments.slice(0, 4), 2),
    responses: [
      {
        label: 'constructed: TEI bare array in input order (fact sheet §3d)',
        source: 'constructed',
        body: { type: 'json', value: [{ index: 0, score: 0.1 }, { index: 1, score: 0.9 }, { index: 2, score: 0.5 }, { index: 3, score: 0.7 }] },
      },
    ],
    expect: {
      kind: 'response',
      acceptance: 'accepted',
      terminal: { status: 'completed', result: { kind: 'rerank', results: [{ index: 1, relevanceScore: 0.9 }, { index: 3, relevanceScore: 0.7 }] } },
    },
    requests: [request(sixDocuments.slice(0, 4), 2)],
  },
  {
    name: 'an index outside the documents is a protocol violation',
    target,
    task: task(sixDocuments.slice(0, 2)),
    responses: [{ label: 'constructed: index 2 of 2 documents', source: 'constructed', body: { type: 'json', value: { results: [{ index: 2, relevance_score: 0.5 }] } } }],
    expect: { kind: 'response', acceptance: 'accepted', terminal: violation },
    requests: [request(sixDocuments.slice(0, 2))],
  },
  {
    name: 'a non-numeric score is a protocol violation',
    target,
    task: task(sixDocuments.slice(0, 2)),
    responses: [{ label: 'constructed: score "NaN"', source: 'constructed', body: { type: 'json', value: { results: [{ index: 0, relevance_score: 'NaN' }] } } }],
    expect: { kind: 'response', acceptance: 'accepted', terminal: violation },
    requests: [request(sixDocuments.slice(0, 2))],
  },
  {
    name: 'a Cohere 429 with retry-after is a retryable rate limit',
    target,
    task: task(sixDocuments.slice(0, 2)),
    responses: [
      { label: 'constructed: Cohere {message} envelope', source: 'constructed', status: 429, headers: { 'retry-after': '3' }, body: { type: 'json', value: { id: 'x', message: 'too many requests' } } },
    ],
    expect: {
      kind: 'response',
      acceptance: 'not-accepted',
      responseMetadata: { rateLimits: { retryAfterMs: 3000 } },
      terminal: { status: 'failed', failure: { code: 'rate-limited', retryable: true, retryAfterMs: 3000 } },
    },
    requests: [request(sixDocuments.slice(0, 2))],
  },
];
