import { createProtocolEngineTargetBindingV1, createProtocolEngineV1 } from '@tokenforge/protocol-engine';
import { isCodecErrorV1, isProviderTransportFailureV1, type EgressContextV1, type ProviderAdapterTargetV1, type ProviderTransport, type TaskEnvelopeV2 } from '@tokenforge/model-protocol';
import { describe, expect, it } from 'vitest';
import { parseSafeJsonBytes } from '../../codec-kit/index.js';
import { createFixtureTransportV1, type FixtureResponseV1 } from '../../testing/fixture-transport.js';
import { GPT_IMAGE_RESPONSE_FORMAT_ERROR_JSON, OPENAI_IMAGE_JSON } from './__fixtures__/recorded-fixtures.js';
import { createOpenAiImagesAdapterFactory } from './adapter.js';
import { createOpenAiImagesEgressCodec } from './egress.js';
import { createOpenAiImagesIngressCodec } from './ingress.js';
import { mapOpenAiImagesHttpError } from './map-error.js';
import { OPENAI_RATE_LIMIT_EXAMPLE_FACTS, OPENAI_RATE_LIMIT_EXAMPLE_HEADERS } from '../../codec-kit/test-support/openai-rate-limit-example.js';

const target: ProviderAdapterTargetV1 = {
  providerModel: 'gpt-image-1',
  capability: { protocolFamily: 'openai-images/v1', executionMode: 'sync', taskKinds: ['image-generation', 'image-edit'] },
};
const nowMs = Date.parse('2026-01-01T00:00:00Z');
const generation: TaskEnvelopeV2 = { kind: 'image-generation', prompt: 'an otter', count: 2 };

async function execute(responses: FixtureResponseV1[], task: TaskEnvelopeV2 = generation, signal = new AbortController().signal) {
  const transport = createFixtureTransportV1({ responses });
  const execution = await createOpenAiImagesAdapterFactory({ now: () => nowMs }).createAdapter().execute({ task, target, transport, signal });
  return { execution, transport };
}

