import {
  createProtocolEngineTargetBindingV1,
  createProtocolEngineV1,
  type ProtocolEngineDispatchTargetV1,
} from '@tokenforge/protocol-engine';
import {
  isProviderTransportFailureV1,
  type AdapterStreamPartV1,
  type ChatTaskV2,
  type NormalizedStreamEventV4,
  type ProviderAdapterExecutionV1,
  type ProviderAdapterTargetV1,
  type ProviderTransport,
  type TaskEnvelopeV2,
} from '@tokenforge/model-protocol';
import { describe, expect, it } from 'vitest';
import { parseSafeJson } from '../../codec-kit/index.js';
import { createFixtureTransportV1, type FixtureResponseV1 } from '../../testing/fixture-transport.js';
import { createOpenAiChatAdapterFactory } from './adapter.js';
import { createOpenAiChatSuiteEntryV1 } from './suite-entry.js';
import { readFixture } from './test-support/stream-harness.js';
import { OPENAI_RATE_LIMIT_EXAMPLE_FACTS, OPENAI_RATE_LIMIT_EXAMPLE_HEADERS } from '../../codec-kit/test-support/openai-rate-limit-example.js';

const capability = {
  protocolFamily: 'openai-chat/v1',
  executionMode: 'stream-capable',
  taskKinds: ['chat'],
  tools: true,
  imageInput: true,
  documentInput: true,
  audioInput: true,
  reasoning: true,
  structuredOutput: 'native-json-schema',
} as const;
const target: ProviderAdapterTargetV1 = { providerModel: 'model-x', capability: { ...capability, taskKinds: ['chat'] } };
const nowMs = Date.parse('2026-01-01T00:00:00Z');

function chatTask(overrides: Partial<ChatTaskV2> = {}): ChatTaskV2 {
  return { kind: 'chat', messages: [{ role: 'user', content: [{ type: 'text', text: 'Hello' }] }], stream: false, ...overrides };
}

async function execute(task: TaskEnvelopeV2, transport: ProviderTransport, signal = new AbortController().signal) {
  return createOpenAiChatAdapterFactory({ now: () => nowMs }).createAdapter().execute({ task, target, transport, signal });
}

async function drain(execution: ProviderAdapterExecutionV1): Promise<AdapterStreamPartV1[]> {
  if (execution.kind !== 'stream') throw new Error('expected a stream');
  const parts: AdapterStreamPartV1[] = [];
  for await (const part of execution.parts) parts.push(part);
  return parts;
}

function transportWith(...responses: FixtureResponseV1[]) {
  return createFixtureTransportV1({ responses });
}

