import type {
  AdapterStreamPartV1,
  ChatTaskV2,
  ProviderAdapterExecutionV1,
  ProviderAdapterTargetV1,
  ProviderTransport,
  TaskEnvelopeV2,
} from '@tokenforge/model-protocol';
import { describe, expect, it } from 'vitest';
import { parseSafeJson } from '../../codec-kit/index.js';
import { createFixtureTransportV1, type FixtureResponseV1 } from '../../testing/fixture-transport.js';
import { createOpenAiResponsesAdapterFactory, type OpenAiResponsesAdapterOptionsV1 } from './adapter.js';
import { readFixture, splitRecordedResponses } from './test-support/stream-harness.js';
import { OPENAI_RATE_LIMIT_EXAMPLE_FACTS, OPENAI_RATE_LIMIT_EXAMPLE_HEADERS } from '../../codec-kit/test-support/openai-rate-limit-example.js';

const reasoningTarget: ProviderAdapterTargetV1 = {
  providerModel: 'model-x',
  capability: { protocolFamily: 'openai-responses/v1', executionMode: 'stream-capable', taskKinds: ['chat'], tools: true, reasoning: true },
};
const plainTarget: ProviderAdapterTargetV1 = {
  providerModel: 'model-y',
  capability: { protocolFamily: 'openai-responses/v1', executionMode: 'stream-capable', taskKinds: ['chat'] },
};
const nowMs = Date.parse('2026-01-01T00:00:00Z');

function chatTask(overrides: Partial<ChatTaskV2> = {}): ChatTaskV2 {
  return { kind: 'chat', messages: [{ role: 'user', content: [{ type: 'text', text: 'Hello' }] }], stream: false, ...overrides };
}

async function execute(
  task: TaskEnvelopeV2,
  transport: ProviderTransport,
  options: { target?: ProviderAdapterTargetV1; signal?: AbortSignal; adapter?: OpenAiResponsesAdapterOptionsV1 } = {},
) {
  return createOpenAiResponsesAdapterFactory({ now: () => nowMs, ...options.adapter })
    .createAdapter()
    .execute({ task, target: options.target ?? reasoningTarget, transport, signal: options.signal ?? new AbortController().signal });
}

async function drain(execution: ProviderAdapterExecutionV1): Promise<AdapterStreamPartV1[]> {
  if (execution.kind !== 'stream') throw new Error('expected a stream');
  const parts: AdapterStreamPartV1[] = [];
  for await (const part of execution.parts) parts.push(part);
  return parts;
}

const transportWith = (...responses: FixtureResponseV1[]) => createFixtureTransportV1({ responses });
const step4 = splitRecordedResponses(readFixture('vercel-ai__openai-reasoning-encrypted-content.1.chunks.txt'))[3] ?? '';

