import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startProviderSimulator, type ProviderSimulator } from '@tokenforge/provider-simulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GatewayCatalogueV1 } from './catalogue/gateway-catalogue-v1.js';
import type { GovernanceLimitsV1 } from './governance/v1/governance-store-v1.js';
import { expectGatewayJobsAnswer } from './jobs/test-support/expect-gateway-jobs-answer.js';
import { startGateway, type RunningGateway } from './start-gateway.js';
import { createLogCapture } from './test-support/log-capture.js';
import { simulatorCatalogue } from './test-support/simulator-catalogue.js';

/* The jobs API under governance: the create reserves, the job is tracked, its first terminal observation settles it. */

let simulator: ProviderSimulator;
let gateway: RunningGateway;
let dataDir: string;
const logs = createLogCapture();
const KLING = 'kling-video/v1';

beforeAll(async () => {
  simulator = await startProviderSimulator({ jobTimings: { queuedMs: 30, runningMs: 60 } });
  const { catalogue, env } = simulatorCatalogue(simulator, [
    { name: 'video', taskKind: 'video-generation', targets: [{ family: KLING, model: 'kling-v2-master' }] },
    { name: 'video-fail', taskKind: 'video-generation', targets: [{ family: KLING, model: 'job-fail' }] },
    { name: 'video-hidden', taskKind: 'video-generation', targets: [{ family: KLING, model: 'kling-v2-master' }] },
  ]);
  for (const model of catalogue.models) for (const target of model.targets) (target as { price?: unknown }).price = { currency: 'USD', version: 'video-1', inputPerMillion: '0', outputPerMillion: '0', perVideoSecond: '0.5' };
  dataDir = mkdtempSync(join(tmpdir(), 'tokenforge-jobs-governance-'));
  gateway = await startGateway({ catalogue: catalogue as GatewayCatalogueV1, env, logger: logs, dataDir });
});
afterAll(async () => {
  await gateway?.close();
  await simulator?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

async function admin(path: string, body: unknown): Promise<Record<string, unknown>> {
  const response = await fetch(`${gateway.url}/admin/v1${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${gateway.governance?.adminKey ?? ''}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return (await response.json()) as Record<string, unknown>;
}

let tenants = 0;
async function tenantKey(limits: GovernanceLimitsV1 = {}, modelAccess = ['video', 'video-fail']): Promise<{ apiKey: string; tenantId: string }> {
  tenants += 1;
  const tenantId = `jobs-${tenants}`;
  await admin('/tenants', { id: tenantId, name: tenantId, limits, modelAccess });
  return { apiKey: (await admin('/keys', { tenantId })).apiKey as string, tenantId };
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

const create = (key: string, model = 'video') => call('POST', '/v1/jobs', key, { model, prompt: 'a red fox in snow', durationSeconds: 5 });

async function pollUntilDone(key: string, id: string): Promise<any> {
  for (let poll = 0; poll < 100; poll += 1) {
    const job = (await call('GET', `/v1/jobs/${id}`, key)).json;
    if (['succeeded', 'failed', 'cancelled'].includes(job.status)) return job;
    await new Promise((resolve) => setTimeout(resolve, 30));
  }
  throw new Error('the job did not end');
}

describe('jobs under governance', () => {
  it('the create reserves and records the job; the first terminal observation settles it once, later ones change nothing', async () => {
    const { apiKey, tenantId } = await tenantKey();
    const created = await create(apiKey);
    expect(created.status).toBe(202);
    const store = gateway.governance?.store;
    const [tracked] = (await store?.listJobs(tenantId, { limit: 10 })) ?? [];
    expect(tracked).toEqual(expect.objectContaining({ tenantId, publicModel: 'video', targetRef: 'video#0', state: 'queued', reservedMicros: 2_500_000, currency: 'USD' }));
    expect(tracked?.settledAtMs).toBeUndefined();
    await gateway.governance?.settled();
    expect(await store?.admin.ledger({ tenantId, limit: 10 })).toEqual([]);

    const done = await pollUntilDone(apiKey, created.json.id);
    expect(done.status).toBe('succeeded');
    await call('GET', `/v1/jobs/${created.json.id}`, apiKey);
    await gateway.governance?.settled();
    const rows = (await store?.admin.ledger({ tenantId, limit: 10 })) ?? [];
    expect(rows).toHaveLength(1);
    expect(rows[0]).toEqual(expect.objectContaining({ attemptId: tracked?.attemptId, priceVersion: 'video-1', outcome: 'succeeded' }));
    expect(['actual', 'estimated']).toContain(rows[0]?.kind);
    const [after] = (await store?.listJobs(tenantId, { limit: 10 })) ?? [];
    expect(after).toEqual(expect.objectContaining({ state: 'succeeded', settledAtMs: expect.any(Number) }));
  });

  it('a job nobody polls is polled by the gateway, reaches its terminal state and is settled once', async () => {
    const { apiKey, tenantId } = await tenantKey();
    const created = await create(apiKey);
    expect(created.status).toBe(202);
    const store = gateway.governance?.store;
    const [tracked] = (await store?.listJobs(tenantId, { limit: 10 })) ?? [];
    expect(tracked?.nextPollAtMs).toBeGreaterThan(tracked?.createdAtMs ?? Number.POSITIVE_INFINITY);
    let row = tracked;
    for (let wait = 0; wait < 120 && row?.settledAtMs === undefined; wait += 1) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      [row] = (await store?.listJobs(tenantId, { limit: 10 })) ?? [];
    }
    expect(row).toEqual(expect.objectContaining({ state: 'succeeded', settledAtMs: expect.any(Number), pollAttempts: 1 }));
    expect(row?.terminal?.media?.[0]?.expiresAtMs).toBe((row?.terminal?.finishedAtMs ?? 0) + 30 * 86_400_000);
    expect(row?.nextPollAtMs).toBeUndefined();
    await gateway.governance?.settled();
    expect(await store?.admin.ledger({ tenantId, limit: 10 })).toEqual([expect.objectContaining({ attemptId: tracked?.attemptId, outcome: 'succeeded' })]);
  }, 20_000);

  it('a read answers from the tracked row while its observation is fresh or the job is settled, and asks the provider otherwise', async () => {
    const { apiKey } = await tenantKey();
    const created = await create(apiKey);
    const sources = async (): Promise<unknown> => {
      await new Promise((resolve) => setImmediate(resolve));
      const line = logs.requests().filter((entry) => entry.route === 'GET /v1/jobs/{id}').at(-1);
      return line?.source;
    };
    // The simulated job moves on its own clock (queued 30 ms, running 60 ms): on a loaded machine the first read can see
    // any state, so the second read is held to the first one's observation rather than to a fixed state.
    const first = (await call('GET', `/v1/jobs/${created.json.id}`, apiKey)).json;
    expect(['queued', 'running', 'succeeded']).toContain(first.status);
    expect(await sources()).toBe('provider');
    expect((await call('GET', `/v1/jobs/${created.json.id}`, apiKey)).json.status).toBe(first.status);
    expect(await sources()).toBe('store');
    const done = await pollUntilDone(apiKey, created.json.id);
    expect(done).toEqual(expect.objectContaining({ status: 'succeeded', media: [expect.objectContaining({ type: 'video' })] }));
    const again = await call('GET', `/v1/jobs/${created.json.id}`, apiKey);
    expect(again.json).toEqual(done);
    expect(await sources()).toBe('store');
  }, 20_000);

  it('a failed job releases its reservation', async () => {
    const { apiKey, tenantId } = await tenantKey();
    const created = await create(apiKey, 'video-fail');
    expect((await pollUntilDone(apiKey, created.json.id)).status).toBe('failed');
    await gateway.governance?.settled();
    const rows = (await gateway.governance?.store.admin.ledger({ tenantId, limit: 10 })) ?? [];
    expect(rows.map((row) => [row.kind, row.costMicros])).toEqual([['released', 0]]);
  });

  it('the create goes through the tenant’s limits and model access like a model request', async () => {
    const broke = await tenantKey({ budget: { amountMicros: 1_000_000, currency: 'USD', period: 'month' } });
    expect(await create(broke.apiKey)).toEqual({ status: 402, json: { error: { code: 'tenant-budget-exhausted', message: expect.any(String) } } });
    const limited = await tenantKey({ requestsPerMinute: 1 });
    expect((await create(limited.apiKey)).status).toBe(202);
    expect((await create(limited.apiKey)).json.error.code).toBe('tenant-rate-limit');
    expect((await create(limited.apiKey, 'video-hidden')).json.error.code).toBe('model-not-found');
  });

  it('a tenant lists only its own jobs', async () => {
    const first = await tenantKey();
    const second = await tenantKey();
    const mine = await create(first.apiKey);
    await create(second.apiKey);
    const listed = await call('GET', '/v1/jobs?model=video', first.apiKey);
    // Handles are re-signed per answer (their expiry moves with the clock): the job is recognised by its idempotency key.
    expect(listed.json.data.map((job: { idempotencyKey: string }) => job.idempotencyKey)).toEqual([mine.json.idempotencyKey]);
  });
});
