import {
  isProviderTransportFailureV1,
  type ChatTaskV2,
  type ProviderAdapterExecutionV1,
  type ProviderAdapterTargetV1,
  type ProviderTransport,
  type TaskEnvelopeV2,
} from '@tokenforge/model-protocol';
import { describe, expect, it } from 'vitest';
import { createFixtureTransportV1, type FixtureResponseV1 } from '../../testing/fixture-transport.js';
import { createGeminiGenerateContentAdapterFactory } from './adapter.js';
import { adapterTarget, chunk, readFixture, sseBody } from './test-support/gemini-test-support.js';

const nowMs = Date.parse('2026-01-01T00:00:00Z');
const task: ChatTaskV2 = { kind: 'chat', stream: false, messages: [{ role: 'user', content: [{ type: 'text', text: 'Hi' }] }] };

async function execute(input: TaskEnvelopeV2, transport: ProviderTransport, options: { signal?: AbortSignal; target?: ProviderAdapterTargetV1 } = {}) {
  return createGeminiGenerateContentAdapterFactory({ now: () => nowMs })
    .createAdapter()
    .execute({ task: input, target: options.target ?? adapterTarget, transport, signal: options.signal ?? new AbortController().signal });
}

function transportWith(...responses: FixtureResponseV1[]) {
  return createFixtureTransportV1({ responses });
}

async function drain(execution: ProviderAdapterExecutionV1) {
  if (execution.kind !== 'stream') throw new Error('expected a stream');
  const parts = [];
  for await (const part of execution.parts) parts.push(part);
  return parts;
}

