import { spawn } from 'node:child_process';
import { createHmac, timingSafeEqual } from 'node:crypto';
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { sendOutboundRequest } from '@tokenforge/http-transport';
import { startProviderSimulator, type ProviderSimulator } from '@tokenforge/provider-simulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminJobDeliveriesV1Schema, adminWebhookSecretV1Schema } from './admin/gateway-admin-api-v1.js';
import type { GatewayCatalogueV1 } from './catalogue/gateway-catalogue-v1.js';
import { GOVERNANCE_DATA_FILES } from './governance/embedded/governance-data-directory.js';
import { expectGatewayJobsAnswer } from './jobs/test-support/expect-gateway-jobs-answer.js';
import { startGateway, type RunningGateway } from './start-gateway.js';
import { createLogCapture } from './test-support/log-capture.js';
import { simulatorCatalogue } from './test-support/simulator-catalogue.js';

/* The jobs API v2 under governance: callback URLs, signed webhooks with the tenant's secret, answers and lists from
 * the store, the delivery log and replay through the admin API, and a receiver that hangs never holding up polling. */

let simulator: ProviderSimulator;
let gateway: RunningGateway;
let dataDir: string;
const logs = createLogCapture();

interface Received {
  readonly id: string;
  readonly body: { type: string; data: { status: string; model: string; id: string } };
  readonly verified: boolean;
}
let secret = '';
const received: Received[] = [];
let receiver: Server;
let receiverUrl = '';
/** Accepts connections and never answers. */
let hanging: Server;
let hangingUrl = '';
const hangingSockets = new Set<Socket>();
let hangingRequests = 0;

/** The receiver's own check (not the gateway's code): Standard Webhooks, HMAC-SHA256 over `id.timestamp.body`. */
function verify(request: IncomingMessage, body: string): boolean {
  const id = String(request.headers['webhook-id'] ?? '');
  const timestamp = String(request.headers['webhook-timestamp'] ?? '');
  if (Math.abs(Date.now() / 1000 - Number(timestamp)) > 300) return false;
  const expected = Buffer.from(createHmac('sha256', Buffer.from(secret.replace(/^whsec_/, ''), 'base64')).update(`${id}.${timestamp}.${body}`).digest('base64'));
  return String(request.headers['webhook-signature'] ?? '')
    .split(' ')
    .some((candidate) => {
      const given = Buffer.from(candidate.replace(/^v1,/, ''));
      return candidate.startsWith('v1,') && given.length === expected.length && timingSafeEqual(given, expected);
    });
}

beforeAll(async () => {
  simulator = await startProviderSimulator({ jobTimings: { queuedMs: 40, runningMs: 120 }, serveMedia: true });
  const { catalogue, env } = simulatorCatalogue(simulator, [
    { name: 'video', taskKind: 'video-generation', targets: [{ family: 'kling-video/v1', model: 'kling-v2-master' }] },
    { name: 'video-fail', taskKind: 'video-generation', targets: [{ family: 'dashscope-tasks/v1', model: 'job-fail.50.100' }] },
    { name: 'video-dash', taskKind: 'video-generation', targets: [{ family: 'dashscope-tasks/v1', model: 'job.50.100' }] },
  ]);
  dataDir = mkdtempSync(join(tmpdir(), 'tokenforge-jobs-v2-'));
  writeFileSync(join(dataDir, 'media-ca.pem'), simulator.mediaCertificate ?? '');
  catalogue.jobs = {
    signingKeyEnv: 'TEST_SIGNING_KEY',
    freshnessMs: 60_000,
    polling: { claimIntervalMs: 20, plans: { '*': { firstPollMs: 50, ceilingMs: 100 } } },
    webhooks: { allowLoopback: true, retryDelaysMs: [50, 50], timeoutMs: 30_000, maxConcurrent: 4 },
    media: { allowLoopback: true, trustedCertificatesFile: join(dataDir, 'media-ca.pem') },
  };
  gateway = await startGateway({ catalogue: catalogue as GatewayCatalogueV1, env, logger: logs, dataDir });
  receiver = createServer((request: IncomingMessage, response: ServerResponse) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      received.push({ id: String(request.headers['webhook-id']), body: JSON.parse(body) as Received['body'], verified: verify(request, body) });
      response.writeHead(204).end();
    });
  });
  hanging = createServer(() => {
    hangingRequests += 1;
  });
  hanging.on('connection', (socket) => hangingSockets.add(socket));
  await Promise.all([receiver, hanging].map((server) => new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;
  hangingUrl = `http://127.0.0.1:${(hanging.address() as AddressInfo).port}/hooks`;
});
afterAll(async () => {
  // The hanging receiver goes away (refused connections from now on), so the drain's last attempts end at once.
  const hangingClosed = new Promise((resolve) => hanging?.close(resolve));
  for (const socket of hangingSockets) socket.destroy();
  await hangingClosed;
  await gateway?.close();
  await simulator?.close();
  receiver?.closeAllConnections();
  await new Promise((resolve) => receiver?.close(resolve));
  rmSync(dataDir, { recursive: true, force: true });
});