describe('openai-chat adapter', () => {
  it('sends the sync request and decodes the recorded DeepSeek body', async () => {
    const transport = transportWith({
      headers: { 'x-request-id': 'req_1' },
      body: { type: 'json', value: parseSafeJson(readFixture('vercel-ai__deepseek-reasoning.json')) },
    });
    const execution = await execute(chatTask({ maxOutputTokens: 100 }), transport);
    expect(transport.requests).toEqual([
      {
        method: 'POST',
        path: '/chat/completions',
        headers: { accept: 'application/json' },
        body: { type: 'json', value: { model: 'model-x', messages: [{ role: 'user', content: 'Hello' }], max_completion_tokens: 100 } },
      },
    ]);
    expect(execution).toMatchObject({
      kind: 'response',
      acceptance: { state: 'accepted' },
      responseMetadata: { providerRequestId: 'req_1', providerModel: 'deepseek-reasoner' },
      terminal: { status: 'completed', finishReason: { unified: 'stop', raw: 'stop' } },
    });
    expect(transport.bodyStates()).toEqual(['finished']);
  });

  it('streams the recorded OpenAI text and asks for stream usage', async () => {
    const transport = transportWith({
      headers: { 'x-request-id': 'req_2' },
      body: { type: 'chunks', text: readFixture('vercel-ai__openai-text.chunks.txt'), framing: 'openai-chat' },
    });
    const execution = await execute(chatTask({ stream: true }), transport);
    expect(transport.requests[0]).toMatchObject({
      headers: { accept: 'text/event-stream' },
      body: { value: { stream: true, stream_options: { include_usage: true } } },
    });
    expect(execution).toMatchObject({ kind: 'stream', acceptance: { state: 'accepted' }, responseMetadata: { providerRequestId: 'req_2' } });
    const parts = await drain(execution);
    expect(parts.at(-1)).toMatchObject({ type: 'terminal', outcome: { status: 'completed', usage: { outputTokens: 300 } } });
    // Reading stops at [DONE]; the body is then released rather than read to its end.
    expect(transport.bodyStates()).toEqual(['released']);
  });

  it('maps HTTP errors with retry hints and acceptance by status', async () => {
    const limited = await execute(
      chatTask(),
      transportWith({
        status: 429,
        headers: { 'retry-after-ms': '250' },
        body: { type: 'json', value: { error: { message: 'Rate limit reached for requests', type: 'requests', param: null, code: 'rate_limit_exceeded' } } },
      }),
    );
    expect(limited).toEqual({
      kind: 'response',
      acceptance: { state: 'not-accepted' },
      responseMetadata: { rateLimits: { retryAfterMs: 250 } },
      terminal: { status: 'failed', failure: { code: 'rate-limited', retryable: true, retryAfterMs: 250, providerCode: 'rate_limit_exceeded' } },
    });
    const server = await execute(chatTask(), transportWith({ status: 500, body: { type: 'text', text: '<html>oops</html>' } }));
    expect(server).toMatchObject({ acceptance: { state: 'unknown' }, terminal: { failure: { code: 'provider-error', retryable: true } } });
    const quota = await execute(
      chatTask(),
      transportWith({ status: 429, body: { type: 'json', value: { error: { message: 'quota', type: 'insufficient_quota', code: 'insufficient_quota' } } } }),
    );
    expect(quota).toMatchObject({ terminal: { failure: { code: 'quota-exceeded', retryable: false } } });
  });

  it('answers a stream task that fails before streaming with a stream of one terminal', async () => {
    const transport = transportWith({ status: 400, body: { type: 'json', value: { error: { message: 'bad', type: 'invalid_request_error', code: 'context_length_exceeded' } } } });
    const parts = await drain(await execute(chatTask({ stream: true }), transport));
    expect(parts).toEqual([{ type: 'terminal', outcome: { status: 'failed', failure: { code: 'context-length-exceeded', retryable: false, providerCode: 'context_length_exceeded' } } }]);
    expect(transport.bodyStates()).toEqual(['finished']);
  });

  it('refuses a task the dialect cannot express without sending anything', async () => {
    const transport = transportWith();
    const task = chatTask({
      messages: [{ role: 'user', content: [{ type: 'document', source: { type: 'url', url: 'https://example.test/a.pdf' } }] }],
    });
    expect(await execute(task, transport)).toEqual({
      kind: 'response',
      acceptance: { state: 'not-accepted' },
      responseMetadata: {},
      terminal: { status: 'failed', failure: { code: 'unsupported', retryable: false } },
    });
    expect(transport.requests).toEqual([]);
  });

  it('fails an unreadable 2xx body as a protocol violation with unknown acceptance', async () => {
    const execution = await execute(chatTask(), transportWith({ body: { type: 'text', text: '{"choices": [' } }));
    expect(execution).toMatchObject({ acceptance: { state: 'unknown' }, terminal: { failure: { code: 'protocol-violation' } } });
  });

  it('rejects with the transport failure when no response head arrives', async () => {
    const rejection = await execute(chatTask(), transportWith({ failure: { stage: 'after-send' } })).catch((error: unknown) => error);
    expect(isProviderTransportFailureV1(rejection)).toBe(true);
  });

  it('fails an oversized sync body or SSE event as a protocol violation and releases the body', async () => {
    const factory = createOpenAiChatAdapterFactory({ now: () => nowMs, maxBodyBytes: 1000, maxEventBytes: 1000 });
    const big = { choices: [{ index: 0, message: { role: 'assistant', content: 'x'.repeat(2000) }, finish_reason: 'stop' }] };
    const syncTransport = transportWith({ body: { type: 'json', value: big } });
    const sync = await factory.createAdapter().execute({ task: chatTask(), target, transport: syncTransport, signal: new AbortController().signal });
    expect(sync).toMatchObject({ acceptance: { state: 'unknown' }, terminal: { status: 'failed', failure: { code: 'protocol-violation' } } });
    expect(syncTransport.bodyStates()).not.toContain('reading');
    const streamTransport = transportWith({ body: { type: 'text', text: `data: ${JSON.stringify(big)}\n\ndata: [DONE]\n\n` }, readSize: 100 });
    const stream = await factory.createAdapter().execute({ task: chatTask({ stream: true }), target, transport: streamTransport, signal: new AbortController().signal });
    expect((await drain(stream)).at(-1)).toEqual({ type: 'terminal', outcome: { status: 'failed', failure: { code: 'protocol-violation', retryable: false } } });
    expect(streamTransport.bodyStates()).toEqual(['released']);
  });

  it('ends a sync read cancelled when the signal aborts while the body arrives', async () => {
    const controller = new AbortController();
    const transport = transportWith({ body: { type: 'json', value: parseSafeJson(readFixture('vercel-ai__deepseek-reasoning.json')) }, readSize: 64, readDelayMs: 20 });
    const pending = execute(chatTask(), transport, controller.signal);
    setTimeout(() => controller.abort(), 30);
    expect(await pending).toMatchObject({ kind: 'response', terminal: { status: 'cancelled' } });
    expect(transport.bodyStates()).not.toContain('reading');
  });

  it('releases the body when a stream consumer stops early', async () => {
    const transport = transportWith({ body: { type: 'chunks', text: readFixture('vercel-ai__openai-text.chunks.txt'), framing: 'openai-chat' } });
    const execution = await execute(chatTask({ stream: true }), transport);
    if (execution.kind !== 'stream') throw new Error('expected a stream');
    for await (const part of execution.parts) if (part.type === 'text-delta') break;
    expect(transport.bodyStates()).toEqual(['released']);
  });
});

