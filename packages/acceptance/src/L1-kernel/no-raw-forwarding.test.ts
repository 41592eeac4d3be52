import { cpSync, mkdtempSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type {
  AdapterStreamPartV1,
  ProtocolFamily,
  ProviderAdapterExecutionV1,
  ProviderAdapterFactory,
  ProviderAsyncJobAdapterFactory,
  ProviderAsyncJobAdapterV1,
  ProviderTransport,
  ProviderTransportResponse,
  TaskEnvelopeV2,
} from '@tokenforge/model-protocol';
import { createProtocolEngineTargetBindingV1, createProtocolEngineV1, isProtocolEngineErrorV1, type ProtocolEngineV1 } from '@tokenforge/protocol-engine';
import { afterAll, describe, expect, it } from 'vitest';
import { scanRawForwarding, scanRawForwardingSource } from './no-raw-forwarding-scan.js';
import { kernelGateDirectory, listFiles, repositoryRoot } from './test-support/repository.js';

/** Copies the planted tree to a temporary folder with the `.planted` suffixes dropped; returns its `packages/`. */
function materializeFixture(): string {
  const folder = mkdtempSync(join(tmpdir(), 'tokenforge-raw-forwarding-'));
  afterAll(() => rmSync(folder, { recursive: true, force: true }));
  cpSync(join(kernelGateDirectory, 'no-raw-forwarding-fixture'), folder, { recursive: true });
  for (const file of listFiles(folder)) if (file.endsWith('.ts.planted')) renameSync(join(folder, file), join(folder, file.slice(0, -'.planted'.length)));
  return join(folder, 'packages');
}

const fixture = materializeFixture();

describe('no raw forwarding: static rule', () => {
  it('finds no raw response, body or chunk leaving any adapter function, and no engine code that sends or names raw bytes', () => {
    const engine = scanRawForwarding(join(repositoryRoot, 'packages', 'protocol-engine'), { engine: true });
    const adapters = scanRawForwarding(join(repositoryRoot, 'packages', 'provider-adapters'), { engine: false });
    expect(engine.files).toContain('src/index.ts');
    expect(adapters.files.filter((file) => file.endsWith('/adapter.ts')).length).toBeGreaterThanOrEqual(9);
    // The rule saw the adapters' real transport responses, so a clean result means something. They are read in the
    // codec kit's family moulds (define-http-family.ts, define-async-job-family.ts) and json-response.ts, once for
    // every family, where each adapter.ts used to hold its own copy.
    expect(adapters.rawReferences).toBeGreaterThanOrEqual(7);
    expect([...engine.findings, ...adapters.findings]).toEqual([]);
    // A TypeScript program over two packages: tens of seconds on a loaded two-core machine.
  }, 180_000);

  it('finds no client request or body forwarded by the gateway, and no request the gateway sends itself', () => {
    const gateway = scanRawForwarding(join(repositoryRoot, 'packages', 'gateway'), { engine: false, gateway: true });
    expect(gateway.files).toContain('src/dialects/serve-direct-request.ts');
    // The rule saw the gateway's reads of the client request (every route reads one), so a clean result means something.
    expect(gateway.rawReferences).toBeGreaterThan(5);
    // Webhooks (and result downloads) go through @tokenforge/http-transport's sendOutboundRequest: no exemption.
    expect(gateway.files).toContain('src/jobs/webhooks/deliver-webhook.ts');
    expect(gateway.findings).toEqual([]);
  }, 180_000);

  it.each([
    ['the client body into a Response', 'app.post("/x", async (c) => new Response(c.req.raw.body));', ['raw-escapes']],
    ['read bytes into a Response', 'app.post("/x", async (c) => { const bytes = await readLimitedBody(c.req.raw, 10); return new Response(bytes); });', ['raw-escapes']],
    ['an aliased request body into a Response', 'app.post("/x", async (c) => { const request = c.req.raw; return new Response(request.body); });', ['raw-escapes']],
    ['the client request returned', 'app.post("/x", async (c) => { const request = c.req.raw; return request; });', ['raw-escapes']],
    ['a fetch of its own', 'app.post("/x", async (c) => { const bytes = await c.req.arrayBuffer(); return fetch(u, { body: bytes }); });', ['gateway-sends']],
    ['an HTTP client import', 'import { request } from "node:http";', ['gateway-sends']],
  ])('flags the gateway handing on %s', (_name, source, rules) => {
    expect(scanRawForwardingSource('probe.ts', source, { engine: false, gateway: true }).findings.map((finding) => finding.rule)).toEqual(rules);
  });

  it('lets the gateway hand the client body to a decoder or the ingress wire type (a same-named local elsewhere is not the body)', () => {
    const source =
      'app.post("/x", async (c) => { const bytes = await readLimitedBody(c.req.raw, 10); return c.json(decode(bytes)); });' +
      'app.post("/y", async (c) => { const body = await c.req.text(); const wire: ClientWireRequestV2 = { body }; return c.json(ingress.decodeRequest(wire)); });' +
      'function encode() { const body = makeStream(); return new Response(body); }';
    const scan = scanRawForwardingSource('probe.ts', source, { engine: false, gateway: true });
    expect(scan.findings).toEqual([]);
    expect(scan.rawReferences).toBeGreaterThanOrEqual(4);
  });

  it('reports exactly the planted violations of its fixture and skips fixture transports', () => {
    const adapters = scanRawForwarding(join(fixture, 'provider-adapters'), { engine: false });
    expect(adapters.files).toEqual(['src/protocols/leaky/adapter.ts']);
    const file = 'src/protocols/leaky/adapter.ts';
    expect(adapters.findings).toEqual([
      { file, line: 15, rule: 'raw-escapes', match: 'response.body' },
      { file, line: 21, rule: 'raw-escapes', match: 'response' },
      { file, line: 22, rule: 'raw-escapes', match: 'response' },
      { file, line: 28, rule: 'raw-escapes', match: 'chunk' },
      { file, line: 34, rule: 'raw-escapes', match: 'response.body' },
      { file, line: 35, rule: 'raw-escapes', match: 'response.body' },
    ]);
    const engine = scanRawForwarding(join(fixture, 'protocol-engine'), { engine: true });
    const engineFile = 'src/engine/leaky-engine.ts';
    expect(engine.findings).toEqual([
      { file: engineFile, line: 4, rule: 'engine-raw-type', match: 'Uint8Array' },
      { file: engineFile, line: 5, rule: 'engine-sends', match: 'transport.send' },
      { file: engineFile, line: 6, rule: 'engine-raw-type', match: 'Uint8Array' },
    ]);
  });

  it.each([
    ['a body in an arrow body', 'const f = async (t: T) => { const r = await t.send(q); return () => r.body; };'],
    ['a body through a conditional', 'async function f(t: T) { const r = await t.send(q); return { parts: ok ? r.body : empty }; }'],
    ['a destructured body', 'async function f(t: T) { const { body } = await t.send(q); return { parts: body }; }'],
    ['a reassigned response', 'async function f(t: T) { let r; r = await t.send(q); return r; }'],
  ])('flags %s', (_name, source) => {
    expect(scanRawForwardingSource('probe.ts', source, { engine: false }).findings.map((finding) => finding.rule)).toEqual(['raw-escapes']);
  });
});

const FAMILY = 'probe-raw/v1' as ProtocolFamily;
const ASYNC_FAMILY = 'probe-raw-jobs/v1' as ProtocolFamily;
const TASK: TaskEnvelopeV2 = { kind: 'chat', messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }], stream: false };
const STREAM_TASK: TaskEnvelopeV2 = { ...TASK, stream: true };
const BYTES = new TextEncoder().encode('{"raw":"provider body"}');

