import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  isProviderTransportFailureV1,
  type AdapterStreamPartV1,
  type ChatTaskV2,
  type ProviderAdapterExecutionV1,
  type ProviderAdapterTargetV1,
  type ProviderTransport,
  type TaskEnvelopeV2,
} from '@tokenforge/model-protocol';
import { createFixtureTransportV1, type FixtureResponseV1 } from '../../testing/fixture-transport.js';
import { createAnthropicMessagesAdapterFactory } from './adapter.js';

function fixtureText(name: string): string {
  return readFileSync(new URL(`./__fixtures__/${name}`, import.meta.url), 'utf8');
}

const target: ProviderAdapterTargetV1 = {
  providerModel: 'claude-sonnet-4-5',
  capability: { protocolFamily: 'anthropic-messages/v1', executionMode: 'stream-capable', taskKinds: ['chat'] },
};

function chatTask(overrides: Partial<ChatTaskV2> = {}): ChatTaskV2 {
  return {
    kind: 'chat',
    system: [{ type: 'text', text: 'Be kind.' }],
    messages: [{ role: 'user', content: [{ type: 'text', text: 'Hello, how are you?' }] }],
    maxOutputTokens: 256,
    stream: false,
    ...overrides,
  };
}

async function execute(task: TaskEnvelopeV2, transport: ProviderTransport, signal = new AbortController().signal) {
  const adapter = createAnthropicMessagesAdapterFactory({ now: () => Date.parse('2026-01-01T00:00:00Z') }).createAdapter();
  return adapter.execute({ task, target, transport, signal });
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

describe('anthropic-messages adapter: requests and recorded responses', () => {
  it('sends POST /v1/messages with the encoded body and decodes the recorded sync text message', async () => {
    const transport = transportWith({
      headers: { 'request-id': 'req_recorded' },
      body: { type: 'json', value: JSON.parse(fixtureText('vercel-ai__anthropic-text.json')) },
    });
    const execution = await execute(chatTask(), transport);
    expect(transport.requests).toEqual([
      {
        method: 'POST',
        path: '/v1/messages',
        headers: { accept: 'application/json' },
        body: {
          type: 'json',
          value: {
            model: 'claude-sonnet-4-5',
            max_tokens: 256,
            system: [{ type: 'text', text: 'Be kind.' }],
            messages: [{ role: 'user', content: [{ type: 'text', text: 'Hello, how are you?' }] }],
          },
        },
      },
    ]);
    expect(execution).toMatchObject({
      kind: 'response',
      acceptance: { state: 'accepted' },
      responseMetadata: { providerRequestId: 'req_recorded', providerModel: 'claude-sonnet-4-5-20250929' },
      terminal: { status: 'completed', finishReason: { unified: 'stop', raw: 'end_turn' } },
    });
    expect(transport.bodyStates()).toEqual(['finished']);
  });

  it('streams the recorded tool-call stream with stream: true and releases the body', async () => {
    const transport = transportWith({
      headers: { 'request-id': 'req_stream' },
      body: { type: 'chunks', text: fixtureText('vercel-ai__anthropic-tool-no-args.chunks.txt'), framing: 'typed-sse' },
    });
    const execution = await execute(chatTask({ stream: true }), transport);
    expect(transport.requests[0]).toMatchObject({
      headers: { accept: 'text/event-stream' },
      body: { value: { stream: true } },
    });
    expect(execution).toMatchObject({ kind: 'stream', acceptance: { state: 'accepted' }, responseMetadata: { providerRequestId: 'req_stream' } });
    const parts = await drain(execution);
    expect(parts.at(-1)).toMatchObject({
      type: 'terminal',
      outcome: { status: 'completed', finishReason: { unified: 'tool-calls' }, result: { content: [{ type: 'text' }, { type: 'tool-call', argumentsText: '{}' }] } },
    });
    // Reading stops at message_stop, the terminal marker; the body is released rather than read on.
    expect(transport.bodyStates()).toEqual(['released']);
  });

  it('refuses what Anthropic cannot express without sending anything', async () => {
    const transport = transportWith();
    const audio = chatTask({ messages: [{ role: 'user', content: [{ type: 'audio', source: { type: 'base64', mediaType: 'audio/wav', data: 'UklGRg==' } }] }] });
    expect(await execute(audio, transport)).toEqual({
      kind: 'response',
      acceptance: { state: 'not-accepted' },
      responseMetadata: {},
      terminal: { status: 'failed', failure: { code: 'unsupported', retryable: false } },
    });
    const contradictory = chatTask({ stream: true, reasoning: { budgetTokens: 9000 }, maxOutputTokens: 2000 });
    const execution = await execute(contradictory, transport);
    expect(execution.kind).toBe('stream');
    expect(await drain(execution)).toEqual([
      { type: 'terminal', outcome: { status: 'failed', failure: { code: 'invalid-request', retryable: false } } },
    ]);
    const embedding: TaskEnvelopeV2 = { kind: 'embedding', inputs: ['x'] };
    expect(await execute(embedding, transport)).toMatchObject({ terminal: { failure: { code: 'unsupported' } } });
    expect(transport.requests).toHaveLength(0);
  });
});

describe('anthropic-messages adapter: HTTP errors', () => {
  const json = (name: string) => ({ type: 'json' as const, value: JSON.parse(fixtureText(name)) as unknown });

  it('maps 429 rate_limit_error with retry-after to a retryable rate-limited failure, not accepted', async () => {
    const transport = transportWith({ status: 429, headers: { 'retry-after': '12', 'request-id': 'req_429' }, body: json('constructed__anthropic-error-rate-limit.json') });
    expect(await execute(chatTask(), transport)).toEqual({
      kind: 'response',
      acceptance: { state: 'not-accepted' },
      responseMetadata: { providerRequestId: 'req_429', rateLimits: { retryAfterMs: 12_000 } },
      terminal: { status: 'failed', failure: { code: 'rate-limited', retryable: true, retryAfterMs: 12_000, providerCode: 'rate_limit_error' } },
    });
  });

  it('maps the spend-limit 429 to a non-retryable quota failure', async () => {
    const transport = transportWith({ status: 429, body: json('constructed__anthropic-error-spend-limit.json') });
    expect(await execute(chatTask(), transport)).toMatchObject({
      terminal: { failure: { code: 'quota-exceeded', retryable: false, providerCode: 'rate_limit_error' } },
    });
  });

  it('maps 529 overloaded_error to a retryable overloaded failure whose acceptance is unknown, in a stream too', async () => {
    const transport = transportWith({ status: 529, body: json('constructed__anthropic-error-overloaded.json') });
    const execution = await execute(chatTask({ stream: true }), transport);
    expect(execution).toMatchObject({ kind: 'stream', acceptance: { state: 'unknown' } });
    expect(await drain(execution)).toEqual([
      { type: 'terminal', outcome: { status: 'failed', failure: { code: 'overloaded', retryable: true, providerCode: 'overloaded_error' } } },
    ]);
    expect(transport.bodyStates()).toEqual(['finished']);
  });

  it.each([
    [400, 'invalid_request_error', 'invalid-request', false],
    [401, 'authentication_error', 'authentication', false],
    [402, 'billing_error', 'quota-exceeded', false],
    [403, 'permission_error', 'permission-denied', false],
    [404, 'not_found_error', 'not-found', false],
    [409, 'conflict_error', 'conflict', false],
    [413, 'request_too_large', 'invalid-request', false],
    [500, 'api_error', 'provider-error', true],
    [504, 'timeout_error', 'timeout', true],
  ])('maps %i %s to %s', async (status, type, code, retryable) => {
    const transport = transportWith({ status, body: { type: 'json', value: { type: 'error', error: { type, message: 'secret prompt text' } } } });
    const execution = await execute(chatTask(), transport);
    expect(execution).toMatchObject({ terminal: { status: 'failed', failure: { code, retryable, providerCode: type } } });
    expect(JSON.stringify(execution)).not.toContain('secret');
  });

  it('falls back to the HTTP status when the error body is not an Anthropic envelope', async () => {
    const transport = transportWith(
      { status: 413, body: { type: 'text', text: '<html>Request Entity Too Large</html>' } },
      { status: 503, body: { type: 'none' } },
    );
    expect(await execute(chatTask(), transport)).toMatchObject({ terminal: { failure: { code: 'invalid-request', retryable: false } } });
    expect(await execute(chatTask(), transport)).toMatchObject({ acceptance: { state: 'unknown' }, terminal: { failure: { code: 'overloaded', retryable: true } } });
  });

  it('treats a malformed or unreadable 2xx body as a protocol violation of unknown acceptance', async () => {
    const transport = transportWith(
      { body: { type: 'json', value: { type: 'message', content: 'nope' } } },
      { body: { type: 'text', text: '{"type":"message",' } },
    );
    for (let attempt = 0; attempt < 2; attempt += 1) {
      expect(await execute(chatTask(), transport)).toMatchObject({
        acceptance: { state: 'unknown' },
        terminal: { status: 'failed', failure: { code: 'protocol-violation', retryable: false } },
      });
    }
  });

  it('rejects with the transport failure when no response head arrives', async () => {
    const transport = transportWith({ failure: { stage: 'after-send', reason: 'connection-lost' } });
    const rejection = await execute(chatTask(), transport).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(isProviderTransportFailureV1(rejection)).toBe(true);
  });

  it('ends a stream cut off mid-body as a retryable truncated-stream and cancels on abort', async () => {
    const chunks = fixtureText('vercel-ai__anthropic-text.chunks.txt');
    const cut = transportWith({ body: { type: 'chunks', text: chunks, framing: 'typed-sse' }, bodyFailure: { afterBytes: 400 } });
    const parts = await drain(await execute(chatTask({ stream: true }), cut));
    expect(parts.at(-1)).toMatchObject({ type: 'terminal', outcome: { status: 'failed', failure: { code: 'truncated-stream', retryable: true } } });

    const controller = new AbortController();
    const slow = transportWith({ body: { type: 'chunks', text: chunks, framing: 'typed-sse' }, readDelayMs: 5 });
    const execution = await execute(chatTask({ stream: true }), slow, controller.signal);
    if (execution.kind !== 'stream') throw new Error('expected a stream');
    const seen: AdapterStreamPartV1[] = [];
    for await (const part of execution.parts) {
      seen.push(part);
      if (seen.length === 2) controller.abort();
    }
    expect(seen.at(-1)).toEqual({ type: 'terminal', outcome: { status: 'cancelled' } });
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(slow.bodyStates()[0]).not.toBe('reading');
  });
});

// Anthropic's rate-limit headers (platform docs, "Rate limits" / response headers): RFC 3339 resets, read
// relative to the response head (the adapter's clock says 2026-01-01T00:00:00Z).
const ANTHROPIC_RATE_LIMIT_HEADERS = {
  'anthropic-ratelimit-requests-limit': '50',
  'anthropic-ratelimit-requests-remaining': '49',
  'anthropic-ratelimit-requests-reset': '2026-01-01T00:00:01Z',
  'anthropic-ratelimit-tokens-limit': '90000',
  'anthropic-ratelimit-tokens-remaining': '89000',
  'anthropic-ratelimit-tokens-reset': '2026-01-01T00:00:06Z',
  'anthropic-ratelimit-input-tokens-limit': '80000',
  'anthropic-ratelimit-input-tokens-remaining': '79500',
  'anthropic-ratelimit-input-tokens-reset': '2026-01-01T00:00:00.500Z',
  'anthropic-ratelimit-output-tokens-limit': '10000',
  'anthropic-ratelimit-output-tokens-remaining': '9500',
  'anthropic-ratelimit-output-tokens-reset': '2026-01-01T00:00:06Z',
};
const ANTHROPIC_RATE_LIMITS = {
  requests: { limit: 50, remaining: 49, resetMs: 1000 },
  tokens: { limit: 90000, remaining: 89000, resetMs: 6000 },
  inputTokens: { limit: 80000, remaining: 79500, resetMs: 500 },
  outputTokens: { limit: 10000, remaining: 9500, resetMs: 6000 },
};

describe('anthropic-messages adapter: rate-limit facts', () => {
  it('reads anthropic-ratelimit-* into the metadata of a sync answer, a stream and a 429 (retry-after); a malformed reset is left out', async () => {
    const sync = await execute(chatTask(), transportWith({ headers: { ...ANTHROPIC_RATE_LIMIT_HEADERS, 'request-id': 'req_1' }, body: { type: 'json', value: JSON.parse(fixtureText('vercel-ai__anthropic-text.json')) } }));
    expect(sync.responseMetadata).toMatchObject({ providerRequestId: 'req_1', rateLimits: ANTHROPIC_RATE_LIMITS });
    const stream = await execute(
      chatTask({ stream: true }),
      transportWith({ headers: ANTHROPIC_RATE_LIMIT_HEADERS, body: { type: 'chunks', text: fixtureText('vercel-ai__anthropic-tool-no-args.chunks.txt'), framing: 'typed-sse' } }),
    );
    expect(stream.responseMetadata).toEqual({ rateLimits: ANTHROPIC_RATE_LIMITS });
    await drain(stream);
    const limited = await execute(
      chatTask(),
      transportWith({
        status: 429,
        headers: { ...ANTHROPIC_RATE_LIMIT_HEADERS, 'anthropic-ratelimit-requests-remaining': '0', 'anthropic-ratelimit-requests-reset': 'tomorrow', 'retry-after': '12' },
        body: { type: 'json', value: { type: 'error', error: { type: 'rate_limit_error', message: 'Number of requests has exceeded your rate limit' } } },
      }),
    );
    expect(limited.responseMetadata).toEqual({ rateLimits: { ...ANTHROPIC_RATE_LIMITS, requests: { limit: 50, remaining: 0 }, retryAfterMs: 12_000 } });
  });
});
