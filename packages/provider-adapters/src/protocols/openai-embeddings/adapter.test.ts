import { isProviderTransportFailureV1, type ProviderAdapterTargetV1, type ProviderTransport, type TaskEnvelopeV2 } from '@tokenforge/model-protocol';
import { describe, expect, it } from 'vitest';
import { createFixtureTransportV1, type FixtureResponseV1 } from '../../testing/fixture-transport.js';
import { OPENAI_EMBEDDING_JSON } from './__fixtures__/recorded-fixtures.js';
import { createOpenAiEmbeddingsAdapterFactory, type OpenAiEmbeddingsAdapterOptionsV1 } from './adapter.js';
import { OPENAI_RATE_LIMIT_EXAMPLE_FACTS, OPENAI_RATE_LIMIT_EXAMPLE_HEADERS } from '../../codec-kit/test-support/openai-rate-limit-example.js';

const target: ProviderAdapterTargetV1 = {
  providerModel: 'embed-model',
  capability: { protocolFamily: 'openai-embeddings/v1', executionMode: 'sync', taskKinds: ['embedding'], embedding: { spaceId: 'space', defaultDimensions: 5 } },
};
const task: TaskEnvelopeV2 = { kind: 'embedding', inputs: ['first', 'second'] };
const nowMs = Date.parse('2026-01-01T00:00:00Z');

async function execute(responses: FixtureResponseV1[], options: OpenAiEmbeddingsAdapterOptionsV1 = {}, taskValue: TaskEnvelopeV2 = task, signal = new AbortController().signal) {
  const transport = createFixtureTransportV1({ responses });
  const execution = await createOpenAiEmbeddingsAdapterFactory({ now: () => nowMs, ...options })
    .createAdapter()
    .execute({ task: taskValue, target, transport, signal });
  return { execution, transport };
}

