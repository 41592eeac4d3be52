import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Anthropic from '@anthropic-ai/sdk';
import { ApiError, GoogleGenAI } from '@google/genai';
import { startProviderSimulator, type ProviderSimulator } from '@tokenforge/provider-simulator';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GatewayCatalogueV1 } from './catalogue/gateway-catalogue-v1.js';
import type { GovernanceLimitsV1, LedgerRowV1 } from './governance/v1/governance-store-v1.js';
import { ATTEMPT_ID_HEADER } from './governance/wiring/attempt-id-header.js';
import { startGateway, type RunningGateway } from './start-gateway.js';
import { createLogCapture, eventually } from './test-support/log-capture.js';
import { simulatorCatalogue, TEST_CLIENT_KEY } from './test-support/simulator-catalogue.js';

/*
 * Governance end to end on real sockets: the embedded store in a temporary data directory, the simulator as
 * upstream, the official OpenAI, Anthropic and Gemini SDKs as clients, the admin API over fetch.
 */

const PRICE = { currency: 'USD', version: 'test-price-1', inputPerMillion: '2', outputPerMillion: '8' };

let simulator: ProviderSimulator;
let gateway: RunningGateway;
let dataDir: string;
let upstream: Server;
const upstreamHeaders: IncomingHttpHeaders[] = [];
const log = createLogCapture();