function transportResponse(): ProviderTransportResponse {
  return {
    status: 200,
    headers: { 'content-type': 'application/json' },
    body: (async function* () {
      yield BYTES;
    })(),
  };
}

const transport: ProviderTransport = { send: async () => transportResponse() };
const completed = { status: 'completed', result: { kind: 'chat', content: [{ type: 'text', text: 'hi' }] }, finishReason: { unified: 'stop', raw: 'stop' } } as const;

type Executor = (response: ProviderTransportResponse) => unknown;

function engineWith(execute: Executor, asyncAdapter?: (response: ProviderTransportResponse) => Partial<ProviderAsyncJobAdapterV1>): ProtocolEngineV1 {
  const factory: ProviderAdapterFactory = {
    protocolFamily: FAMILY,
    createAdapter: () => ({ execute: async (input) => execute(await input.transport.send({ method: 'POST', path: '/x', headers: {}, body: { type: 'none' }, signal: input.signal })) as ProviderAdapterExecutionV1 }),
  };
  const asyncFactory: ProviderAsyncJobAdapterFactory = {
    protocolFamily: ASYNC_FAMILY,
    jobOperations: ['get', 'list'],
    createAdapter: () => {
      const response = transportResponse();
      return {
        start: async () => ({ acceptance: { state: 'accepted' }, responseMetadata: {}, providerJobId: 'job-1' }),
        get: async () => ({ status: 'ok', value: { providerJobId: 'job-1', state: 'running' } }),
        list: async () => ({ status: 'ok', value: { items: [], total: 0, totalKind: 'exact' } }),
        ...asyncAdapter?.(response),
      } as ProviderAsyncJobAdapterV1;
    },
  };
  return createProtocolEngineV1({
    registry: {
      listProtocolFamilies: () => [FAMILY, ASYNC_FAMILY],
      require: () => factory,
      requireAsync: () => asyncFactory,
    },
  });
}

