import { CodecErrorV1, type AdapterStreamPartV1, type ProviderAdapterTargetV1, type TaskEnvelopeV2 } from '@tokenforge/model-protocol';
import { describe, expect, it } from 'vitest';
import { createFixtureTransportV1, type FixtureResponseV1 } from '../testing/fixture-transport.js';
import { defineHttpFamily, type HttpFamilyDefinitionV1, type HttpFamilyOptionsV1 } from './define-http-family.js';
import { ProtocolViolationError } from './protocol-violation-error.js';
import { rateLimitWindowHeaders } from './rate-limit-headers.js';

const target: ProviderAdapterTargetV1 = {
  providerModel: 'm',
  capability: { protocolFamily: 'kit-test/v1', executionMode: 'sync', taskKinds: ['chat'] },
};
const chat = (stream: boolean): TaskEnvelopeV2 => ({ kind: 'chat', messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }], stream });

async function* onlyCompleted(): AsyncGenerator<AdapterStreamPartV1, void, undefined> {
  yield { type: 'terminal', outcome: { status: 'completed', result: { kind: 'chat', content: [] } } };
}

function definition(overrides: Partial<HttpFamilyDefinitionV1<HttpFamilyOptionsV1>> = {}): HttpFamilyDefinitionV1<HttpFamilyOptionsV1> {
  return {
    protocolFamily: 'kit-test/v1',
    transportMetadata: Object.freeze({ auth: Object.freeze({ scheme: 'bearer' as const }), fixedHeaders: Object.freeze({}) }),
    requestIdHeaders: ['x-request-id'],
    encodeRequest: () => ({ method: 'POST', path: '/x', headers: { accept: 'application/json' }, body: { type: 'json', value: {} } }),
    decodeResponse: (body) => {
      if (typeof body !== 'object' || body === null || !('ok' in body)) throw new ProtocolViolationError('invalid-event', 'kit-test body');
      return { terminal: { status: 'completed', result: { kind: 'chat', content: [] } }, providerModel: 'served' };
    },
    decodeStream: () => onlyCompleted(),
    mapHttpError: ({ status }) => ({ code: status === 429 ? 'rate-limited' : 'provider-error', retryable: status >= 500 }),
    ...overrides,
  };
}

const family = (overrides: Partial<HttpFamilyDefinitionV1<HttpFamilyOptionsV1>> = {}) => defineHttpFamily(definition(overrides));

async function run(responses: FixtureResponseV1[], task: TaskEnvelopeV2 = chat(false), definition = family()) {
  const transport = createFixtureTransportV1({ responses });
  const execution = await definition.createAdapterFactory({ now: () => 0 }).createAdapter().execute({ task, target, transport, signal: new AbortController().signal });
  return { execution, transport };
}