/** A one-route OpenAI-compatible server that records the headers it was sent. */
async function startRecordingUpstream(): Promise<Server> {
  const server = createServer((request, response) => {
    upstreamHeaders.push(request.headers);
    request.resume();
    request.on('end', () => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(
        JSON.stringify({
          id: 'chatcmpl-rec',
          object: 'chat.completion',
          created: 1,
          model: 'rec',
          choices: [{ index: 0, message: { role: 'assistant', content: 'ok' }, finish_reason: 'stop' }],
          usage: { prompt_tokens: 11, completion_tokens: 3, total_tokens: 14 },
        }),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return server;
}

beforeAll(async () => {
  simulator = await startProviderSimulator();
  upstream = await startRecordingUpstream();
  const { catalogue, env } = simulatorCatalogue(simulator, [
    { name: 'chat', taskKind: 'chat', targets: [{ family: 'openai-chat/v1', model: 'text' }] },
    { name: 'claude', taskKind: 'chat', targets: [{ family: 'anthropic-messages/v1', model: 'text' }] },
    { name: 'gem', taskKind: 'chat', targets: [{ family: 'gemini-generate-content/v1', model: 'text' }] },
    { name: 'counting', taskKind: 'chat', targets: [{ family: 'anthropic-messages/v1', model: 'text', capability: { taskKinds: ['chat', 'token-count'] } }] },
    {
      name: 'fallback',
      taskKind: 'chat',
      targets: [
        { family: 'openai-chat/v1', model: 'error.503' },
        { family: 'openai-chat/v1', model: 'text' },
      ],
    },
    { name: 'long', taskKind: 'chat', targets: [{ family: 'openai-chat/v1', model: 'text.100000' }] },
    { name: 'cut', taskKind: 'chat', targets: [{ family: 'openai-chat/v1', model: 'truncated' }] },
    { name: 'hidden', taskKind: 'chat', targets: [{ family: 'openai-chat/v1', model: 'text' }] },
    { name: 'passing', taskKind: 'chat', targets: [{ family: 'openai-chat/v1', model: 'text', passRateLimitHeaders: true }] },
    {
      name: 'unreachable-first',
      taskKind: 'chat',
      targets: [
        { family: 'openai-chat/v1', model: 'text', baseUrl: 'http://127.0.0.1:1/v1' },
        { family: 'openai-chat/v1', model: 'text' },
      ],
    },
    { name: 'recorded', taskKind: 'chat', targets: [{ family: 'openai-chat/v1', model: 'rec', baseUrl: `http://127.0.0.1:${(upstream.address() as AddressInfo).port}/v1` }] },
  ]);
  for (const model of catalogue.models) for (const target of model.targets) (target as { price?: unknown }).price = PRICE;
  dataDir = mkdtempSync(join(tmpdir(), 'tokenforge-governance-'));
  gateway = await startGateway({ catalogue: catalogue as GatewayCatalogueV1, env, logger: log, dataDir });
});
afterAll(async () => {
  await gateway?.close();
  await simulator?.close();
  await new Promise((resolve) => upstream?.close(resolve));
  rmSync(dataDir, { recursive: true, force: true });
});

interface AdminAnswer {
  readonly status: number;
  readonly body: Record<string, unknown>;
}

async function admin(method: string, path: string, body?: unknown, key = gateway.governance?.adminKey): Promise<AdminAnswer> {
  const response = await fetch(`${gateway.url}/admin/v1${path}`, {
    method,
    headers: { authorization: `Bearer ${key ?? ''}`, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

let tenants = 0;
/** A new tenant with one key; answers the key (shown once) and the ids. */
async function tenantKey(limits: GovernanceLimitsV1 = {}, options: { modelAccess?: string[]; keyLimits?: GovernanceLimitsV1 } = {}): Promise<{ apiKey: string; tenantId: string; keyId: string }> {
  tenants += 1;
  const tenantId = `tenant-${tenants}`;
  const tenant = await admin('POST', '/tenants', { id: tenantId, name: `Tenant ${tenants}`, limits, ...(options.modelAccess === undefined ? {} : { modelAccess: options.modelAccess }) });
  expect(tenant.status).toBe(201);
  const key = await admin('POST', '/keys', { tenantId, ...(options.keyLimits === undefined ? {} : { limits: options.keyLimits }) });
  expect(key.status).toBe(201);
  return { apiKey: key.body.apiKey as string, tenantId, keyId: (key.body.key as { id: string }).id };
}

async function ledgerOf(tenantId: string): Promise<LedgerRowV1[]> {
  await gateway.governance?.settled();
  return [...(await (gateway.governance?.store.admin.ledger({ tenantId, limit: 100 }) ?? []))].sort((a, b) => a.attempt - b.attempt || a.startedAtMs - b.startedAtMs);
}

const calls = { count: 0 };
const countingFetch: typeof fetch = (input, init) => {
  calls.count += 1;
  return fetch(input, init);
};
const openai = (apiKey: string, maxRetries = 0) => new OpenAI({ apiKey, baseURL: `${gateway.url}/v1`, maxRetries, fetch: countingFetch });
const anthropic = (apiKey: string, maxRetries = 0) => new Anthropic({ apiKey, baseURL: gateway.url, maxRetries, fetch: countingFetch });
const gemini = (apiKey: string) => new GoogleGenAI({ apiKey, httpOptions: { baseUrl: gateway.url } });
const hi = [{ role: 'user' as const, content: 'hi' }];

/** Opens an OpenAI-dialect stream of 100,000 chunks and reads its first bytes: the tenant's slot is held until it ends. */
async function holdSlot(apiKey: string): Promise<AbortController> {
  const controller = new AbortController();
  const response = await fetch(`${gateway.url}/v1/chat/completions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
    body: JSON.stringify({ model: 'long', stream: true, messages: hi }),
    signal: controller.signal,
  });
  expect(response.status).toBe(200);
  await response.body?.getReader().read();
  return controller;
}

function failureOf(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => expect.unreachable('the request was expected to be refused'),
    (error: unknown) => error,
  );
}

describe('governance with the embedded store', () => {
  it('each static client key of the catalogue is a tenant of its own, so existing configs keep working', async () => {
    const answer = await openai(TEST_CLIENT_KEY).chat.completions.create({ model: 'chat', messages: hi });
    expect(answer.choices[0]?.message.content).toBeTruthy();
    const listed = await admin('GET', '/tenants');
    expect((listed.body.tenants as { id: string; modelAccess: string[]; limits: object }[]).filter((tenant) => ['main', 'other'].includes(tenant.id))).toEqual([
      expect.objectContaining({ id: 'main', modelAccess: ['*'], limits: {} }),
      expect.objectContaining({ id: 'other', modelAccess: ['*'], limits: {} }),
    ]);
    const keys = await admin('GET', '/keys?tenantId=main');
    expect(keys.body.keys).toEqual([expect.objectContaining({ tenantId: 'main', id: expect.stringMatching(/^static\.main\./) })]);
    expect(JSON.stringify(keys.body)).not.toContain(TEST_CLIENT_KEY);
    expect(JSON.stringify(keys.body)).not.toContain('digest');
  });

  it('the admin API: admin key only, tenants and keys created, listed and updated, a key shown once, a revoked key refused at once', async () => {
    expect((await admin('GET', '/tenants', undefined, 'wrong-admin-key')).body).toEqual({ error: { code: 'admin-unauthorized', message: expect.any(String) } });
    expect((await admin('GET', '/tenants', undefined, TEST_CLIENT_KEY)).status).toBe(401);
    const invalid = await admin('POST', '/tenants', { id: 'bad id', name: '' });
    expect(invalid.status).toBe(400);
    expect(invalid.body).toEqual({ error: { code: 'invalid-body', message: expect.any(String), fields: ['id', 'name'] } });

    const created = await admin('POST', '/tenants', { id: 'acme', name: 'Acme' });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({ version: expect.any(Number), tenant: expect.objectContaining({ id: 'acme', name: 'Acme', modelAccess: ['*'], limits: {}, disabled: false }) });
    expect((await admin('POST', '/tenants', { id: 'acme', name: 'Again' })).body).toEqual({ error: { code: 'conflict', message: expect.any(String) } });
    const renamed = await admin('PATCH', '/tenants/acme', { name: 'Acme Corp', limits: { requestsPerMinute: 100 } });
    expect(renamed.body.version).toBeGreaterThan(created.body.version as number);
    expect(renamed.body.tenant).toEqual(expect.objectContaining({ name: 'Acme Corp', limits: { requestsPerMinute: 100 } }));
    expect((await admin('PATCH', '/tenants/nobody', { name: 'x' })).status).toBe(404);

    const key = await admin('POST', '/keys', { tenantId: 'acme' });
    expect(key.status).toBe(201);
    const apiKey = key.body.apiKey as string;
    const keyId = (key.body.key as { id: string }).id;
    expect(apiKey).toMatch(/^tf-[0-9A-Za-z]{43}$/);
    expect(key.body.key).toEqual(expect.objectContaining({ tenantId: 'acme', displayPrefix: apiKey.slice(0, 7) }));
    const listed = await admin('GET', '/keys?tenantId=acme');
    expect(listed.body.keys).toEqual([expect.objectContaining({ id: keyId })]);
    expect(JSON.stringify(listed.body)).not.toContain(apiKey);

    expect((await openai(apiKey).chat.completions.create({ model: 'chat', messages: hi })).object).toBe('chat.completion');
    // A key narrows its tenant's model access; a disabled tenant's keys are refused like unknown ones.
    const narrowed = await admin('PATCH', `/keys/${keyId}`, { modelAccess: ['claude'] });
    expect(narrowed.body.key).toEqual(expect.objectContaining({ modelAccess: ['claude'] }));
    expect(await failureOf(openai(apiKey).chat.completions.create({ model: 'chat', messages: hi }))).toBeInstanceOf(OpenAI.NotFoundError);
    expect((await openai(apiKey).chat.completions.create({ model: 'claude', messages: hi })).object).toBe('chat.completion');
    await admin('PATCH', '/tenants/acme', { disabled: true });
    expect(await failureOf(openai(apiKey).chat.completions.create({ model: 'claude', messages: hi }))).toBeInstanceOf(OpenAI.AuthenticationError);
    await admin('PATCH', '/tenants/acme', { disabled: false });
    const revoked = await admin('POST', `/keys/${keyId}/revoke`);
    expect(revoked.status).toBe(200);
    expect(revoked.body.key).toEqual(expect.objectContaining({ id: keyId, revokedAtMs: expect.any(Number) }));
    const ready = (await (await fetch(`${gateway.url}/readyz`)).json()) as { governance: { appliedVersion: number } };
    expect(ready.governance.appliedVersion).toBeGreaterThanOrEqual(revoked.body.version as number);
    const refused = await failureOf(openai(apiKey).chat.completions.create({ model: 'chat', messages: hi }));
    expect(refused).toBeInstanceOf(OpenAI.AuthenticationError);
    await eventually(() => log.requests().some((entry) => entry.outcome === 'refused:revoked-key'));

    const audit = await admin('GET', '/audit?limit=50');
    const actions = (audit.body.entries as { action: string; subject: string; actor: string }[]).filter((entry) => entry.subject === 'acme' || entry.subject === keyId);
    expect(actions.map((entry) => entry.actor)).toContain('admin');
    expect(actions.length).toBeGreaterThanOrEqual(4);
    expect(JSON.stringify(audit.body)).not.toContain(apiKey);
  });

  it('a model the tenant may not use is answered exactly like an unknown model, and every model list shows only its models', async () => {
    const { apiKey } = await tenantKey({}, { modelAccess: ['chat', 'cl*'] });
    const ask = (model: string) =>
      fetch(`${gateway.url}/v1/chat/completions`, { method: 'POST', headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' }, body: JSON.stringify({ model, messages: hi }) });
    const hidden = await ask('hidden');
    const unknown = await ask('no-such-model');
    expect(hidden.status).toBe(404);
    expect(await hidden.text()).toBe(await unknown.text());
    expect(await failureOf(openai(apiKey).chat.completions.create({ model: 'hidden', messages: hi }))).toBeInstanceOf(OpenAI.NotFoundError);
    expect((await openai(apiKey).chat.completions.create({ model: 'claude', messages: hi })).object).toBe('chat.completion');

    const openAiIds: string[] = [];
    for await (const model of openai(apiKey).models.list()) openAiIds.push(model.id);
    expect(openAiIds).toEqual(['chat', 'claude']);
    const anthropicIds: string[] = [];
    for await (const model of anthropic(apiKey).models.list()) anthropicIds.push(model.id);
    expect(anthropicIds).toEqual(['chat', 'claude']);
    const geminiNames: string[] = [];
    for await (const model of await gemini(apiKey).models.list()) geminiNames.push(model.name ?? '');
    expect(geminiNames).toEqual(['models/chat', 'models/claude']);
    const everything: string[] = [];
    for await (const model of openai(TEST_CLIENT_KEY).models.list()) everything.push(model.id);
    expect(everything).toContain('hidden');
  });

  describe('refusals in each client dialect', () => {
    it('OpenAI clients: each code in error.code, retry-after where waiting helps, an exhausted budget not retried', async () => {
      const rate = await tenantKey({}, { keyLimits: { requestsPerMinute: 1, tokensPerMinute: 1_000_000 } });
      const { response } = await openai(rate.apiKey).chat.completions.create({ model: 'chat', messages: hi }).withResponse();
      expect(response.headers.get('x-ratelimit-limit-requests')).toBe('1');
      expect(response.headers.get('x-ratelimit-remaining-requests')).toBe('0');
      expect(response.headers.get('x-ratelimit-reset-requests')).toMatch(/^\d+(?:\.\d+)?(?:ms|s)$|^\d+m/);
      expect(response.headers.get('x-ratelimit-limit-tokens')).toBe('1000000');
      expect(Number(response.headers.get('x-ratelimit-remaining-tokens'))).toBeLessThan(1_000_000);
      const limited = (await failureOf(openai(rate.apiKey).chat.completions.create({ model: 'chat', messages: hi }))) as InstanceType<typeof OpenAI.APIError>;
      expect(limited).toBeInstanceOf(OpenAI.RateLimitError);
      expect(limited.code).toBe('tenant-rate-limit');
      expect(Number(limited.headers?.get('retry-after'))).toBeGreaterThan(0);
      expect(limited.headers?.get('x-ratelimit-remaining-requests')).toBe('0');

      const tokens = await tenantKey({ tokensPerMinute: 10 });
      const tokenLimited = (await failureOf(openai(tokens.apiKey).chat.completions.create({ model: 'chat', messages: hi }))) as InstanceType<typeof OpenAI.APIError>;
      expect([tokenLimited.status, tokenLimited.code]).toEqual([429, 'tenant-token-limit']);

      const busy = await tenantKey({ concurrentRequests: 1 });
      const held = await holdSlot(busy.apiKey);
      const concurrent = (await failureOf(openai(busy.apiKey).chat.completions.create({ model: 'chat', messages: hi }))) as InstanceType<typeof OpenAI.APIError>;
      held.abort();
      expect([concurrent.status, concurrent.code]).toEqual([429, 'tenant-concurrency-limit']);
      expect(concurrent.headers?.get('retry-after')).not.toBeNull();

      const broke = await tenantKey({ budget: { amountMicros: 1, currency: 'USD', period: 'month' } });
      calls.count = 0;
      const exhausted = (await failureOf(openai(broke.apiKey, 2).chat.completions.create({ model: 'chat', messages: hi }))) as InstanceType<typeof OpenAI.APIError>;
      expect([exhausted.status, exhausted.type, exhausted.code]).toEqual([429, 'insufficient_quota', 'tenant-budget-exhausted']);
      expect(calls.count).toBe(1);
    });

    it('the tenant’s windows replace a target’s passed rate-limit headers once the tenant holds limits', async () => {
      const unlimited = await tenantKey();
      const passed = await openai(unlimited.apiKey).chat.completions.create({ model: 'passing', messages: hi }).withResponse();
      expect(passed.response.headers.get('x-ratelimit-limit-requests')).toBe('500');
      const limited = await tenantKey({ requestsPerMinute: 7 });
      const own = await openai(limited.apiKey).chat.completions.create({ model: 'passing', messages: hi }).withResponse();
      expect(own.response.headers.get('x-ratelimit-limit-requests')).toBe('7');
      expect(own.response.headers.get('x-ratelimit-remaining-requests')).toBe('6');
      expect(own.response.headers.get('x-ratelimit-limit-tokens')).toBeNull();
    });

    it('Anthropic clients: documented error types, the code in error.code, tenant windows in anthropic-ratelimit-*, a budget refusal not retried', async () => {
      const rate = await tenantKey({ requestsPerMinute: 1, tokensPerMinute: 1_000_000 });
      const { response } = await anthropic(rate.apiKey).messages.create({ model: 'claude', max_tokens: 16, messages: hi }).withResponse();
      expect(response.headers.get('anthropic-ratelimit-requests-limit')).toBe('1');
      expect(response.headers.get('anthropic-ratelimit-requests-remaining')).toBe('0');
      expect(Date.parse(response.headers.get('anthropic-ratelimit-requests-reset') ?? '')).toBeGreaterThan(Date.now() - 1000);
      expect(response.headers.get('anthropic-ratelimit-tokens-limit')).toBe('1000000');
      expect(response.headers.get('anthropic-ratelimit-input-tokens-limit')).toBeNull();
      const bodyOf = (error: unknown) => (error as InstanceType<typeof Anthropic.APIError>).error as { error: { type: string; code: string; message: string } };
      const limited = await failureOf(anthropic(rate.apiKey).messages.create({ model: 'claude', max_tokens: 16, messages: hi }));
      expect(limited).toBeInstanceOf(Anthropic.RateLimitError);
      expect(bodyOf(limited).error).toEqual({ type: 'rate_limit_error', code: 'tenant-rate-limit', message: expect.stringMatching(/^tenant-rate-limit: /) });

      const tokens = await tenantKey({ tokensPerMinute: 10 });
      expect(bodyOf(await failureOf(anthropic(tokens.apiKey).messages.create({ model: 'claude', max_tokens: 16, messages: hi }))).error.code).toBe('tenant-token-limit');

      const busy = await tenantKey({ concurrentRequests: 1 });
      const held = await holdSlot(busy.apiKey);
      const concurrent = await failureOf(anthropic(busy.apiKey).messages.create({ model: 'claude', max_tokens: 16, messages: hi }));
      held.abort();
      expect([(concurrent as InstanceType<typeof Anthropic.APIError>).status, bodyOf(concurrent).error.code]).toEqual([429, 'tenant-concurrency-limit']);

      const broke = await tenantKey({ budget: { amountMicros: 1, currency: 'USD', period: 'day' } });
      calls.count = 0;
      const exhausted = await failureOf(anthropic(broke.apiKey, 2).messages.create({ model: 'claude', max_tokens: 16, messages: hi }));
      expect((exhausted as InstanceType<typeof Anthropic.APIError>).status).toBe(402);
      expect(bodyOf(exhausted).error).toEqual(expect.objectContaining({ type: 'billing_error', code: 'tenant-budget-exhausted' }));
      expect(calls.count).toBe(1);
    });

    it('Gemini clients: RESOURCE_EXHAUSTED or PERMISSION_DENIED with the code in an ErrorInfo detail', async () => {
      const detailsOf = (error: unknown) => {
        expect(error).toBeInstanceOf(ApiError);
        const body = JSON.parse((error as ApiError).message) as { error: { code: number; status: string; details: { reason?: string; metadata?: { code: string } }[] } };
        return { status: (error as ApiError).status, rpc: body.error.status, code: body.error.details[0]?.metadata?.code };
      };
      const ask = (apiKey: string) => gemini(apiKey).models.generateContent({ model: 'gem', contents: 'hi' });
      const rate = await tenantKey({ requestsPerMinute: 1 });
      expect((await ask(rate.apiKey)).text).toBeTruthy();
      expect(detailsOf(await failureOf(ask(rate.apiKey)))).toEqual({ status: 429, rpc: 'RESOURCE_EXHAUSTED', code: 'tenant-rate-limit' });
      const tokens = await tenantKey({ tokensPerMinute: 10 });
      expect(detailsOf(await failureOf(ask(tokens.apiKey)))).toEqual({ status: 429, rpc: 'RESOURCE_EXHAUSTED', code: 'tenant-token-limit' });
      const busy = await tenantKey({ concurrentRequests: 1 });
      const held = await holdSlot(busy.apiKey);
      const concurrent = detailsOf(await failureOf(ask(busy.apiKey)));
      held.abort();
      expect(concurrent).toEqual({ status: 429, rpc: 'RESOURCE_EXHAUSTED', code: 'tenant-concurrency-limit' });
      const broke = await tenantKey({ budget: { amountMicros: 1, currency: 'USD', period: 'total' } });
      expect(detailsOf(await failureOf(ask(broke.apiKey)))).toEqual({ status: 403, rpc: 'PERMISSION_DENIED', code: 'tenant-budget-exhausted' });
    });
  });

  describe('the spend ledger', () => {
    it('one actual row per attempt with the usage the client was served, the cost at the target price and its version', async () => {
      const { apiKey, tenantId, keyId } = await tenantKey();
      const { data, response } = await openai(apiKey).chat.completions.create({ model: 'chat', messages: hi }).withResponse();
      const rows = await ledgerOf(tenantId);
      expect(rows).toHaveLength(1);
      const row = rows[0] as LedgerRowV1;
      const input = data.usage?.prompt_tokens ?? -1;
      const output = data.usage?.completion_tokens ?? -1;
      expect(row).toEqual(
        expect.objectContaining({
          attemptId: `${response.headers.get('x-request-id')}:1`,
          attempt: 1,
          tenantId,
          keyId,
          publicModel: 'chat',
          targetRef: 'chat#0',
          kind: 'actual',
          currency: 'USD',
          priceVersion: 'test-price-1',
          costMicros: Math.ceil((input * 2_000_000 + output * 8_000_000) / 1_000_000),
          usedTokens: input + output,
          overrun: false,
          outcome: 'completed',
        }),
      );
      expect(row.usage).toEqual(expect.objectContaining({ inputTokens: input, outputTokens: output }));
      expect(row.reservedMicros).toBeGreaterThan(row.costMicros);
    });

    it('a token count is not metered: no ledger row, no request counted', async () => {
      const { apiKey, tenantId } = await tenantKey({ requestsPerMinute: 1 });
      const count = await anthropic(apiKey).messages.countTokens({ model: 'counting', messages: hi });
      expect(count.input_tokens).toBeGreaterThan(0);
      expect(await ledgerOf(tenantId)).toEqual([]);
      expect((await anthropic(apiKey).messages.create({ model: 'claude', max_tokens: 16, messages: hi })).type).toBe('message');
    });

    it('a streamed answer settles with its usage when the stream ends (Anthropic SDK)', async () => {
      const { apiKey, tenantId } = await tenantKey();
      const stream = anthropic(apiKey).messages.stream({ model: 'claude', max_tokens: 64, messages: hi });
      const final = await stream.finalMessage();
      const [row] = await ledgerOf(tenantId);
      expect(row).toEqual(expect.objectContaining({ kind: 'actual', publicModel: 'claude', outcome: 'completed' }));
      expect(row?.usage).toEqual(expect.objectContaining({ inputTokens: final.usage.input_tokens, outputTokens: final.usage.output_tokens }));
    });

    it('a fallback settles each attempt separately: the refused one released, the answering one actual', async () => {
      const { apiKey, tenantId } = await tenantKey();
      const { response } = await openai(apiKey).chat.completions.create({ model: 'fallback', messages: hi }).withResponse();
      const requestId = response.headers.get('x-request-id');
      const rows = await ledgerOf(tenantId);
      // The first target's 503 is retried once on it, then the request falls back: three attempts, three rows.
      expect(rows.map((row) => [row.attemptId, row.targetRef, row.kind, row.costMicros > 0])).toEqual([
        [`${requestId}:1`, 'fallback#0', 'released', false],
        [`${requestId}:2`, 'fallback#0', 'released', false],
        [`${requestId}:3`, 'fallback#1', 'actual', true],
      ]);
    });

    it('an attempt that never reached a provider (connection refused) is released, and the fallback is charged', async () => {
      const { apiKey, tenantId } = await tenantKey();
      await openai(apiKey).chat.completions.create({ model: 'unreachable-first', messages: hi });
      const rows = await ledgerOf(tenantId);
      expect(rows.at(-1)).toEqual(expect.objectContaining({ targetRef: 'unreachable-first#1', kind: 'actual' }));
      const before = rows.slice(0, -1);
      expect(before.length).toBeGreaterThanOrEqual(1);
      expect(before.every((row) => row.targetRef === 'unreachable-first#0' && row.kind === 'released' && row.costMicros === 0)).toBe(true);
    });

    it('a stream the client cut before usage arrived is charged its reservation as estimated', async () => {
      const { apiKey, tenantId } = await tenantKey({ concurrentRequests: 1 });
      const held = await holdSlot(apiKey);
      held.abort();
      await expect.poll(async () => (await ledgerOf(tenantId)).length, { timeout: 5000 }).toBe(1);
      const [row] = await ledgerOf(tenantId);
      expect(row).toEqual(expect.objectContaining({ kind: 'estimated', publicModel: 'long', outcome: 'cancelled' }));
      expect(row?.costMicros).toBe(row?.reservedMicros);
      expect(row?.costMicros).toBeGreaterThan(0);
      // The slot was released with the settlement: the tenant may send again.
      expect((await openai(apiKey).chat.completions.create({ model: 'chat', messages: hi })).object).toBe('chat.completion');
    });

    it('a stream the provider cut before its usage is charged its reservation as estimated', async () => {
      const { apiKey, tenantId } = await tenantKey();
      const stream = await openai(apiKey).chat.completions.create({ model: 'cut', stream: true, messages: hi });
      await failureOf((async () => {
        for await (const _chunk of stream);
      })());
      await expect.poll(async () => (await ledgerOf(tenantId)).length, { timeout: 5000 }).toBe(1);
      const [row] = await ledgerOf(tenantId);
      expect(row).toEqual(expect.objectContaining({ kind: 'estimated', publicModel: 'cut', outcome: 'failed-in-stream:truncated-stream' }));
      expect(row?.costMicros).toBe(row?.reservedMicros);
    });

    it('each metered attempt carries its attempt id upstream', async () => {
      const { apiKey, tenantId } = await tenantKey();
      const { response } = await openai(apiKey).chat.completions.create({ model: 'recorded', messages: hi }).withResponse();
      expect(upstreamHeaders.at(-1)?.[ATTEMPT_ID_HEADER]).toBe(`${response.headers.get('x-request-id')}:1`);
      const [row] = await ledgerOf(tenantId);
      expect(row).toEqual(expect.objectContaining({ kind: 'actual', usedTokens: 14, costMicros: Math.ceil((11 * 2 + 3 * 8) / 1) }));
    });

    it('spend reads back by tenant, model and day through the admin API', async () => {
      const { apiKey, tenantId } = await tenantKey({ requestsPerMinute: 100 });
      await openai(apiKey).chat.completions.create({ model: 'chat', messages: hi });
      await openai(apiKey).chat.completions.create({ model: 'claude', messages: hi });
      await gateway.governance?.settled();
      const spend = await admin('GET', `/spend?tenantId=${tenantId}&groupBy=model,day`);
      const groups = spend.body.groups as { publicModel: string; day: string; attempts: number; costMicros: number }[];
      expect(groups.map((group) => [group.publicModel, group.attempts]).sort()).toEqual([
        ['chat', 1],
        ['claude', 1],
      ]);
      expect(groups.every((group) => /^\d{4}-\d{2}-\d{2}$/.test(group.day) && group.costMicros > 0)).toBe(true);
      const use = await admin('GET', `/tenants/${tenantId}/limit-use`);
      expect(use.body).toEqual(expect.objectContaining({ tenantId, requestsLastMinute: 2, inFlight: 0 }));
      const records = await admin('GET', `/requests?tenantId=${tenantId}`);
      expect((records.body.requests as { publicModel: string; outcome: string; status: number }[]).map((record) => [record.publicModel, record.status, record.outcome]).sort()).toEqual([
        ['chat', 200, 'completed'],
        ['claude', 200, 'completed'],
      ]);
      const targets = await admin('GET', '/targets');
      expect(targets.body.targets).toContainEqual(expect.objectContaining({ ref: 'chat#0', priceVersion: 'test-price-1' }));
    });
  });
});