describe('openai-embeddings adapter', () => {
  it('sends the request and decodes the recorded body (recorded: vercel-ai__openai-embedding.json)', async () => {
    const { execution, transport } = await execute([{ headers: { 'x-request-id': 'req_1' }, body: { type: 'text', text: OPENAI_EMBEDDING_JSON } }]);
    expect(transport.requests).toEqual([
      {
        method: 'POST',
        path: '/embeddings',
        headers: { accept: 'application/json' },
        body: { type: 'json', value: { model: 'embed-model', input: ['first', 'second'], encoding_format: 'base64' } },
      },
    ]);
    expect(execution).toMatchObject({
      kind: 'response',
      acceptance: { state: 'accepted' },
      responseMetadata: { providerRequestId: 'req_1', providerModel: 'text-embedding-3-small' },
      terminal: { status: 'completed', result: { kind: 'embedding', dimensions: 5, spaceId: 'space' }, usage: { inputTokens: 12, totalTokens: 12 } },
    });
    expect(transport.bodyStates()).toEqual(['finished']);
  });

  it('refuses a broken limit without calling the transport', async () => {
    const transport: ProviderTransport = { send: () => Promise.reject(new Error('must not be called')) };
    const execution = await createOpenAiEmbeddingsAdapterFactory()
      .createAdapter()
      .execute({ task: { kind: 'embedding', inputs: ['x'.repeat(70_000)] }, target, transport, signal: new AbortController().signal });
    expect(execution).toEqual({
      kind: 'response',
      acceptance: { state: 'not-accepted' },
      responseMetadata: {},
      terminal: { status: 'failed', failure: { code: 'invalid-request', retryable: false } },
    });
  });

  it('refuses a task of another kind as unsupported without calling the transport', async () => {
    const { execution, transport } = await execute([], {}, { kind: 'rerank', query: 'q', documents: ['d'] });
    expect(transport.requests).toEqual([]);
    expect(execution).toMatchObject({ acceptance: { state: 'not-accepted' }, terminal: { status: 'failed', failure: { code: 'unsupported' } } });
  });

  it('maps an OpenAI error envelope with retry hints (constructed)', async () => {
    const { execution } = await execute([
      {
        status: 429,
        headers: { 'retry-after-ms': '1500', 'x-request-id': 'req_2' },
        body: { type: 'json', value: { error: { message: 'quota', type: 'insufficient_quota', code: 'insufficient_quota', param: null } } },
      },
    ]);
    expect(execution).toEqual({
      kind: 'response',
      acceptance: { state: 'not-accepted' },
      responseMetadata: { providerRequestId: 'req_2', rateLimits: { retryAfterMs: 1500 } },
      terminal: { status: 'failed', failure: { code: 'quota-exceeded', retryable: false, retryAfterMs: 1500, providerCode: 'insufficient_quota' } },
    });
  });

  it('keeps the status default for an error body that is not an envelope, and marks 5xx acceptance unknown (constructed)', async () => {
    const { execution } = await execute([{ status: 503, headers: { 'retry-after': 'Thu, 01 Jan 2026 00:00:30 GMT' }, body: { type: 'text', text: '<html>busy</html>' } }]);
    expect(execution).toMatchObject({ acceptance: { state: 'unknown' }, terminal: { status: 'failed', failure: { code: 'overloaded', retryable: true, retryAfterMs: 30_000 } } });
    const malformed = await execute([{ status: 400, body: { type: 'json', value: { error: { code: { nested: true } } } } }]);
    expect(malformed.execution).toMatchObject({ acceptance: { state: 'not-accepted' }, terminal: { failure: { code: 'invalid-request', retryable: false } } });
  });

  it('turns an oversized, non-JSON or hostile 2xx body into a protocol violation with acceptance unknown (constructed)', async () => {
    const oversized = await execute([{ body: { type: 'text', text: OPENAI_EMBEDDING_JSON } }], { maxBodyBytes: 64 });
    expect(oversized.execution).toMatchObject({ acceptance: { state: 'unknown' }, terminal: { status: 'failed', failure: { code: 'protocol-violation' } } });
    expect(oversized.transport.bodyStates()).toEqual(['released']);
    for (const text of ['{"data": [', 'not json', '{"__proto__": {"data": []}}', `${'['.repeat(100)}${']'.repeat(100)}`]) {
      const { execution } = await execute([{ body: { type: 'text', text } }]);
      expect(execution).toMatchObject({ acceptance: { state: 'unknown' }, terminal: { status: 'failed', failure: { code: 'protocol-violation' } } });
    }
    const invalidUtf8 = await execute([{ body: { type: 'bytes', bytes: new Uint8Array([0x7b, 0xff, 0x7d]) } }]);
    expect(invalidUtf8.execution).toMatchObject({ terminal: { failure: { code: 'protocol-violation' } } });
  });

  it('turns a connection lost while reading into a retryable truncated-stream failure (constructed)', async () => {
    const { execution } = await execute([{ body: { type: 'text', text: OPENAI_EMBEDDING_JSON }, readSize: 16, bodyFailure: { afterBytes: 40 } }]);
    expect(execution).toMatchObject({ acceptance: { state: 'unknown' }, terminal: { status: 'failed', failure: { code: 'truncated-stream', retryable: true } } });
  });

  it('ends as cancelled when aborted while reading the body', async () => {
    const controller = new AbortController();
    const pending = execute([{ body: { type: 'text', text: OPENAI_EMBEDDING_JSON }, readSize: 8, readDelayMs: 20 }], {}, task, controller.signal);
    setTimeout(() => controller.abort(), 30);
    const { execution, transport } = await pending;
    expect(execution).toMatchObject({ terminal: { status: 'cancelled' } });
    expect(transport.bodyStates()[0]).not.toBe('reading');
  });

  it('rejects with the transport failure when no response head arrives', async () => {
    const rejection = await execute([{ failure: { stage: 'before-send' } }]).catch((error: unknown) => error);
    expect(isProviderTransportFailureV1(rejection)).toBe(true);
  });
});

describe('openai-embeddings adapter: rate-limit facts', () => {
  it('reads x-ratelimit-* into the response metadata', async () => {
    const { execution } = await execute([{ headers: OPENAI_RATE_LIMIT_EXAMPLE_HEADERS, body: { type: 'text', text: OPENAI_EMBEDDING_JSON } }]);
    expect(execution.responseMetadata).toMatchObject({ rateLimits: OPENAI_RATE_LIMIT_EXAMPLE_FACTS });
  });
});