function bindingFor(family: ProtocolFamily, executionMode: 'stream-capable' | 'async-job') {
  return createProtocolEngineTargetBindingV1({
    target: { provider: 'probe', providerModel: 'probe-model', connectionRef: 'probe', capability: { protocolFamily: family, executionMode, taskKinds: ['chat', 'video-generation'] } },
    bindTransport: () => transport,
  });
}

async function engineErrorCode(run: () => Promise<unknown>): Promise<string> {
  try {
    await run();
  } catch (error) {
    if (isProtocolEngineErrorV1(error)) return error.code;
    throw error;
  }
  return 'no error';
}

async function execute(execute: Executor, task: TaskEnvelopeV2 = TASK): Promise<string> {
  const engine = engineWith(execute);
  return engineErrorCode(async () => {
    const execution = await engine.execute({ binding: bindingFor(FAMILY, 'stream-capable'), task, signal: new AbortController().signal });
    if (execution.kind === 'stream') {
      for await (const _event of execution.events) {
        // drain
      }
      await execution.terminal;
    }
  });
}

async function* parts(...items: unknown[]): AsyncIterable<AdapterStreamPartV1> {
  for (const item of items) yield item as AdapterStreamPartV1;
}

describe('no raw forwarding: the engine refuses adapter output that carries raw provider data', () => {
  const INVALID = 'PROTOCOL_ENGINE_ADAPTER_OUTPUT_INVALID';
  const base = { kind: 'response', acceptance: { state: 'accepted' }, responseMetadata: {} };

  it('accepts a well-formed execution from the same probe adapter (control)', async () => {
    expect(await execute(() => ({ ...base, terminal: completed }))).toBe('no error');
    expect(await execute(() => ({ ...base, kind: 'stream', parts: parts({ type: 'text-start', index: 0 }, { type: 'text-delta', index: 0, delta: 'hi' }, { type: 'text-end', index: 0 }, { type: 'terminal', outcome: completed }) }), STREAM_TASK)).toBe('no error');
  });

  it.each<[string, Executor]>([
    ['the transport response as the terminal', (response) => ({ ...base, terminal: response })],
    ['the raw body as the terminal', (response) => ({ ...base, terminal: response.body })],
    ['raw bytes inside the result', () => ({ ...base, terminal: { ...completed, result: { ...completed.result, raw: BYTES } } })],
    ['raw bytes as a content part', () => ({ ...base, terminal: { ...completed, result: { kind: 'chat', content: [BYTES] } } })],
    ['an extra field on the terminal', (response) => ({ ...base, terminal: { ...completed, providerBody: response.body } })],
    ['the raw body in the response metadata', (response) => ({ ...base, responseMetadata: { body: response.body }, terminal: completed })],
    ['raw bytes as the request id', () => ({ ...base, responseMetadata: { providerRequestId: BYTES }, terminal: completed })],
    ['an extra field on the execution', (response) => ({ ...base, terminal: completed, body: response.body })],
    ['the transport response as the execution', (response) => response],
  ])('refuses %s', async (_name, executor) => {
    expect(await execute(executor)).toBe(INVALID);
  });

  it.each<[string, Executor]>([
    ['the raw body as the stream parts', (response) => ({ ...base, kind: 'stream', parts: response.body })],
    ['a raw chunk as a stream part', () => ({ ...base, kind: 'stream', parts: parts(BYTES, { type: 'terminal', outcome: completed }) })],
    ['an extra field on a stream event', () => ({ ...base, kind: 'stream', parts: parts({ type: 'text-start', index: 0, raw: BYTES }, { type: 'terminal', outcome: completed }) })],
  ])('refuses %s', async (_name, executor) => {
    expect(await execute(executor, STREAM_TASK)).toBe(INVALID);
  });

  it.each<[string, (response: ProviderTransportResponse) => Partial<ProviderAsyncJobAdapterV1>, 'start' | 'get' | 'list']>([
    ['the raw body on an async start', (response) => ({ start: async () => ({ acceptance: { state: 'accepted' }, responseMetadata: {}, providerJobId: 'job-1', body: response.body }) as never }), 'start'],
    ['raw bytes on a job snapshot', () => ({ get: async () => ({ status: 'ok', value: { providerJobId: 'job-1', state: 'running', raw: BYTES } }) as never }), 'get'],
    ['the transport response as a job snapshot', (response) => ({ get: async () => ({ status: 'ok', value: response }) as never }), 'get'],
    ['the raw body on a list page', (response) => ({ list: async () => ({ status: 'ok', value: { items: [], total: 0, totalKind: 'exact', body: response.body } }) as never }), 'list'],
  ])('refuses %s', async (_name, adapter, operation) => {
    const engine = engineWith(() => ({}), adapter);
    const binding = bindingFor(ASYNC_FAMILY, 'async-job');
    const signal = new AbortController().signal;
    const task: TaskEnvelopeV2 = { kind: 'video-generation', prompt: 'a boat' };
    const code = await engineErrorCode(async () => {
      if (operation === 'start') await engine.execute({ binding, task, signal });
      else if (operation === 'get') await engine.jobs.get({ binding, providerJobId: 'job-1', signal });
      else await engine.jobs.list({ binding, pageNum: 1, pageSize: 10, signal });
    });
    expect(code).toBe(INVALID);
  });

  it('accepts well-formed async output from the same probe adapter (control)', async () => {
    const engine = engineWith(() => ({}));
    const binding = bindingFor(ASYNC_FAMILY, 'async-job');
    const signal = new AbortController().signal;
    const start = await engine.execute({ binding, task: { kind: 'video-generation', prompt: 'a boat' }, signal });
    expect(start.kind).toBe('accepted-job');
    expect((await engine.jobs.get({ binding, providerJobId: 'job-1', signal })).snapshot.state).toBe('running');
    expect((await engine.jobs.list({ binding, pageNum: 1, pageSize: 10, signal })).items).toEqual([]);
  });
});
