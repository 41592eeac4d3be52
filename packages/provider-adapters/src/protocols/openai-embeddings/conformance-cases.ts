import type { EmbeddingTaskV2, ProviderDispatchTargetV2 } from '@tokenforge/model-protocol';
import type { ConformanceCaseV1, ConformanceExpectedRequestV1 } from '../../conformance/conformance-case-v1.js';
import { OPENAI_EMBEDDING_JSON } from './__fixtures__/recorded-fixtures.js';

function target(defaultDimensions: number, extra: { allowedDimensions?: number[]; maxInputs?: number } = {}): ProviderDispatchTargetV2 {
  return {
    provider: 'conformance-provider',
    providerModel: 'openai-embeddings-conformance-model',
    connectionRef: 'conformance-connection',
    capability: {
      protocolFamily: 'openai-embeddings/v1',
      executionMode: 'sync',
      taskKinds: ['embedding'],
      embedding: { spaceId: 'conformance-space', defaultDimensions, ...extra },
    },
  };
}

const twoInputs: EmbeddingTaskV2 = { kind: 'embedding', inputs: ['sunny day at the beach', 'rainy day in the city'] };

function request(inputs: readonly string[], extra: Record<string, unknown> = {}): ConformanceExpectedRequestV1 {
  return {
    method: 'POST',
    path: '/embeddings',
    headers: { accept: 'application/json' },
    body: { type: 'json', value: { model: 'openai-embeddings-conformance-model', input: inputs, encoding_format: 'base64', ...extra } },
  };
}

const recordedVectors = [
  new Float32Array([0.0057293195, -0.012727811, 0.020042092, -0.013437585, 0.022833068]),
  new Float32Array([-0.037104916, -0.05178114, -0.008340587, 0.001164541, -0.0035253682]),
];

const violation = { status: 'failed', failure: { code: 'protocol-violation', retryable: false } } as const;

/**
 * Conformance cases of `openai-embeddings/v1`: the recorded vercel/ai body (float arrays, although base64 was asked:
 * the decoder reads both) and constructed edge cases from §1 of the media wire fact sheet.
 */
export const openAiEmbeddingsConformanceCases: readonly ConformanceCaseV1[] = [
  {
    name: 'recorded float vectors answer a base64 request',
    target: target(5),
    task: twoInputs,
    responses: [{ label: 'vercel-ai__openai-embedding.json', source: 'recorded', headers: { 'x-request-id': 'req-conformance' }, body: { type: 'text', text: OPENAI_EMBEDDING_JSON } }],
    expect: {
      kind: 'response',
      acceptance: 'accepted',
      responseMetadata: { providerRequestId: 'req-conformance', providerModel: 'text-embedding-3-small' },
      terminal: {
        status: 'completed',
        result: { kind: 'embedding', vectors: recordedVectors, dimensions: 5, spaceId: 'conformance-space' },
        usage: { inputTokens: 12, totalTokens: 12 },
      },
    },
    requests: [request(twoInputs.inputs)],
  },
  {
    name: 'base64 vectors out of order are placed by index, shortened dimensions are sent',
    target: target(3, { allowedDimensions: [2] }),
    task: { ...twoInputs, dimensions: 2 },
    responses: [
      {
        label: 'constructed: base64 data in reverse order (fact sheet §1 test vectors)',
        source: 'constructed',
        body: {
          type: 'json',
          value: {
            object: 'list',
            data: [
              { object: 'embedding', index: 1, embedding: 'AAAAPwAAgD4=' },
              { object: 'embedding', index: 0, embedding: 'AACAPwAAAMA=' },
            ],
            model: 'm',
            usage: { prompt_tokens: 9, total_tokens: 9 },
          },
        },
      },
    ],
    expect: {
      kind: 'response',
      acceptance: 'accepted',
      responseMetadata: { providerModel: 'm' },
      terminal: {
        status: 'completed',
        result: { kind: 'embedding', vectors: [new Float32Array([1, -2]), new Float32Array([0.5, 0.25])], dimensions: 2, spaceId: 'conformance-space' },
        usage: { inputTokens: 9, totalTokens: 9 },
      },
    },
    requests: [request(twoInputs.inputs, { dimensions: 2 })],
  },
  {
    name: 'a vector of the wrong length is a protocol violation',
    target: target(3),
    task: { kind: 'embedding', inputs: ['one'] },
    responses: [{ label: 'constructed: 2-dimension vector for a 3-dimension space', source: 'constructed', body: { type: 'json', value: { data: [{ index: 0, embedding: 'AACAPwAAAMA=' }] } } }],
    expect: { kind: 'response', acceptance: 'accepted', terminal: violation },
    requests: [request(['one'])],
  },
  {
    name: 'a repeated index is a protocol violation',
    target: target(2),
    task: twoInputs,
    responses: [
      {
        label: 'constructed: index 0 twice',
        source: 'constructed',
        body: { type: 'json', value: { data: [{ index: 0, embedding: [1, 2] }, { index: 0, embedding: [3, 4] }] } },
      },
    ],
    expect: { kind: 'response', acceptance: 'accepted', terminal: violation },
    requests: [request(twoInputs.inputs)],
  },
  {
    name: 'an input past the length bound is refused before sending',
    target: target(2),
    task: { kind: 'embedding', inputs: ['ok', 'x'.repeat(65_537)] },
    responses: [],
    expect: { kind: 'response', acceptance: 'not-accepted', terminal: { status: 'failed', failure: { code: 'invalid-request', retryable: false } } },
    requests: [],
  },
  {
    name: '429 with retry-after is a retryable rate limit',
    target: target(2),
    task: { kind: 'embedding', inputs: ['one'] },
    responses: [
      {
        label: 'constructed: OpenAI rate-limit envelope',
        source: 'constructed',
        status: 429,
        headers: { 'retry-after': '7' },
        body: { type: 'json', value: { error: { message: 'Rate limit reached', type: 'requests', code: 'rate_limit_exceeded', param: null } } },
      },
    ],
    expect: {
      kind: 'response',
      acceptance: 'not-accepted',
      responseMetadata: { rateLimits: { retryAfterMs: 7000 } },
      terminal: { status: 'failed', failure: { code: 'rate-limited', retryable: true, retryAfterMs: 7000, providerCode: 'rate_limit_exceeded' } },
    },
    requests: [request(['one'])],
  },
];
