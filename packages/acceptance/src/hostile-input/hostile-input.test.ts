import { createHttpProviderTransport, isHttpTransportConfigurationError } from '@tokenforge/http-transport';
import type { ProtocolFamily, TaskEnvelopeV2 } from '@tokenforge/model-protocol';
import { isProtocolEngineErrorV1 } from '@tokenforge/protocol-engine';
import { describe, expect, it } from 'vitest';
import {
  CANARY,
  CANARY_API_KEY,
  CHAT_CAPABILITY,
  VIDEO_CAPABILITY,
  bindHostile,
  engine,
  settle,
  startHostileProvider,
  startRawProvider,
  suite,
} from './test-support/hostile-provider.js';
import { scanForCanaries } from './test-support/scan-for-canaries.js';

const signal = (): AbortSignal => new AbortController().signal;
const CHAT_FAMILIES = (['openai-chat/v1', 'openai-responses/v1', 'anthropic-messages/v1', 'gemini-generate-content/v1'] as ProtocolFamily[]).filter(
  (family) => engine.protocolFamilies.includes(family),
);
const JOB_FAMILIES = (['dashscope-tasks/v1', 'kling-video/v1'] as ProtocolFamily[]).filter((family) => engine.protocolFamilies.includes(family));

const chat = (extra: Record<string, unknown> = {}): TaskEnvelopeV2 =>
  ({ kind: 'chat', messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }], stream: false, maxOutputTokens: 64, ...extra }) as TaskEnvelopeV2;

/** Whatever the call produced, as one client-visible value: the execution (stream drained) or the engine error. */
async function outcomeOf(run: () => Promise<unknown>): Promise<{ readonly value: unknown; readonly error: unknown }> {
  try {
    const value = await run();
    if (typeof value === 'object' && value !== null && (value as { kind?: unknown }).kind === 'stream') {
      const stream = value as { events: AsyncIterable<unknown>; terminal: Promise<unknown> };
      const events: unknown[] = [];
      try {
        for await (const event of stream.events) events.push(event);
      } catch (error) {
        return { value: { ...value, events }, error };
      }
      return { value: { ...value, events, terminal: await stream.terminal }, error: undefined };
    }
    return { value, error: undefined };
  } catch (error) {
    return { value: undefined, error };
  }
}

function expectNoCanary(outcome: { readonly value: unknown; readonly error: unknown }): void {
  expect(scanForCanaries(outcome.value, CANARY)).toEqual([]);
  expect(scanForCanaries(outcome.error, CANARY)).toEqual([]);
  if (outcome.error !== undefined) expect(isProtocolEngineErrorV1(outcome.error)).toBe(true);
}

/** Provider error bodies that echo the key in every field a decoder might lift into a fact. */
const ECHO_BODIES: Readonly<Record<string, string>> = {
  'openai-chat/v1': JSON.stringify({ error: { code: CANARY_API_KEY, type: CANARY_API_KEY, message: `bad key ${CANARY_API_KEY}`, param: CANARY_API_KEY } }),
  'openai-responses/v1': JSON.stringify({ error: { code: CANARY_API_KEY, type: CANARY_API_KEY, message: `bad key ${CANARY_API_KEY}` } }),
  'anthropic-messages/v1': JSON.stringify({ type: 'error', error: { type: CANARY_API_KEY, message: CANARY_API_KEY } }),
  'gemini-generate-content/v1': JSON.stringify({ error: { code: 401, status: CANARY_API_KEY, message: CANARY_API_KEY } }),
};

