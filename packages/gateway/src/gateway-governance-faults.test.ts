import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startProviderSimulator, type ProviderSimulator } from '@tokenforge/provider-simulator';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GatewayCatalogueV1 } from './catalogue/gateway-catalogue-v1.js';
import { openEmbeddedGovernanceStore, type EmbeddedGovernanceStore } from './governance/embedded/embedded-governance-store.js';
import type { GovernanceLimitsV1, GovernanceStoreV1 } from './governance/v1/governance-store-v1.js';
import { startGateway, type RunningGateway } from './start-gateway.js';
import { createLogCapture } from './test-support/log-capture.js';
import { simulatorCatalogue } from './test-support/simulator-catalogue.js';

/*
 * Governance over any GovernanceStoreV1 (here the embedded store behind a switch that makes it unreachable): fail
 * closed by default, fail open per limit where the catalogue says so, settlements kept and retried until the store
 * takes them.
 */

const ADMIN_KEY = 'test-admin-key-0123456789abcdef';
let simulator: ProviderSimulator;
let gateway: RunningGateway;
let inner: EmbeddedGovernanceStore;
let dataDir: string;
let down = false;
/** Only settlement is refused (admission works). */
let settleDown = false;

function switchable(store: EmbeddedGovernanceStore): GovernanceStoreV1 {
  return {
    loadSnapshot: () => store.loadSnapshot(),
    currentVersion: () => store.currentVersion(),
    admit: async (request) => (down ? { kind: 'unavailable' } : store.admit(request)),
    settle: async (settlement) => (down || settleDown ? { kind: 'unavailable' } : store.settle(settlement)),
    sweepOrphans: (nowMs) => store.sweepOrphans(nowMs),
    recordRequest: (record) => store.recordRequest(record),
    recordJob: (job) => store.recordJob(job),
    findJob: (tenantId, targetRef, providerJobId) => store.findJob(tenantId, targetRef, providerJobId),
    listJobs: (tenantId, query) => store.listJobs(tenantId, query),
    createSession: (session) => store.createSession(session),
    findSession: (id) => store.findSession(id),
    deleteSession: (id) => store.deleteSession(id),
    signInRetryAfterMs: (address, policy) => store.signInRetryAfterMs(address, policy),
    recordSignInFailure: (address, policy) => store.recordSignInFailure(address, policy),
    clearSignInFailures: (address) => store.clearSignInFailures(address),
    claimDueJobs: (claim) => store.claimDueJobs(claim),
    observeJob: (observation) => store.observeJob(observation),
    extendJobLeases: (owner, jobs, leaseMs) => store.extendJobLeases(owner, jobs, leaseMs),
    releaseJobLeases: (owner, jobs) => store.releaseJobLeases(owner, jobs),
    appendJobDelivery: (job, delivery) => store.appendJobDelivery(job, delivery),
    admin: store.admin,
    close: () => store.close(),
  };
}