describe('openai-responses adapter', () => {
  it('sends the sync request (store false, encrypted reasoning for a reasoning target) and decodes the recorded body', async () => {
    const transport = transportWith({ headers: { 'x-request-id': 'req_1' }, body: { type: 'json', value: parseSafeJson(readFixture('vercel-ai__openai-phase.1.json')) } });
    const execution = await execute(chatTask({ maxOutputTokens: 100 }), transport);
    expect(transport.requests).toEqual([
      {
        method: 'POST',
        path: '/responses',
        headers: { accept: 'application/json' },
        body: {
          type: 'json',
          value: {
            model: 'model-x',
            input: [{ type: 'message', role: 'user', content: [{ type: 'input_text', text: 'Hello' }] }],
            max_output_tokens: 100,
            store: false,
            include: ['reasoning.encrypted_content'],
          },
        },
      },
    ]);
    expect(execution).toMatchObject({
      kind: 'response',
      acceptance: { state: 'accepted' },
      responseMetadata: { providerRequestId: 'req_1', providerModel: 'gpt-5.3-codex' },
      terminal: { status: 'completed', finishReason: { unified: 'stop', raw: 'completed' } },
    });
    expect(transport.bodyStates()).toEqual(['finished']);
  });

  it('does not ask for encrypted reasoning from a target without reasoning', async () => {
    const transport = transportWith({ body: { type: 'json', value: parseSafeJson(readFixture('vercel-ai__openai-phase.1.json')) } });
    await execute(chatTask(), transport, { target: plainTarget });
    expect(transport.requests[0]?.body).toEqual({
      type: 'json',
      value: { model: 'model-y', input: [{ type: 'message', role: 'user', content: [{ type: 'input_text', text: 'Hello' }] }], store: false },
    });
  });

  it('streams the recorded text response through the kit and releases the body', async () => {
    const transport = transportWith({ body: { type: 'chunks', text: step4, framing: 'typed-sse' }, readSize: 7 });
    const execution = await execute(chatTask({ stream: true }), transport);
    expect(transport.requests[0]?.headers).toEqual({ accept: 'text/event-stream' });
    const parts = await drain(execution);
    expect(parts.at(-1)).toMatchObject({ type: 'terminal', outcome: { status: 'completed', result: { content: [{ type: 'text', text: 'The final result is **570**.' }] } } });
    // The terminal event ends the stream: the rest of the body is not read, it is released.
    expect(transport.bodyStates()).toEqual(['released']);
  });

  it('maps the recorded 429 quota body with Retry-After and x-should-retry', async () => {
    const transport = transportWith({ status: 429, headers: { 'retry-after': '3' }, body: { type: 'json', value: parseSafeJson(readFixture('vercel-ai__openai-error.1.json')) } });
    expect(await execute(chatTask(), transport)).toMatchObject({
      kind: 'response',
      acceptance: { state: 'not-accepted' },
      terminal: { status: 'failed', failure: { code: 'quota-exceeded', retryable: false, retryAfterMs: 3000, providerCode: 'insufficient_quota' } },
    });
    const retryable = transportWith({ status: 500, headers: { 'x-should-retry': 'false' }, body: { type: 'text', text: '<html>oops</html>' } });
    expect(await execute(chatTask({ stream: true }), retryable)).toMatchObject({ kind: 'stream', acceptance: { state: 'unknown' } });
  });

  it('a 5xx is acceptance unknown; an unreadable or oversized 2xx body is a protocol violation', async () => {
    const server = transportWith({ status: 503, body: { type: 'json', value: { error: { type: 'server_error', code: 'server_error', message: 'x' } } } });
    expect(await execute(chatTask(), server)).toMatchObject({ acceptance: { state: 'unknown' }, terminal: { failure: { code: 'provider-error', retryable: true } } });
    const garbled = transportWith({ body: { type: 'text', text: '{"id":' } });
    expect(await execute(chatTask(), garbled)).toMatchObject({ acceptance: { state: 'unknown' }, terminal: { failure: { code: 'protocol-violation' } } });
    const large = transportWith({ body: { type: 'json', value: parseSafeJson(readFixture('vercel-ai__openai-phase.1.json')) } });
    expect(await execute(chatTask(), large, { adapter: { maxBodyBytes: 100 } })).toMatchObject({ terminal: { status: 'failed', failure: { code: 'protocol-violation' } } });
  });

  it('an SSE event above the event cap ends the stream as a protocol violation', async () => {
    const transport = transportWith({ body: { type: 'chunks', text: step4, framing: 'typed-sse' } });
    const parts = await drain(await execute(chatTask({ stream: true }), transport, { adapter: { maxEventBytes: 256 } }));
    expect(parts.at(-1)).toEqual({ type: 'terminal', outcome: { status: 'failed', failure: { code: 'protocol-violation', retryable: false } } });
  });

  it('refuses stop sequences before sending anything, as a stream part for a stream task', async () => {
    const transport = transportWith();
    const execution = await execute(chatTask({ stream: true, stopSequences: ['END'] }), transport);
    expect(transport.requests).toEqual([]);
    expect(execution.acceptance).toEqual({ state: 'not-accepted' });
    expect(await drain(execution)).toEqual([{ type: 'terminal', outcome: { status: 'failed', failure: { code: 'unsupported', retryable: false } } }]);
  });

  it('an abort during the stream ends it as cancelled and releases the body', async () => {
    const controller = new AbortController();
    const transport = transportWith({ body: { type: 'chunks', text: step4, framing: 'typed-sse' }, readDelayMs: 5 });
    const execution = await execute(chatTask({ stream: true }), transport, { signal: controller.signal });
    if (execution.kind !== 'stream') throw new Error('expected a stream');
    const parts: AdapterStreamPartV1[] = [];
    for await (const part of execution.parts) {
      parts.push(part);
      if (parts.length === 2) controller.abort();
    }
    expect(parts.at(-1)).toEqual({ type: 'terminal', outcome: { status: 'cancelled' } });
    expect(transport.bodyStates()[0]).not.toBe('reading');
  });
});

describe('openai-responses adapter: rate-limit facts', () => {
  it('reads x-ratelimit-* into the metadata of a sync answer and a stream', async () => {
    const rateLimits = OPENAI_RATE_LIMIT_EXAMPLE_FACTS;
    const sync = await execute(chatTask(), transportWith({ headers: OPENAI_RATE_LIMIT_EXAMPLE_HEADERS, body: { type: 'json', value: parseSafeJson(readFixture('vercel-ai__openai-phase.1.json')) } }));
    expect(sync.responseMetadata).toMatchObject({ rateLimits });
    const stream = await execute(chatTask({ stream: true }), transportWith({ headers: OPENAI_RATE_LIMIT_EXAMPLE_HEADERS, body: { type: 'chunks', text: step4, framing: 'typed-sse' } }));
    expect(stream.responseMetadata).toEqual({ rateLimits });
    await drain(stream);
  });
});