describe('defineHttpFamily', () => {
  it('owns the acceptance policy: 5xx is unknown (maybe processed), any other refusal not-accepted', async () => {
    for (const [status, state] of [[500, 'unknown'], [503, 'unknown'], [529, 'unknown'], [400, 'not-accepted'], [429, 'not-accepted'], [404, 'not-accepted']] as const) {
      const { execution } = await run([{ status, body: { type: 'text', text: '{"error":{}}' } }]);
      expect({ status, acceptance: execution.acceptance }).toStrictEqual({ status, acceptance: { state } });
      expect(execution).toMatchObject({ kind: 'response', terminal: { status: 'failed' } });
    }
  });

  it('maps a codec error before sending: unsupported or invalid-request, not-accepted, nothing sent', async () => {
    for (const [code, failure] of [['unsupported-feature', 'unsupported'], ['invalid-request', 'invalid-request']] as const) {
      const definition = family({ encodeRequest: () => { throw new CodecErrorV1(code, 'no'); } });
      const { execution, transport } = await run([], chat(true), definition);
      expect(transport.requests).toEqual([]);
      expect(execution.acceptance).toEqual({ state: 'not-accepted' });
      expect(execution.kind).toBe('stream');
      if (execution.kind !== 'stream') return;
      const parts: AdapterStreamPartV1[] = [];
      for await (const part of execution.parts) parts.push(part);
      expect(parts).toEqual([{ type: 'terminal', outcome: { status: 'failed', failure: { code: failure, retryable: false } } }]);
    }
  });

  it('reports response metadata: the first request id header, truncated or dropped past the contract bound, and the served model', async () => {
    const long = 'r'.repeat(300);
    expect((await run([{ headers: { 'x-request-id': 'req-1' }, body: { type: 'text', text: '{"ok":true}' } }])).execution.responseMetadata).toEqual({
      providerRequestId: 'req-1',
      providerModel: 'served',
    });
    expect((await run([{ headers: { 'x-request-id': long }, body: { type: 'text', text: '{"ok":true}' } }])).execution.responseMetadata).toEqual({
      providerRequestId: long.slice(0, 256),
      providerModel: 'served',
    });
    const dropping = family({ overlongRequestId: 'drop', requestIdHeaders: ['a', 'b'] });
    expect((await run([{ headers: { b: long }, body: { type: 'text', text: '{"ok":true}' } }], chat(false), dropping)).execution.responseMetadata).toEqual({ providerModel: 'served' });
    expect((await run([{ headers: { a: '', b: 'req-b' }, body: { type: 'text', text: '{"ok":true}' } }], chat(false), dropping)).execution.responseMetadata).toEqual({
      providerRequestId: 'req-b',
      providerModel: 'served',
    });
  });

  it('reads the family\'s rate-limit headers into the metadata of every answer (sync, stream, refusal); unreadable values are left out', async () => {
    const limited = family({
      rateLimitHeaders: {
        requests: rateLimitWindowHeaders((part) => `x-limit-${part}-requests`),
        tokens: rateLimitWindowHeaders((part) => `x-limit-${part}-tokens`),
        reset: 'duration',
      },
    });
    const headers = {
      'x-limit-limit-requests': '60',
      'x-limit-remaining-requests': '59',
      'x-limit-reset-requests': '1s',
      'x-limit-limit-tokens': 'lots',
      'x-limit-remaining-tokens': '-1',
      'x-limit-reset-tokens': '6m0s',
    };
    const rateLimits = { requests: { limit: 60, remaining: 59, resetMs: 1000 }, tokens: { resetMs: 360_000 } };
    const sync = await run([{ headers, body: { type: 'text', text: '{"ok":true}' } }], chat(false), limited);
    expect(sync.execution.responseMetadata).toEqual({ providerModel: 'served', rateLimits });
    const streamed = await run([{ headers, body: { type: 'text', text: 'data: {}\n\n' } }], chat(true), limited);
    expect(streamed.execution.responseMetadata).toEqual({ rateLimits });
    const refused = await run([{ status: 429, headers: { ...headers, 'retry-after': '2' }, body: { type: 'text', text: '{"error":{}}' } }], chat(false), limited);
    expect(refused.execution.responseMetadata).toEqual({ rateLimits: { ...rateLimits, retryAfterMs: 2000 } });
    const unreadable = await run([{ headers: { 'x-limit-limit-requests': '1e3', 'x-limit-reset-requests': 'soon' }, body: { type: 'text', text: '{"ok":true}' } }], chat(false), limited);
    expect(unreadable.execution.responseMetadata).toEqual({ providerModel: 'served' });
  });

  it('a family without a rate-limit dialect reports only the retry-after wait, and no rate limits when none was sent', async () => {
    const headers = { 'x-ratelimit-remaining-requests': '5', 'retry-after-ms': '1500' };
    const { execution } = await run([{ status: 429, headers, body: { type: 'text', text: '{"error":{}}' } }]);
    expect(execution.responseMetadata).toEqual({ rateLimits: { retryAfterMs: 1500 } });
    const plain = await run([{ headers: { 'x-ratelimit-remaining-requests': '5' }, body: { type: 'text', text: '{"ok":true}' } }]);
    expect(plain.execution.responseMetadata).toEqual({ providerModel: 'served' });
  });

  it('a 2xx body the decoder refuses is a protocol violation with acceptance unknown; a 2xx stream goes to the stream decoder', async () => {
    const refused = await run([{ body: { type: 'text', text: '[]' } }]);
    expect(refused.execution).toMatchObject({ kind: 'response', acceptance: { state: 'unknown' }, terminal: { status: 'failed', failure: { code: 'protocol-violation' } } });
    const streamed = await run([{ headers: { 'x-request-id': 'req-s' }, body: { type: 'text', text: 'data: {}\n\n' } }], chat(true));
    expect(streamed.execution).toMatchObject({ kind: 'stream', acceptance: { state: 'accepted' }, responseMetadata: { providerRequestId: 'req-s' } });
  });

  it('a 2xx stream answered in a format not the family\'s (a captive portal page) is a protocol violation with acceptance unknown, like the sync path', async () => {
    const page = '<html><body>Sign in to the Wi-Fi</body></html>';
    for (const task of [chat(true), chat(false)]) {
      const { execution, transport } = await run([{ headers: { 'content-type': 'text/html; charset=utf-8' }, body: { type: 'text', text: page } }], task);
      expect(execution.acceptance).toEqual({ state: 'unknown' });
      const parts: AdapterStreamPartV1[] = [];
      if (execution.kind === 'stream') for await (const part of execution.parts) parts.push(part);
      const terminal = execution.kind === 'stream' ? (parts.at(-1) as { outcome: unknown }).outcome : execution.terminal;
      expect(terminal).toEqual({ status: 'failed', failure: { code: 'protocol-violation', retryable: false } });
      expect(transport.bodyStates()[0]).not.toBe('unread');
      expect(transport.bodyStates()[0]).not.toBe('reading');
    }
  });

  it('accepts the real-world stream content types: parameters, text/plain SSE, no header; JSON only where the family says so', async () => {
    for (const contentType of ['text/event-stream', 'text/event-stream; charset=utf-8', 'Text/Event-Stream;charset=UTF-8', 'text/plain; charset=utf-8', undefined]) {
      const headers = contentType === undefined ? {} : { 'content-type': contentType };
      const { execution } = await run([{ headers, body: { type: 'text', text: 'data: {}\n\n' } }], chat(true));
      expect({ contentType, acceptance: execution.acceptance }).toEqual({ contentType, acceptance: { state: 'accepted' } });
    }
    const json = [{ headers: { 'content-type': 'application/json' }, body: { type: 'text' as const, text: '{"error":{}}' } }];
    expect((await run(json, chat(true))).execution.acceptance).toEqual({ state: 'unknown' });
    const bareJsonFamily = family({ streamMediaTypes: ['text/event-stream', 'application/json'] });
    expect((await run(json, chat(true), bareJsonFamily)).execution.acceptance).toEqual({ state: 'accepted' });
  });

  it('a family without a stream decoder answers a stream task with a response execution', async () => {
    const { decodeStream, ...syncDefinition } = definition();
    expect(decodeStream).toBeDefined();
    const syncOnly = defineHttpFamily(syncDefinition);
    const { execution } = await run([{ body: { type: 'text', text: '{"ok":true}' } }], chat(true), syncOnly);
    expect(execution.kind).toBe('response');
  });

  it('builds a frozen suite entry, direct HTTP exactly when codecs are given, and checks options at creation', () => {
    const entry = family().createSuiteEntry();
    expect(Object.isFrozen(entry)).toBe(true);
    expect(entry).toMatchObject({ protocolFamily: 'kit-test/v1', execution: 'sync', directHttp: false });
    const checked = family({ checkOptions: () => { throw new CodecErrorV1('invalid-request', 'bad option'); } });
    expect(() => checked.createAdapterFactory()).toThrow('bad option');
  });
});