beforeAll(async () => {
  simulator = await startProviderSimulator();
  const { catalogue, env } = simulatorCatalogue(simulator, [
    { name: 'chat', taskKind: 'chat', targets: [{ family: 'openai-chat/v1', model: 'text' }] },
    { name: 'video', taskKind: 'video-generation', targets: [{ family: 'kling-video/v1', model: 'job.50.100' }] },
  ]);
  for (const target of catalogue.models[0]?.targets ?? []) (target as { price?: unknown }).price = { currency: 'USD', inputPerMillion: '1', outputPerMillion: '1' };
  for (const target of catalogue.models[1]?.targets ?? [])
    (target as { price?: unknown }).price = { currency: 'USD', version: 'v1', inputPerMillion: '0', outputPerMillion: '0', perVideoSecond: '0.1' };
  const jobs = { ...catalogue.jobs, polling: { claimIntervalMs: 50, plans: { '*': { firstPollMs: 100, backoffFactor: 1, ceilingMs: 100 } } } };
  dataDir = mkdtempSync(join(tmpdir(), 'tokenforge-faults-'));
  inner = openEmbeddedGovernanceStore({ dataDirectory: dataDir });
  gateway = await startGateway({
    catalogue: { ...catalogue, jobs, governance: { failOpen: { requestsPerMinute: true } } } as GatewayCatalogueV1,
    env: { ...env, TOKENFORGE_ADMIN_KEY: ADMIN_KEY, TOKENFORGE_KEY_HASHING_SECRET: 'k'.repeat(64) },
    logger: createLogCapture(),
    governanceStore: switchable(inner),
  });
});
afterAll(async () => {
  down = false;
  await gateway?.close();
  await simulator?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

let tenants = 0;
async function tenantKey(limits: GovernanceLimitsV1): Promise<{ apiKey: string; tenantId: string }> {
  tenants += 1;
  const tenantId = `fault-${tenants}`;
  const call = (path: string, body: unknown) =>
    fetch(`${gateway.url}/admin/v1${path}`, { method: 'POST', headers: { authorization: `Bearer ${ADMIN_KEY}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
  expect((await call('/tenants', { id: tenantId, name: tenantId, limits })).status).toBe(201);
  const key = (await (await call('/keys', { tenantId })).json()) as { apiKey: string };
  return { apiKey: key.apiKey, tenantId };
}

const chat = (apiKey: string) => new OpenAI({ apiKey, baseURL: `${gateway.url}/v1`, maxRetries: 0 }).chat.completions.create({ model: 'chat', messages: [{ role: 'user', content: 'hi' }] });

describe('governance when the store cannot be reached', () => {
  it('fails closed by default: the dialect’s 503 with code governance-unavailable, nothing sent upstream', async () => {
    const { apiKey } = await tenantKey({ requestsPerMinute: 100, budget: { amountMicros: 1_000_000, currency: 'USD', period: 'day' } });
    const sent = simulator.requests.length;
    down = true;
    try {
      const refused = (await chat(apiKey).catch((error: unknown) => error)) as InstanceType<typeof OpenAI.APIError>;
      expect(refused).toBeInstanceOf(OpenAI.InternalServerError);
      expect([refused.status, refused.code]).toEqual([503, 'governance-unavailable']);
      expect(refused.headers?.get('retry-after')).toBe('1');
      expect(simulator.requests.length).toBe(sent);
    } finally {
      down = false;
    }
  });

  it('fails open where every limit the tenant holds is marked fail-open, and its settlement waits for the store', async () => {
    const { apiKey, tenantId } = await tenantKey({ requestsPerMinute: 100 });
    down = true;
    const answer = await chat(apiKey).finally(() => (down = false));
    expect(answer.object).toBe('chat.completion');
    await gateway.governance?.settled();
    // Admitted unmetered: nothing reserved, so nothing to settle.
    expect(await inner.admin.ledger({ tenantId, limit: 10 })).toEqual([]);
  });

  it('a job admitted unmetered (store down, limits fail open) is still tracked before its 202: polled and settled with nobody asking', async () => {
    const { apiKey, tenantId } = await tenantKey({ requestsPerMinute: 100 });
    down = true;
    const created = await fetch(`${gateway.url}/v2/jobs`, {
      method: 'POST',
      headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'video', prompt: 'a fox', durationSeconds: 5 }),
    }).finally(() => (down = false));
    expect(created.status).toBe(202);
    // The row exists when the client holds the handle (without the fix: no row, the job is never polled or settled).
    const [recorded] = await inner.listJobs(tenantId, { limit: 10 });
    expect(recorded).toMatchObject({ publicModel: 'video', state: 'queued', reservedMicros: 0, pollAttempts: 0 });
    expect(recorded?.nextPollAtMs).toBeTypeOf('number');
    let settled = recorded;
    for (let tries = 0; tries < 100 && settled?.settledAtMs === undefined; tries += 1) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      [settled] = await inner.listJobs(tenantId, { limit: 10 });
    }
    expect(settled).toMatchObject({ state: 'succeeded', attemptId: expect.stringMatching(/:1$/) });
    expect(settled?.settledAtMs).toBeTypeOf('number');
    await gateway.governance?.settled();
    const ledger = await inner.admin.ledger({ tenantId, limit: 10 });
    expect(ledger.map((row) => [row.attemptId, row.kind, row.costMicros])).toEqual([[settled?.attemptId, 'actual', 500_000]]);
  });

  it('a settlement the store could not take is retried until it is written, exactly once', async () => {
    const { apiKey, tenantId } = await tenantKey({ requestsPerMinute: 100 });
    settleDown = true;
    expect((await chat(apiKey)).object).toBe('chat.completion');
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(await inner.admin.ledger({ tenantId, limit: 10 })).toEqual([]);
    settleDown = false;
    await gateway.governance?.settled();
    const rows = await inner.admin.ledger({ tenantId, limit: 10 });
    expect(rows.map((row) => row.kind)).toEqual(['actual']);
  });
});