describe('hostile-input corpus: engine + builtin adapters + http-transport over loopback', () => {
  describe('1. job ids that would leave their path segment', () => {
    const HOSTILE_IDS = ['../../../admin/keys', '..%2F..%2Fadmin%2Fkeys', 'x/../../admin', '..', '%2e%2e', 'a\\..\\admin', 'id?admin=1'];
    it.each(JOB_FAMILIES)('%s refuses them for get and cancel before any request is sent', async (family) => {
      const provider = await startHostileProvider((_request, response) => response.end('{}'));
      const binding = bindHostile(provider, family, VIDEO_CAPABILITY);
      for (const providerJobId of HOSTILE_IDS) {
        for (const operation of ['get', 'cancel'] as const) {
          if (!suite.registry.requireAsync?.(family).jobOperations.includes(operation)) continue;
          const outcome = await outcomeOf(() => engine.jobs[operation]({ binding, providerJobId, signal: signal() }));
          expect(outcome.error).toMatchObject({ code: 'PROTOCOL_ENGINE_INPUT_INVALID', phase: 'input' });
        }
      }
      expect(provider.requests).toHaveLength(0);
    });
  });

  describe('2. provider echoes of the credential', () => {
    it.each(CHAT_FAMILIES)('%s: a 401 echoing the key in its body and request-id headers yields no fact holding it', async (family) => {
      const provider = await startHostileProvider((request, response) => {
        const sent = String(request.headers.authorization ?? request.headers['x-api-key'] ?? request.headers['x-goog-api-key'] ?? '');
        response.writeHead(401, { 'content-type': 'application/json', 'x-request-id': sent, 'request-id': sent, 'x-goog-request-id': sent });
        response.end(ECHO_BODIES[family]);
      });
      const outcome = await outcomeOf(() => engine.execute({ binding: bindHostile(provider, family, CHAT_CAPABILITY), task: chat(), signal: signal() }));
      expect(provider.requests).toHaveLength(1);
      expect(outcome.value).toMatchObject({ kind: 'response', terminal: { status: 'failed' } });
      expectNoCanary(outcome);
    });

    it('anthropic-messages/v1: an SSE error event echoing the key yields no fact holding it', async () => {
      const provider = await startHostileProvider((request, response) => {
        response.writeHead(200, { 'content-type': 'text/event-stream', 'request-id': String(request.headers['x-api-key']) });
        response.end(`event: error\ndata: ${JSON.stringify({ type: 'error', error: { type: CANARY_API_KEY, message: CANARY_API_KEY } })}\n\n`);
      });
      const binding = bindHostile(provider, 'anthropic-messages/v1' as ProtocolFamily, CHAT_CAPABILITY);
      const outcome = await outcomeOf(() => engine.execute({ binding, task: chat({ stream: true }), signal: signal() }));
      expect(outcome.value).toMatchObject({ kind: 'stream', terminal: { status: 'failed' } });
      expectNoCanary(outcome);
    });
  });

  describe('3. inputs that throw when read', () => {
    it('execute, jobs and binding creation fail only with ProtocolEngineErrorV1', async () => {
      const provider = await startHostileProvider((_request, response) => response.end('{}'));
      const binding = bindHostile(provider, 'openai-chat/v1' as ProtocolFamily, CHAT_CAPABILITY);
      const throwing = Object.defineProperty({ binding, signal: signal() }, 'task', { enumerable: true, get: () => { throw new Error(CANARY); } });
      const executeOutcome = await outcomeOf(() => engine.execute(throwing as never));
      expect(executeOutcome.error).toMatchObject({ code: 'PROTOCOL_ENGINE_INPUT_INVALID', phase: 'input' });
      const jobOutcome = await outcomeOf(() => engine.jobs.get(new Proxy({}, { get: () => { throw new Error(CANARY); } }) as never));
      expect(jobOutcome.error).toMatchObject({ code: 'PROTOCOL_ENGINE_INPUT_INVALID', phase: 'input' });
      expectNoCanary(executeOutcome);
      expectNoCanary(jobOutcome);
      expect(provider.requests).toHaveLength(0);
    });
  });

  describe('4. malformed HTTP', () => {
    it.each([
      ['a malformed status line', 'HTTP/1.1 2OO OK\r\ncontent-length: 2\r\n\r\n{}'],
      ['a malformed header', 'HTTP/1.1 200 OK\r\nbroken header line\r\ncontent-length: 2\r\n\r\n{}'],
    ])('%s is a protocol-error transport failure', async (_label, bytes) => {
      const provider = await startRawProvider(bytes);
      const outcome = await outcomeOf(() =>
        engine.execute({ binding: bindHostile(provider, 'openai-chat/v1' as ProtocolFamily, CHAT_CAPABILITY), task: chat(), signal: signal() }),
      );
      const failure = outcome.error ?? (outcome.value as { terminal?: unknown }).terminal;
      expect(JSON.stringify(failure) + String((outcome.error as { cause?: { reason?: string } } | undefined)?.cause?.reason)).toMatch(/protocol-error|protocol-violation/);
      expectNoCanary(outcome);
    });
  });

  describe('5 (and the address policy that already holds). restricted addresses in every spelling', () => {
    it.each(['::ffff:0:7f00:1', '::ffff:0:10.0.0.1', '::ffff:127.0.0.1', '64:ff9b::a9fe:a9fe', '169.254.169.254', '10.0.0.1', '::1', 'fd00:ec2::254'])(
      'a name resolving to %s is refused before any socket is opened',
      async (address) => {
        const transport = createHttpProviderTransport({
          baseUrl: 'https://api.hostile.test/v1',
          credentials: { type: 'api-key', apiKey: CANARY_API_KEY },
          metadata: suite.transportMetadataFor('openai-chat/v1' as ProtocolFamily),
          resolveHostname: async () => [address],
        });
        try {
          const failure = await transport.send({ method: 'GET', path: '/models', headers: {}, body: { type: 'none' }, signal: signal() }).then(
            () => undefined,
            (error: unknown) => error,
          );
          expect(failure).toMatchObject({ stage: 'before-send', reason: 'policy-refused' });
        } finally {
          await transport.destroy();
        }
      },
    );
  });

  describe('6. same-origin redirects that leave the base path', () => {
    it.each(['/admin/secret', '/v1/../admin', '/v1/..%2Fadmin'])('302 to %s is refused and the target never sees the credential', async (location) => {
      const provider = await startHostileProvider((request, response) => {
        if (request.url?.startsWith('/v1/chat')) {
          response.writeHead(302, { location });
          response.end();
          return;
        }
        response.end('{}');
      });
      const binding = bindHostile(provider, 'openai-chat/v1' as ProtocolFamily, CHAT_CAPABILITY, { redirects: 'follow-same-origin' });
      const outcome = await outcomeOf(() => engine.execute({ binding, task: chat(), signal: signal() }));
      expect(provider.requests.map((request) => request.url)).toEqual(['/v1/chat/completions']);
      expectNoCanary(outcome);
    });
  });

  describe('7. unserializable free-form JSON members', () => {
    const cyclic: Record<string, unknown> = { type: 'object' };
    cyclic.self = cyclic;
    const VALUES: readonly (readonly [string, unknown])[] = [
      ['a BigInt', { type: 'object', maximum: 10n }],
      ['a cycle', cyclic],
      ['a throwing toJSON', { type: 'object', properties: { toJSON: undefined, q: { toJSON: () => { throw new Error(CANARY); } } } }],
    ];
    it.each(CHAT_FAMILIES.flatMap((family) => VALUES.map(([label, value]) => [family, label, value] as const)))(
      '%s: %s in a tool inputSchema or responseFormat.schema is INPUT_INVALID and nothing is sent',
      async (family, _label, value) => {
        const provider = await startHostileProvider((_request, response) => response.end('{}'));
        const binding = bindHostile(provider, family, CHAT_CAPABILITY);
        for (const task of [
          chat({ tools: [{ name: 'lookup', inputSchema: value }] }),
          chat({ responseFormat: { type: 'json', name: 'answer', schema: value } }),
        ]) {
          const outcome = await outcomeOf(() => engine.execute({ binding, task, signal: signal() }));
          expect(outcome.error).toMatchObject({ code: 'PROTOCOL_ENGINE_INPUT_INVALID', phase: 'input' });
          expectNoCanary(outcome);
        }
        expect(provider.requests).toHaveLength(0);
      },
    );
  });

  describe('8. policies that cannot work', () => {
    it.each([
      ['http://127.0.0.1:1/v1', { allowInsecureHttpToLoopback: true }],
      ['http://hostile.test:1/v1', { allowInsecureHttpToLoopback: true, allowedAddressCategories: ['private'] }],
      ['https://localhost/v1', {}],
      ['https://[::ffff:0:a00:1]/v1', {}],
    ] as const)('%s under %j is refused when the transport is created', (baseUrl, policy) => {
      let error: unknown;
      try {
        createHttpProviderTransport({ baseUrl, credentials: { type: 'api-key', apiKey: CANARY_API_KEY }, metadata: suite.transportMetadataFor('openai-chat/v1' as ProtocolFamily), policy });
      } catch (caught) {
        error = caught;
      }
      expect(isHttpTransportConfigurationError(error)).toBe(true);
      expect((error as Error).message).toMatch(/policy\.allowedAddressCategories/);
      expect((error as Error).message).not.toContain(CANARY);
    });
  });

  describe('9. time bounds', () => {
    it('a sync body that drips one byte at a time ends at the body deadline', async () => {
      const provider = await startHostileProvider((_request, response) => {
        response.writeHead(200, { 'content-type': 'application/json' });
        const timer = setInterval(() => (response.destroyed ? clearInterval(timer) : response.write(' ')), 50);
        response.on('close', () => clearInterval(timer));
      });
      const binding = bindHostile(provider, 'openai-chat/v1' as ProtocolFamily, CHAT_CAPABILITY, { bodyDeadlineMs: 400 });
      const started = Date.now();
      const outcome = await outcomeOf(() => engine.execute({ binding, task: chat(), signal: signal() }));
      expect(Date.now() - started).toBeLessThan(3_000);
      expect(outcome.error ?? (outcome.value as { terminal?: { status?: string } }).terminal?.status).toBeDefined();
      if (outcome.error === undefined) expect(outcome.value).toMatchObject({ terminal: { status: 'failed' } });
      expectNoCanary(outcome);
    });
  });

  describe('10 (and the stream lifecycle that already holds). sockets after aborts and abandoned streams', () => {
    it.each(CHAT_FAMILIES)('%s: an aborted execution opens no second connection; an abandoned stream releases its socket', async (family) => {
      const provider = await startHostileProvider(() => undefined);
      const controller = new AbortController();
      const binding = bindHostile(provider, family, CHAT_CAPABILITY);
      const running = outcomeOf(() => engine.execute({ binding, task: chat(), signal: controller.signal }));
      await settle(100);
      controller.abort();
      expect((await running).error).toMatchObject({ code: 'PROTOCOL_ENGINE_ABORTED' });
      await settle(300);
      expect(provider.sockets).toHaveLength(1);
      expect(provider.sockets[0]?.destroyed).toBe(true);
    });

    it('a stream the host stops iterating early releases its socket', async () => {
      const provider = await startHostileProvider((_request, response) => {
        response.writeHead(200, { 'content-type': 'text/event-stream' });
        const chunk = { id: 'c1', object: 'chat.completion.chunk', created: 1, model: 'm', choices: [{ index: 0, delta: { content: 'x' }, finish_reason: null }] };
        response.write(`data: ${JSON.stringify(chunk)}\n\n`);
      });
      const execution = await engine.execute({ binding: bindHostile(provider, 'openai-chat/v1' as ProtocolFamily, CHAT_CAPABILITY), task: chat({ stream: true }), signal: signal() });
      if (execution.kind !== 'stream') throw new Error('expected a stream');
      for await (const event of execution.events) {
        void event;
        break;
      }
      expect(await execution.terminal).toMatchObject({ status: 'cancelled' });
      await settle(100);
      expect(provider.sockets.every((socket) => socket.destroyed)).toBe(true);
    });
  });

  describe('safe JSON (already holds): prototype keys and deep nesting in provider bytes', () => {
    it.each(CHAT_FAMILIES)('%s: a body with __proto__ keys and 10 000 levels of nesting pollutes nothing and leaks nothing', async (family) => {
      const deep = `${'['.repeat(10_000)}${']'.repeat(10_000)}`;
      const provider = await startHostileProvider((_request, response) => {
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end(`{"__proto__":{"polluted":"${CANARY_API_KEY}"},"constructor":{"prototype":{"polluted":1}},"deep":${deep}}`);
      });
      const outcome = await outcomeOf(() => engine.execute({ binding: bindHostile(provider, family, CHAT_CAPABILITY), task: chat(), signal: signal() }));
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
      expectNoCanary(outcome);
    });
  });
});