describe('openai-chat adapter through the engine', () => {
  const dispatchTarget: ProtocolEngineDispatchTargetV1 = {
    provider: 'opaque-provider',
    providerModel: 'model-x',
    connectionRef: 'conn-1',
    capability: { ...capability, taskKinds: ['chat'] },
  };

  async function run(task: ChatTaskV2, response: FixtureResponseV1, options: { reportedCostCurrency?: string } = {}) {
    const engine = createProtocolEngineV1({
      registry: {
        listProtocolFamilies: () => ['openai-chat/v1'],
        require: () => createOpenAiChatAdapterFactory({ now: () => nowMs, ...options }),
      },
    });
    const transport = transportWith(response);
    const binding = createProtocolEngineTargetBindingV1({ target: dispatchTarget, bindTransport: () => transport });
    return { execution: await engine.execute({ binding, task, signal: new AbortController().signal }), transport };
  }

  it.each([
    'vercel-ai__openai-text.chunks.txt',
    'vercel-ai__azure-model-router.1.chunks.txt',
    'vercel-ai__deepseek-tool-call.chunks.txt',
    'vercel-ai__alibaba-tool-call.chunks.txt',
  ])('passes the engine validation for the recorded stream %s', async (name) => {
    const { execution, transport } = await run(chatTask({ stream: true }), { body: { type: 'chunks', text: readFixture(name), framing: 'openai-chat' } });
    if (execution.kind !== 'stream') throw new Error('expected a stream');
    const events: NormalizedStreamEventV4[] = [];
    for await (const event of execution.events) events.push(event);
    const terminal = await execution.terminal;
    expect(terminal.status).toBe('completed');
    expect(events.length).toBeGreaterThan(0);
    expect(transport.bodyStates()).toEqual(['released']);
  });

  it.each(['vercel-ai__deepseek-reasoning.json', 'vercel-ai__alibaba-reasoning.json'])(
    'passes the engine validation for the recorded body %s',
    async (name) => {
      const { execution } = await run(chatTask(), { body: { type: 'json', value: parseSafeJson(readFixture(name)) } });
      expect(execution).toMatchObject({ kind: 'response', terminal: { status: 'completed' } });
    },
  );

  // OpenRouter's usage accounting: `usage.cost` in credits, which are US dollars.
  const costed = { id: 'gen-1', object: 'chat.completion', created: 1, model: 'm', choices: [{ index: 0, message: { role: 'assistant', content: 'Hi' }, finish_reason: 'stop' }], usage: { prompt_tokens: 194, completion_tokens: 2, total_tokens: 196, cost: 0.000_95 } };

  it('hands the host a reported cost in its declared currency, in integer millionths, sync and streamed', async () => {
    const sync = await run(chatTask(), { body: { type: 'json', value: costed } }, { reportedCostCurrency: 'USD' });
    expect(sync.execution).toMatchObject({ kind: 'response', terminal: { status: 'completed', cost: { amountMicros: 950, currency: 'USD' } } });

    const chunks = [
      { id: 'gen-1', object: 'chat.completion.chunk', created: 1, model: 'm', choices: [{ index: 0, delta: { role: 'assistant', content: 'Hi' }, finish_reason: 'stop' }] },
      { id: 'gen-1', object: 'chat.completion.chunk', created: 1, model: 'm', choices: [], usage: costed.usage },
    ];
    const stream = await run(chatTask({ stream: true }), { body: { type: 'chunks', text: chunks.map((chunk) => JSON.stringify(chunk)).join('\n'), framing: 'openai-chat' } }, { reportedCostCurrency: 'USD' });
    if (stream.execution.kind !== 'stream') throw new Error('expected a stream');
    for await (const event of stream.execution.events) void event;
    expect(await stream.execution.terminal).toMatchObject({ status: 'completed', cost: { amountMicros: 950, currency: 'USD' } });
  });

  it('reads no cost without a declared currency, and leaves an unreadable one out without failing the answer', async () => {
    const undeclared = await run(chatTask(), { body: { type: 'json', value: costed } });
    expect(undeclared.execution.kind === 'response' && 'cost' in undeclared.execution.terminal).toBe(false);
    for (const cost of [-1, '0.5', Number.MAX_VALUE]) {
      const { execution } = await run(chatTask(), { body: { type: 'json', value: { ...costed, usage: { ...costed.usage, cost } } } }, { reportedCostCurrency: 'USD' });
      expect(execution).toMatchObject({ kind: 'response', terminal: { status: 'completed', usage: { inputTokens: 194 } } });
      expect(execution.kind === 'response' && 'cost' in execution.terminal).toBe(false);
    }
  });

  it('refuses a currency that is not an ISO 4217 code when the factory or suite entry is created', () => {
    for (const currency of ['usd', 'US', 'credits']) {
      expect(() => createOpenAiChatAdapterFactory({ reportedCostCurrency: currency })).toThrow(TypeError);
      expect(() => createOpenAiChatSuiteEntryV1({ reportedCostCurrency: currency })).toThrow(TypeError);
    }
  });

  it('passes a truncated stream to the host as a failed terminal', async () => {
    const { execution } = await run(chatTask({ stream: true }), {
      body: { type: 'chunks', text: readFixture('vercel-ai__deepseek-tool-call.chunks.txt'), framing: 'openai-chat', omitTerminator: true },
    });
    if (execution.kind !== 'stream') throw new Error('expected a stream');
    for await (const event of execution.events) void event;
    expect(await execution.terminal).toMatchObject({ status: 'failed', failure: { code: 'truncated-stream', retryable: true } });
  });
});