describe('gemini-generate-content adapter', () => {
  it('sends the sync request and decodes the recorded body (recorded)', async () => {
    const transport = transportWith({ body: { type: 'text', text: readFixture('vercel-ai__google-tool-call-gemini3.json') } });
    const execution = await execute({ ...task, maxOutputTokens: 50 }, transport);
    expect(transport.requests).toEqual([
      {
        method: 'POST',
        path: '/v1beta/models/gemini-test:generateContent',
        headers: { accept: 'application/json' },
        body: { type: 'json', value: { contents: [{ role: 'user', parts: [{ text: 'Hi' }] }], generationConfig: { maxOutputTokens: 50 } } },
      },
    ]);
    expect(execution).toMatchObject({
      kind: 'response',
      acceptance: { state: 'accepted' },
      responseMetadata: { providerModel: 'gemini-3-pro-preview' },
      terminal: { status: 'completed', finishReason: { unified: 'tool-calls', raw: 'STOP' } },
    });
    expect(transport.bodyStates()).toEqual(['finished']);
  });

  it('streams over CRLF framing and reads the body to its end (no sentinel)', async () => {
    const transport = transportWith({ body: { type: 'text', text: sseBody([chunk([{ text: 'Hel' }]), chunk([{ text: 'lo' }], {}, { finishReason: 'STOP' })]) } });
    const execution = await execute({ ...task, stream: true }, transport);
    expect(transport.requests[0]).toMatchObject({ path: '/v1beta/models/gemini-test:streamGenerateContent', query: { alt: 'sse' }, headers: { accept: 'text/event-stream' } });
    expect(await drain(execution)).toEqual([
      { type: 'text-start', index: 0 },
      { type: 'text-delta', index: 0, delta: 'Hel' },
      { type: 'text-delta', index: 0, delta: 'lo' },
      { type: 'text-end', index: 0 },
      { type: 'terminal', outcome: { status: 'completed', result: { kind: 'chat', content: [{ type: 'text', text: 'Hello' }] }, finishReason: { unified: 'stop', raw: 'STOP' } } },
    ]);
    expect(transport.bodyStates()).toEqual(['finished']);
  });

  it.each([
    [400, { error: { code: 400, message: 'API key not valid.', status: 'INVALID_ARGUMENT', details: [{ '@type': 'type.googleapis.com/google.rpc.ErrorInfo', reason: 'API_KEY_INVALID' }] } }, 'not-accepted', { code: 'authentication', retryable: false, providerCode: 'INVALID_ARGUMENT' }],
    [400, { error: { code: 400, message: 'bad', status: 'INVALID_ARGUMENT' } }, 'not-accepted', { code: 'invalid-request', retryable: false, providerCode: 'INVALID_ARGUMENT' }],
    [400, { error: { code: 400, message: 'billing', status: 'FAILED_PRECONDITION' } }, 'not-accepted', { code: 'permission-denied', retryable: false, providerCode: 'FAILED_PRECONDITION' }],
    [403, { error: { code: 403, message: 'denied', status: 'PERMISSION_DENIED' } }, 'not-accepted', { code: 'permission-denied', retryable: false, providerCode: 'PERMISSION_DENIED' }],
    [404, { error: { code: 404, message: 'no model', status: 'NOT_FOUND' } }, 'not-accepted', { code: 'not-found', retryable: false, providerCode: 'NOT_FOUND' }],
    [402, { error: { code: 402, message: 'credits', status: 'RESOURCE_EXHAUSTED' } }, 'not-accepted', { code: 'quota-exceeded', retryable: false, providerCode: 'RESOURCE_EXHAUSTED' }],
    [500, { error: { code: 500, message: 'internal', status: 'INTERNAL' } }, 'unknown', { code: 'provider-error', retryable: true, providerCode: 'INTERNAL' }],
    [503, { error: { code: 503, message: 'overloaded', status: 'UNAVAILABLE' } }, 'unknown', { code: 'overloaded', retryable: true, providerCode: 'UNAVAILABLE' }],
    [504, { error: { code: 504, message: 'deadline', status: 'DEADLINE_EXCEEDED' } }, 'unknown', { code: 'timeout', retryable: true, providerCode: 'DEADLINE_EXCEEDED' }],
  ] as const)('maps HTTP %i %j', async (status, body, acceptance, failure) => {
    const execution = await execute(task, transportWith({ status, body: { type: 'json', value: body } }));
    expect(execution).toEqual({ kind: 'response', acceptance: { state: acceptance }, responseMetadata: {}, terminal: { status: 'failed', failure } });
  });

  it('prefers a retry-after header to the RetryInfo detail and survives a non-JSON error body', async () => {
    const limited = await execute(
      task,
      transportWith({
        status: 429,
        headers: { 'retry-after': '7' },
        body: { type: 'json', value: { error: { code: 429, status: 'RESOURCE_EXHAUSTED', details: [{ '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: '39s' }] } } },
      }),
    );
    expect(limited).toMatchObject({ terminal: { failure: { code: 'rate-limited', retryAfterMs: 7000 } } });
    const html = await execute(task, transportWith({ status: 502, body: { type: 'text', text: '<html>bad gateway</html>' } }));
    expect(html).toMatchObject({ acceptance: { state: 'unknown' }, terminal: { failure: { code: 'provider-error', retryable: true } } });
  });

  it('answers a stream task that fails before streaming with a stream of one terminal', async () => {
    const parts = await drain(await execute({ ...task, stream: true }, transportWith({ status: 429, body: { type: 'json', value: { error: { code: 429, status: 'RESOURCE_EXHAUSTED' } } } })));
    expect(parts).toEqual([{ type: 'terminal', outcome: { status: 'failed', failure: { code: 'rate-limited', retryable: true, providerCode: 'RESOURCE_EXHAUSTED' } } }]);
  });

  it('fails malformed, protocol-breaking and oversized 2xx bodies as protocol violations with unknown acceptance', async () => {
    for (const text of ['{"candidates": [', '{"candidates":[{"content":{"parts":[{"text":"x"}]}}]}', '{"candidates":[{},{}]}']) {
      expect(await execute(task, transportWith({ body: { type: 'text', text } }))).toMatchObject({
        acceptance: { state: 'unknown' },
        terminal: { status: 'failed', failure: { code: 'protocol-violation', retryable: false } },
      });
    }
    const huge = `data: {"candidates":[{"content":{"parts":[{"text":"${'x'.repeat(9 * 1024 * 1024)}"}]}}]}\n\n`;
    const parts = await drain(await execute({ ...task, stream: true }, transportWith({ body: { type: 'text', text: huge }, readSize: 1024 * 1024 })));
    expect(parts.at(-1)).toMatchObject({ type: 'terminal', outcome: { status: 'failed', failure: { code: 'protocol-violation' } } });
  });

  it.each(['../../v1/files', 'models/x', 'a:b'])('refuses the unsafe model name %j without sending anything', async (providerModel) => {
    const transport = transportWith();
    const execution = await execute(task, transport, { target: { ...adapterTarget, providerModel } });
    expect(execution).toEqual({
      kind: 'response',
      acceptance: { state: 'not-accepted' },
      responseMetadata: {},
      terminal: { status: 'failed', failure: { code: 'invalid-request', retryable: false } },
    });
    expect(transport.requests).toEqual([]);
  });

  it('rejects with the transport failure when no response head arrives', async () => {
    const rejection = await execute(task, transportWith({ failure: { stage: 'after-send' } })).catch((error: unknown) => error);
    expect(isProviderTransportFailureV1(rejection)).toBe(true);
  });

  it('ends a stream cut by a lost connection as truncated and one aborted mid-stream as cancelled', async () => {
    const body = sseBody([chunk([{ text: 'a' }]), chunk([{ text: 'b' }], {}, { finishReason: 'STOP' })]);
    const lost = await drain(await execute({ ...task, stream: true }, transportWith({ body: { type: 'text', text: body }, bodyFailure: { afterBytes: 20 } })));
    expect(lost.at(-1)).toMatchObject({ type: 'terminal', outcome: { status: 'failed', failure: { code: 'truncated-stream', retryable: true } } });

    const controller = new AbortController();
    const transport = transportWith({ body: { type: 'text', text: body }, readSize: 8, readDelayMs: 5 });
    const execution = await execute({ ...task, stream: true }, transport, { signal: controller.signal });
    if (execution.kind !== 'stream') throw new Error('expected a stream');
    const parts = [];
    for await (const part of execution.parts) {
      parts.push(part);
      if (part.type === 'text-delta') controller.abort();
    }
    expect(parts.at(-1)).toEqual({ type: 'terminal', outcome: { status: 'cancelled' } });
    expect(transport.bodyStates()[0]).not.toBe('reading');
  });

  it('releases the body when a stream consumer stops early', async () => {
    const transport = transportWith({ body: { type: 'text', text: sseBody([chunk([{ text: 'a' }]), chunk([{ text: 'b' }], {}, { finishReason: 'STOP' })]) } });
    const execution = await execute({ ...task, stream: true }, transport);
    if (execution.kind !== 'stream') throw new Error('expected a stream');
    for await (const part of execution.parts) if (part.type === 'text-delta') break;
    expect(transport.bodyStates()).toEqual(['released']);
  });
});