describe('openai-images adapter', () => {
  it('sends a generation and decodes the recorded body (recorded: vercel-ai__openai-image.json)', async () => {
    const { execution, transport } = await execute([{ headers: { 'x-request-id': 'req_9' }, body: { type: 'text', text: OPENAI_IMAGE_JSON } }]);
    expect(transport.requests).toEqual([
      { method: 'POST', path: '/images/generations', headers: { accept: 'application/json' }, body: { type: 'json', value: { model: 'gpt-image-1', prompt: 'an otter', n: 2 } } },
    ]);
    expect(execution).toMatchObject({
      kind: 'response',
      acceptance: { state: 'accepted' },
      responseMetadata: { providerRequestId: 'req_9' },
      terminal: { status: 'completed', result: { kind: 'image-generation' }, usage: { images: 2 } },
    });
  });

  it('maps the recorded unknown_parameter error (recorded: vercel-ai__gpt-image-response-format-error.json)', async () => {
    const { execution } = await execute([{ status: 400, body: { type: 'text', text: GPT_IMAGE_RESPONSE_FORMAT_ERROR_JSON } }]);
    expect(execution).toEqual({
      kind: 'response',
      acceptance: { state: 'not-accepted' },
      responseMetadata: {},
      terminal: { status: 'failed', failure: { code: 'invalid-request', retryable: false, providerCode: 'unknown_parameter' } },
    });
  });

  it('maps moderation blocks to content-filtered and 5xx to acceptance unknown (constructed)', async () => {
    const blocked = await execute([{ status: 400, body: { type: 'json', value: { error: { message: 'blocked', type: 'image_generation_user_error', code: 'moderation_blocked' } } } }]);
    expect(blocked.execution).toMatchObject({ terminal: { failure: { code: 'content-filtered', retryable: false, providerCode: 'moderation_blocked' } } });
    const failed = await execute([{ status: 500, headers: { 'retry-after': '2' }, body: { type: 'json', value: { error: { message: 'x', type: 'server_error' } } } }]);
    expect(failed.execution).toMatchObject({ acceptance: { state: 'unknown' }, terminal: { failure: { code: 'provider-error', retryable: true, retryAfterMs: 2000 } } });
    expect(mapOpenAiImagesHttpError({ status: 400, headers: {}, errorBody: { error: 'bare' }, nowMs })).toEqual({ code: 'invalid-request', retryable: false });
    expect(mapOpenAiImagesHttpError({ status: 429, headers: {}, errorBody: { error: [1] }, nowMs })).toEqual({ code: 'rate-limited', retryable: true });
  });

  it('refuses an edit without prepared media and a foreign task without calling the transport', async () => {
    const transport: ProviderTransport = { send: () => Promise.reject(new Error('must not be called')) };
    const adapter = createOpenAiImagesAdapterFactory().createAdapter();
    const signal = new AbortController().signal;
    expect(await adapter.execute({ task: { kind: 'image-edit', prompt: 'p' }, target, transport, signal })).toMatchObject({
      acceptance: { state: 'not-accepted' },
      terminal: { failure: { code: 'invalid-request' } },
    });
    expect(await adapter.execute({ task: { kind: 'rerank', query: 'q', documents: ['d'] }, target, transport, signal })).toMatchObject({
      terminal: { failure: { code: 'unsupported' } },
    });
  });

  it('turns unreadable and truncated bodies into typed failures (constructed)', async () => {
    const hostile = await execute([{ body: { type: 'text', text: '{"data":[{"b64_json":"AAAA"' } }]);
    expect(hostile.execution).toMatchObject({ acceptance: { state: 'unknown' }, terminal: { failure: { code: 'protocol-violation' } } });
    const truncated = await execute([{ body: { type: 'text', text: OPENAI_IMAGE_JSON }, readSize: 32, bodyFailure: { afterBytes: 100 } }]);
    expect(truncated.execution).toMatchObject({ terminal: { failure: { code: 'truncated-stream', retryable: true } } });
    const rejection = await execute([{ failure: { stage: 'after-send' } }]).catch((error: unknown) => error);
    expect(isProviderTransportFailureV1(rejection)).toBe(true);
  });

  it('serves an OpenAI images client end to end: ingress, engine, adapter on recorded traffic, egress', async () => {
    const ingress = createOpenAiImagesIngressCodec();
    const clientBody = { model: 'client-images', prompt: 'an otter', n: 2, response_format: 'b64_json' };
    const decoded = ingress.decodeRequest({ path: '/v1/images/generations', body: new TextEncoder().encode(JSON.stringify(clientBody)) });
    const engine = createProtocolEngineV1({ registry: { listProtocolFamilies: () => ['openai-images/v1'], require: () => createOpenAiImagesAdapterFactory() } });
    const transport = createFixtureTransportV1({ responses: [{ body: { type: 'text', text: OPENAI_IMAGE_JSON } }] });
    const binding = createProtocolEngineTargetBindingV1({
      target: { provider: 'opaque', providerModel: 'dall-e-3', connectionRef: 'conn', capability: target.capability },
      bindTransport: () => transport,
    });
    const execution = await engine.execute({ binding, task: decoded.task, signal: new AbortController().signal });
    if (execution.kind !== 'response') throw new Error(`unexpected ${execution.kind}`);
    expect(transport.requests[0]?.body).toEqual({ type: 'json', value: { model: 'dall-e-3', prompt: 'an otter', n: 2, response_format: 'b64_json' } });
    const context: EgressContextV1 = { responseId: 'r', modelLabel: decoded.modelLabel, createdAtMs: 1_770_000_000_999 };
    const response = createOpenAiImagesEgressCodec().encodeResponse(execution.terminal, context);
    const recorded = JSON.parse(OPENAI_IMAGE_JSON) as { data: unknown[] };
    expect(parseSafeJsonBytes(response.body)).toEqual({ created: 1_770_000_000, data: recorded.data });
  });

  it('refuses an edit request at ingress as unsupported, and never decodes its body', () => {
    const ingress = createOpenAiImagesIngressCodec();
    try {
      ingress.decodeRequest({ path: '/v1/images/edits', body: new TextEncoder().encode('--boundary\r\n') });
      expect.unreachable();
    } catch (error) {
      expect(isCodecErrorV1(error) && error.code).toBe('unsupported-feature');
    }
  });
});

describe('openai-images adapter: rate-limit facts', () => {
  it('reads x-ratelimit-* into the response metadata, with the retry-after of a refusal', async () => {
    const { execution } = await execute([{ headers: OPENAI_RATE_LIMIT_EXAMPLE_HEADERS, body: { type: 'text', text: OPENAI_IMAGE_JSON } }]);
    expect(execution.responseMetadata).toMatchObject({ rateLimits: OPENAI_RATE_LIMIT_EXAMPLE_FACTS });
    const refused = await execute([{ status: 400, headers: { ...OPENAI_RATE_LIMIT_EXAMPLE_HEADERS, 'retry-after': '7' }, body: { type: 'text', text: GPT_IMAGE_RESPONSE_FORMAT_ERROR_JSON } }]);
    expect(refused.execution.responseMetadata).toEqual({ rateLimits: { ...OPENAI_RATE_LIMIT_EXAMPLE_FACTS, retryAfterMs: 7000 } });
  });
});