async function admin(method: string, path: string, body?: unknown): Promise<{ status: number; json: any }> {
  const response = await fetch(`${gateway.url}/admin/v1${path}`, {
    method,
    headers: { authorization: `Bearer ${gateway.governance?.adminKey ?? ''}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: response.status, json: await response.json() };
}

async function call(method: string, path: string, key: string, body?: unknown): Promise<{ status: number; json: any }> {
  const response = await fetch(`${gateway.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${key}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const json: unknown = await response.json();
  expectGatewayJobsAnswer(method, path, response.status, json);
  return { status: response.status, json };
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));
async function until(check: () => boolean | Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out; rows: ${JSON.stringify((await gateway.governance?.store.listJobs(tenantId, { limit: 3 })) ?? [])}`);
    await sleep(20);
  }
}

let apiKey = '';
const tenantId = 'hooks';
const providerGets = (): number => simulator.requests.filter((record) => record.method === 'GET').length;

describe('jobs API v2', () => {
  it('the embedded store generates the webhook master key (mode 0600); the admin API hands each tenant its secret', async () => {
    expect(statSync(join(dataDir, GOVERNANCE_DATA_FILES.webhookMasterKey)).mode & 0o777).toBe(0o600);
    expect((await admin('POST', '/tenants', { id: tenantId, name: 'Hooks' })).status).toBe(201);
    apiKey = (await admin('POST', '/keys', { tenantId })).json.apiKey as string;
    const answer = await admin('GET', `/tenants/${tenantId}/webhook-secret`);
    expect(answer.status).toBe(200);
    secret = adminWebhookSecretV1Schema.parse(answer.json).secret;
    expect((await admin('GET', '/tenants/nobody/webhook-secret')).json.error.code).toBe('not-found');
    const other = await admin('POST', '/tenants', { id: 'hooks-2', name: 'Other' });
    expect(other.status).toBe(201);
    expect((await admin('GET', '/tenants/hooks-2/webhook-secret')).json.secret).not.toBe(secret);
  });

  it('refuses callback URLs the address policy refuses, and v1 keeps refusing the field', async () => {
    for (const callbackUrl of ['http://10.0.0.7/hooks', 'https://169.254.169.254/latest', 'http://example.com/hooks', 'https://user:pw@example.com/hooks', 'https://192.168.1.2/x', 'not a url']) {
      const refused = await call('POST', '/v2/jobs', apiKey, { model: 'video', prompt: 'a fox', callbackUrl });
      expect(refused.status, callbackUrl).toBe(400);
      expect(refused.json.error).toMatchObject({ code: 'invalid-request', path: 'callbackUrl' });
    }
    const v1 = await call('POST', '/v1/jobs', apiKey, { model: 'video', prompt: 'a fox', callbackUrl: receiverUrl });
    expect(v1.json.error).toMatchObject({ code: 'invalid-request', path: 'callbackUrl', issues: [{ reason: 'unknown-field' }] });
    expect(await gateway.governance?.store.listJobs(tenantId, { limit: 10 })).toEqual([]);
  });

  it('a job with a callback is stored with it, polled with nobody watching, and announced with signed events the receiver verifies', async () => {
    const created = await call('POST', '/v2/jobs', apiKey, { model: 'video', prompt: 'a red fox in snow', durationSeconds: 5, callbackUrl: receiverUrl });
    expect(created.status).toBe(202);
    expect(created.json.callbackUrl).toBe(receiverUrl);
    const [row] = (await gateway.governance?.store.listJobs(tenantId, { limit: 1 })) ?? [];
    expect(row?.callbackUrl).toBe(receiverUrl);
    await until(() => received.some((event) => event.body.type === 'job.succeeded'));
    expect(received.every((event) => event.verified)).toBe(true);
    const done = received.find((event) => event.body.type === 'job.succeeded');
    expect(done?.body.data).toMatchObject({ object: 'job', model: 'video', status: 'succeeded', media: [{ type: 'video', expiresAt: expect.any(String) }] });
    // The event's id is a handle the client can use.
    const read = await call('GET', `/v2/jobs/${done?.body.data.id ?? ''}`, apiKey);
    expect(read.status).toBe(200);
  });

  it('GET /v2/jobs/{id} answers from the row while fresh (no provider call) with v2 fields; v1 answers the v1 body', async () => {
    const created = await call('POST', '/v2/jobs', apiKey, { model: 'video', prompt: 'a fox', callbackUrl: receiverUrl });
    await until(async () => (await gateway.governance?.store.listJobs(tenantId, { limit: 1 }))?.[0]?.settledAtMs !== undefined);
    await until(async () => ((await gateway.governance?.store.listJobs(tenantId, { limit: 1 }))?.[0]?.deliveries ?? []).some((delivery) => delivery.state === 'succeeded'));
    const before = providerGets();
    const v2 = await call('GET', `/v2/jobs/${created.json.id as string}`, apiKey);
    const v1 = await call('GET', `/v1/jobs/${created.json.id as string}`, apiKey);
    expect(providerGets()).toBe(before);
    expect(v2.json).toMatchObject({ status: 'succeeded', observedAt: expect.any(String), callbackUrl: receiverUrl, media: [{ expiresAt: expect.any(String) }] });
    expect(v2.json.deliveries.some((delivery: { outcome: string }) => delivery.outcome === 'delivered')).toBe(true);
    expect(v1.json.observedAt).toBeUndefined();
    expect(v1.json.status).toBe('succeeded');
  });

  it('GET /v2/jobs lists the tenant\'s rows from the store: filters by status, model and time, pages with a cursor; no provider list', async () => {
    // The next whole second (the API's instants are whole seconds): only the jobs created below are after it.
    await sleep(1000 - (Date.now() % 1000) + 5);
    const startedAt = new Date(Date.now()).toISOString().replace(/\.\d{3}Z$/, 'Z');
    for (let index = 0; index < 3; index += 1) expect((await call('POST', '/v2/jobs', apiKey, { model: 'video-fail', prompt: `fail ${index}` })).status).toBe(202);
    await until(async () => ((await gateway.governance?.store.listJobs(tenantId, { state: 'failed', limit: 10 })) ?? []).length === 3);
    await until(async () => ((await gateway.governance?.store.listJobs(tenantId, { limit: 100 })) ?? []).every((job) => job.settledAtMs !== undefined));
    const providerGetsBefore = providerGets();
    const failed = await call('GET', '/v2/jobs?status=failed', apiKey);
    expect(failed.json.data).toHaveLength(3);
    expect(failed.json.data.every((job: { status: string; model: string; failure?: unknown }) => job.status === 'failed' && job.model === 'video-fail' && job.failure !== undefined)).toBe(true);
    expect((await call('GET', '/v2/jobs?model=video', apiKey)).json.data.every((job: { model: string }) => job.model === 'video')).toBe(true);
    expect((await call('GET', `/v2/jobs?createdAfter=${startedAt}`, apiKey)).json.data).toHaveLength(3);
    expect((await call('GET', '/v2/jobs?createdBefore=2020-01-01T00:00:00Z', apiKey)).json.data).toEqual([]);
    const all = (await call('GET', '/v2/jobs?limit=500', apiKey)).json.data.map((job: { createdAt: string; status: string }) => job.status);
    const paged: string[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < 10; page += 1) {
      const answer = await call('GET', `/v2/jobs?limit=2${cursor === undefined ? '' : `&cursor=${cursor}`}`, apiKey);
      paged.push(...answer.json.data.map((job: { status: string }) => job.status));
      cursor = answer.json.nextCursor;
      if (cursor === undefined) break;
    }
    expect(paged).toEqual(all);
    expect(paged.length).toBe(5);
    expect((await call('GET', '/v2/jobs?status=bogus', apiKey)).json.error).toMatchObject({ code: 'invalid-request', path: 'status' });
    expect((await call('GET', '/v2/jobs?cursor=bm90LWEtY3Vyc29y', apiKey)).json.error).toMatchObject({ code: 'invalid-request', path: 'cursor' });
    // Version 1 lists from the store too, in the v1 shape; another tenant sees none of these.
    expect((await call('GET', '/v1/jobs?model=video-fail', apiKey)).json.data).toHaveLength(3);
    expect((await call('GET', '/v1/jobs?model=video-fail', 'tfg-test-client-key-0123456789')).json.data).toEqual([]);
    expect(providerGets()).toBe(providerGetsBefore);
  });

  it('the admin API reads a job\'s delivery log and replays an event with its id; the receiver gets it again', async () => {
    const [job] = (await gateway.governance?.store.listJobs(tenantId, { state: 'succeeded', publicModel: 'video', limit: 1 })) ?? [];
    if (job === undefined) throw new Error('no succeeded job');
    const query = `tenantId=${tenantId}&target=${encodeURIComponent(job.targetRef)}&providerJobId=${encodeURIComponent(job.providerJobId)}`;
    const log = adminJobDeliveriesV1Schema.parse((await admin('GET', `/jobs/deliveries?${query}`)).json);
    expect(log.callbackUrl).toBe(receiverUrl);
    const delivered = log.deliveries.find((delivery) => delivery.state === 'succeeded' && delivery.outcome === 'delivered');
    expect(delivered).toMatchObject({ attempt: 1, status: 204 });
    const count = received.filter((event) => event.id === delivered?.eventId).length;
    const replay = await admin('POST', '/jobs/replay', { tenantId, target: job.targetRef, providerJobId: job.providerJobId, eventId: delivered?.eventId });
    expect(replay).toEqual({ status: 202, json: { eventId: delivered?.eventId, state: 'succeeded' } });
    await until(() => received.filter((event) => event.id === delivered?.eventId).length === count + 1);
    expect(received.filter((event) => event.id === delivered?.eventId).every((event) => event.verified)).toBe(true);
    await until(async () => adminJobDeliveriesV1Schema.parse((await admin('GET', `/jobs/deliveries?${query}`)).json).deliveries.length === log.deliveries.length + 1);
    expect((await admin('POST', '/jobs/replay', { tenantId, target: job.targetRef, providerJobId: job.providerJobId, eventId: 'msg_nope' })).status).toBe(404);
    expect((await admin('GET', `/jobs/deliveries?tenantId=${tenantId}&target=x%230&providerJobId=none`)).status).toBe(404);
  });

  it('the guide\'s receiver example (docs/guides/examples/webhook-receiver.mjs) verifies real deliveries and refuses a forged one', async () => {
    const example = fileURLToPath(new URL('../../../docs/guides/examples/webhook-receiver.mjs', import.meta.url));
    const child = spawn(process.execPath, [example], { env: { PATH: process.env.PATH, TOKENFORGE_WEBHOOK_SECRET: secret, PORT: '0' }, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    try {
      await until(() => /listening on (http:\S+)/.test(output));
      const url = /listening on (http:\S+)/.exec(output)?.[1] ?? '';
      const created = await call('POST', '/v2/jobs', apiKey, { model: 'video', prompt: 'a fox for the example', callbackUrl: url });
      expect(created.status).toBe(202);
      await until(() => / job\.succeeded succeeded /.test(output));
      const forged = await fetch(url, { method: 'POST', headers: { 'webhook-id': 'msg_x', 'webhook-timestamp': String(Math.floor(Date.now() / 1000)), 'webhook-signature': 'v1,AAAA' }, body: '{}' });
      expect(forged.status).toBe(400);
      await until(() => output.includes('refused bad-signature'));
    } finally {
      child.kill('SIGTERM');
    }
  });

  it('result media of Kling and DashScope jobs are copied at the terminal state and served by the gateway after the provider\'s URLs expired', async () => {
    const created = [await call('POST', '/v2/jobs', apiKey, { model: 'video', prompt: 'media kling' }), await call('POST', '/v2/jobs', apiKey, { model: 'video-dash', prompt: 'media dash' })];
    const done: any[] = [];
    for (const job of created) {
      await until(async () => (await gateway.governance?.store.listJobs(tenantId, { limit: 100 }))?.some((row) => row.settledAtMs !== undefined && row.terminal?.media?.[0]?.storedKey !== undefined && created.length > 0) === true);
      let view: any;
      await until(async () => {
        view = (await call('GET', `/v2/jobs/${job.json.id as string}`, apiKey)).json;
        return view.media?.[0]?.gatewayUrl !== undefined;
      });
      done.push(view);
    }
    // Kling states 30 days of retention, DashScope about 24 hours.
    const [kling, dash] = done;
    expect(Date.parse(kling.media[0].expiresAt) - Date.parse(kling.finishedAt)).toBe(30 * 86_400_000);
    expect(Date.parse(dash.media[0].expiresAt) - Date.parse(dash.finishedAt)).toBe(86_400_000);
    const download = (url: string) =>
      sendOutboundRequest({ method: 'GET', url: new URL(url), rules: { allowedCategories: new Set(['loopback']), plainHttp: false }, timeoutMs: 5000, maxResponseBytes: 1 << 20, trustedCertificates: [simulator.mediaCertificate ?? ''] });
    const original = await Promise.all(done.map(async (view) => {
      const answer = await download(view.media[0].url);
      return answer.kind === 'response' && answer.status === 200 ? Buffer.from(answer.body ?? []) : Buffer.alloc(0);
    }));
    expect(original.every((bytes) => bytes.byteLength > 0)).toBe(true);
    simulator.expireMedia();
    for (const [index, view] of done.entries()) {
      expect(await download(view.media[0].url)).toMatchObject({ kind: 'response', status: 404 });
      const copy = await fetch(`${gateway.url}${view.media[0].gatewayUrl as string}`, { headers: { authorization: `Bearer ${apiKey}` } });
      expect(copy.status).toBe(200);
      expect(copy.headers.get('content-type')).toBe('video/mp4');
      expect(Buffer.from(await copy.arrayBuffer()).equals(original[index] as Buffer)).toBe(true);
      // Only the job's owner: another client key is told there is no such job.
      expect((await fetch(`${gateway.url}${view.media[0].gatewayUrl as string}`, { headers: { authorization: 'Bearer tfg-test-client-key-0123456789' } })).status).toBe(404);
    }
    expect((await fetch(`${gateway.url}${(done[0].media[0].gatewayUrl as string).replace(/0$/, '7')}`, { headers: { authorization: `Bearer ${apiKey}` } })).status).toBe(404);
  });

  it('a receiver that never answers holds no poll: every job still reaches its terminal state and settles on time', async () => {
    const created = await Promise.all(Array.from({ length: 8 }, (_, index) => call('POST', '/v2/jobs', apiKey, { model: 'video', prompt: `hang ${index}`, callbackUrl: hangingUrl })));
    expect(created.every((answer) => answer.status === 202)).toBe(true);
    const started = Date.now();
    await until(async () => ((await gateway.governance?.store.listJobs(tenantId, { limit: 100 })) ?? []).filter((job) => job.callbackUrl === hangingUrl && job.settledAtMs !== undefined).length === 8, 8_000);
    // Every delivery slot is held by the hanging receiver, and yet the jobs finished within a few poll intervals.
    expect(hangingRequests).toBeGreaterThanOrEqual(4);
    expect(Date.now() - started).toBeLessThan(5_000);
  });
});