describe('openai-chat adapter: rate-limit facts', () => {
  it('reads x-ratelimit-* into the metadata of a sync answer, a stream and a 429 (retry-after-ms first); a malformed figure is left out', async () => {
    const sync = await execute(chatTask(), transportWith({ headers: { ...OPENAI_RATE_LIMIT_EXAMPLE_HEADERS, 'x-request-id': 'req_1' }, body: { type: 'json', value: parseSafeJson(readFixture('vercel-ai__deepseek-reasoning.json')) } }));
    expect(sync.responseMetadata).toMatchObject({ providerRequestId: 'req_1', rateLimits: OPENAI_RATE_LIMIT_EXAMPLE_FACTS });
    const stream = await execute(
      chatTask({ stream: true }),
      transportWith({ headers: OPENAI_RATE_LIMIT_EXAMPLE_HEADERS, body: { type: 'chunks', text: readFixture('vercel-ai__openai-text.chunks.txt'), framing: 'openai-chat' } }),
    );
    expect(stream.responseMetadata).toEqual({ rateLimits: OPENAI_RATE_LIMIT_EXAMPLE_FACTS });
    await drain(stream);
    const limited = await execute(
      chatTask(),
      transportWith({
        status: 429,
        headers: { ...OPENAI_RATE_LIMIT_EXAMPLE_HEADERS, 'x-ratelimit-remaining-requests': '0', 'x-ratelimit-limit-tokens': 'n/a', 'retry-after-ms': '20', 'retry-after': '1' },
        body: { type: 'json', value: { error: { message: 'Rate limit reached', type: 'requests', code: 'rate_limit_exceeded' } } },
      }),
    );
    expect(limited.responseMetadata).toEqual({
      rateLimits: { requests: { limit: 60, remaining: 0, resetMs: 1000 }, tokens: { remaining: 149984, resetMs: 360_000 }, retryAfterMs: 20 },
    });
  });
});
