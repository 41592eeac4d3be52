import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { SIMULATOR_ATTEMPT_ID_HEADER, startProviderSimulator, type ProviderSimulator, type SimulatorRequestRecord } from '@tokenforge/provider-simulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ATTEMPT_ID_HEADER } from './wiring/attempt-id-header.js';
import { startGatewayProcess, type GatewayProcess } from './shared/test-support/gateway-process.js';
import { realServersAvailable, startRealServers, type RealServers } from './shared/test-support/real-servers.js';

/**
 * The proof that limits hold exactly across instances (issue #29, "Proof"): three gateway processes (the CLI) over
 * one real Redis and one real PostgreSQL, the provider simulator as upstream, 20 tenants per phase created through
 * the admin API, a bounded load spread over the instances (sync and stream, four dialects, a fallback model). Every
 * admission and every settlement is checked against the ledger in PostgreSQL and against what the simulator served
 * per attempt id. The second phase kills an instance with SIGKILL, stops PostgreSQL for five seconds and restarts
 * Redis, all mid-load.
 */

const available = realServersAvailable();
const ADMIN_KEY = `admin-${randomBytes(16).toString('hex')}`;
/** Requests end (and a dead instance's reservations become orphans) this long after admission. */
const REQUEST_TIMEOUT_MS = 8_000;
const PRICE = { currency: 'USD', version: 'multi-1', inputPerMillion: '1000', outputPerMillion: '4000' };
const MAX_OUTPUT_TOKENS = 16;

interface TenantPlan {
  readonly id: string;
  readonly limits: { requestsPerMinute: number; tokensPerMinute?: number; concurrentRequests?: number; budget: { amountMicros: number; currency: 'USD'; period: 'total' } };
  apiKey: string;
}

interface Variant {
  readonly name: string;
  request(base: string, apiKey: string): { url: string; init: RequestInit };
}

const json = (headers: Record<string, string>, body: unknown): RequestInit => ({ method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
const text = (n: number): string => `request ${n}: say something short about the weather`;
let counter = 0;

const VARIANTS: readonly Variant[] = [
  ...[false, true].map((stream) => ({
    name: `openai-chat ${stream ? 'stream' : 'sync'}`,
    request: (base: string, key: string) => ({
      url: `${base}/v1/chat/completions`,
      init: json({ authorization: `Bearer ${key}` }, { model: 'm-openai', max_tokens: MAX_OUTPUT_TOKENS, stream, messages: [{ role: 'user', content: text((counter += 1)) }] }),
    }),
  })),
  ...[false, true].map((stream) => ({
    name: `anthropic ${stream ? 'stream' : 'sync'}`,
    request: (base: string, key: string) => ({
      url: `${base}/v1/messages`,
      init: json({ 'x-api-key': key, 'anthropic-version': '2023-06-01' }, { model: 'm-anthropic', max_tokens: MAX_OUTPUT_TOKENS, stream, messages: [{ role: 'user', content: text((counter += 1)) }] }),
    }),
  })),
  ...[false, true].map((stream) => ({
    name: `gemini ${stream ? 'stream' : 'sync'}`,
    request: (base: string, key: string) => ({
      url: `${base}/v1beta/models/m-gemini:${stream ? 'streamGenerateContent?alt=sse' : 'generateContent'}`,
      init: json({ 'x-goog-api-key': key }, { contents: [{ role: 'user', parts: [{ text: text((counter += 1)) }] }], generationConfig: { maxOutputTokens: MAX_OUTPUT_TOKENS } }),
    }),
  })),
  ...[false, true].map((stream) => ({
    name: `responses ${stream ? 'stream' : 'sync'}`,
    request: (base: string, key: string) => ({
      url: `${base}/v1/responses`,
      init: json({ authorization: `Bearer ${key}` }, { model: 'm-responses', max_output_tokens: MAX_OUTPUT_TOKENS, stream, input: text((counter += 1)) }),
    }),
  })),
  {
    // The first target answers 503: attempt 1 is released, attempt 2 (Anthropic) serves.
    name: 'fallback',
    request: (base, key) => ({
      url: `${base}/v1/chat/completions`,
      init: json({ authorization: `Bearer ${key}` }, { model: 'm-fallback', max_tokens: MAX_OUTPUT_TOKENS, messages: [{ role: 'user', content: text((counter += 1)) }] }),
    }),
  },
];

interface Outcome {
  readonly tenantId: string;
  readonly variant: string;
  /** Epoch milliseconds when it was sent. */
  readonly sentAtMs: number;
  /** HTTP status, or 0 when the connection failed (a killed instance). */
  readonly status: number;
  readonly requestId?: string;
  /** The refusal code the gateway named, where it refused. */
  readonly code?: string;
}

interface LedgerRow {
  readonly attempt_id: string;
  readonly request_id: string;
  readonly attempt: number;
  readonly tenant_id: string;
  readonly kind: string;
  readonly usage: { inputTokens?: number; outputTokens?: number } | null;
  readonly cost_micros: string;
  readonly reserved_micros: string;
  readonly used_tokens: string;
  readonly overrun: boolean;
  readonly started_at_ms: string;
  readonly settled_at_ms: string;
}

let started: GatewayProcess[] = [];
/** The stderr of every instance that died without being killed by the test (for a failure's message). */
const deadInstances = (): string => started.filter((instance) => !instance.alive()).map((instance) => `\ninstance ${instance.url} died: ${instance.stderrTail()}`).join('');

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

function catalogueFor(simulator: ProviderSimulator): Record<string, unknown> {
  const target = (family: string, model: string, credentialEnv: string) => ({
    provider: 'provider-simulator',
    family,
    model,
    baseUrl: simulator.baseUrlFor(family),
    credentials: { apiKeyEnv: credentialEnv },
    network: { allowLoopback: true },
    price: PRICE,
  });
  return {
    version: 1,
    clientKeys: [{ id: 'static', env: 'TF_MULTI_STATIC_KEY' }],
    models: [
      { name: 'm-openai', taskKind: 'chat', targets: [target('openai-chat/v1', 'text.5', 'TF_SIM_OPENAI')] },
      { name: 'm-anthropic', taskKind: 'chat', targets: [target('anthropic-messages/v1', 'text.4', 'TF_SIM_ANTHROPIC')] },
      { name: 'm-gemini', taskKind: 'chat', targets: [target('gemini-generate-content/v1', 'text.6', 'TF_SIM_GEMINI')] },
      { name: 'm-responses', taskKind: 'chat', targets: [target('openai-responses/v1', 'text.3', 'TF_SIM_OPENAI')] },
      { name: 'm-fallback', taskKind: 'chat', targets: [target('openai-chat/v1', 'error.503', 'TF_SIM_OPENAI'), target('anthropic-messages/v1', 'text.2', 'TF_SIM_ANTHROPIC')] },
    ],
    limits: { requestTimeoutMs: REQUEST_TIMEOUT_MS, retryBudgetMs: 2_000 },
    governance: { pollIntervalMs: 200, sweepIntervalMs: 1_000 },
  };
}

function tenantPlans(prefix: string): TenantPlan[] {
  return Array.from({ length: 20 }, (_, index) => ({
    id: `${prefix}${String(index).padStart(2, '0')}`,
    limits: {
      requestsPerMinute: 5 + (index % 5) * 2,
      ...(index % 5 === 1 ? { tokensPerMinute: 1_500 } : {}),
      ...(index % 4 === 0 ? { concurrentRequests: 1 } : {}),
      // Every fifth tenant can afford a few requests only: its budget binds before its rate limit.
      budget: { amountMicros: index % 5 === 2 ? 400_000 : 50_000_000, currency: 'USD', period: 'total' },
    },
    apiKey: '',
  }));
}

async function admin(base: string, method: string, path: string, body?: unknown): Promise<{ status: number; json: any }> {
  const response = await fetch(`${base}/admin/v1${path}`, {
    method,
    headers: { authorization: `Bearer ${ADMIN_KEY}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: response.status, json: await response.json() };
}

async function createTenants(instances: readonly GatewayProcess[], plans: TenantPlan[]): Promise<void> {
  // Spread over the instances: each admin change applies on every instance through the governance version.
  for (const [index, plan] of plans.entries()) {
    const base = (instances[index % instances.length] as GatewayProcess).url;
    const tenant = await admin(base, 'POST', '/tenants', { id: plan.id, name: `Tenant ${plan.id}`, modelAccess: ['m-*'], limits: plan.limits });
    expect(tenant.status).toBe(201);
    const key = await admin(base, 'POST', '/keys', { tenantId: plan.id });
    expect(key.status).toBe(201);
    plan.apiKey = key.json.apiKey as string;
  }
}

async function appliedVersion(base: string): Promise<number> {
  try {
    const ready = (await (await fetch(`${base}/readyz`)).json()) as { governance?: { appliedVersion?: number } };
    return ready.governance?.appliedVersion ?? -1;
  } catch {
    return -1;
  }
}

/** Waits (at most 10 s) until every instance reports at least `version` in its readiness detail. */
async function waitForVersion(instances: readonly GatewayProcess[], version: number): Promise<void> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const versions = await Promise.all(instances.map((instance) => appliedVersion(instance.url)));
    if (versions.every((applied) => applied >= version)) return;
    if (Date.now() > deadline) throw new Error(`instances report versions ${versions.join(', ')}, wanted ${version}`);
    await sleep(50);
  }
}

async function send(base: string, variant: Variant, plan: TenantPlan): Promise<Outcome> {
  const { url, init } = variant.request(base, plan.apiKey);
  const sentAtMs = Date.now();
  try {
    const response = await fetch(url, { ...init, signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS + 10_000) });
    const body = await response.text();
    const requestId = response.headers.get('x-request-id') ?? undefined;
    let code: string | undefined;
    if (response.status >= 400) {
      const match = /"(tenant-[a-z-]+|governance-unavailable)"/.exec(body);
      code = match?.[1];
    }
    return { tenantId: plan.id, variant: variant.name, sentAtMs, status: response.status, ...(requestId === undefined ? {} : { requestId }), ...(code === undefined ? {} : { code }) };
  } catch {
    return { tenantId: plan.id, variant: variant.name, sentAtMs, status: 0 };
  }
}

/**
 * A bounded load: `workers` loops, each sending to the next live instance for a random tenant and the next variant,
 * until `maxRequests` were sent, `maxMs` passed or `done()` answers true.
 */
async function runLoad(
  live: () => readonly GatewayProcess[],
  plans: readonly TenantPlan[],
  options: { maxRequests: number; maxMs: number; workers: number; done?: () => boolean },
): Promise<Outcome[]> {
  const outcomes: Outcome[] = [];
  const stopAt = Date.now() + options.maxMs;
  let sent = 0;
  const worker = async (workerIndex: number): Promise<void> => {
    for (let turn = 0; sent < options.maxRequests && Date.now() < stopAt && options.done?.() !== true; turn += 1) {
      sent += 1;
      const instances = live();
      const instance = instances[(sent + workerIndex) % instances.length] as GatewayProcess;
      const plan = plans[Math.floor(Math.random() * plans.length)] as TenantPlan;
      const variant = VARIANTS[(sent * 7 + workerIndex) % VARIANTS.length] as Variant;
      outcomes.push(await send(instance.url, variant, plan));
    }
  };
  await Promise.all(Array.from({ length: options.workers }, (_, index) => worker(index)));
  return outcomes;
}

async function ledger(pool: pg.Pool): Promise<LedgerRow[]> {
  return (await pool.query<LedgerRow>('SELECT * FROM governance_ledger ORDER BY started_at_ms')).rows;
}

/** Waits until no reservation or slot of the phase's tenants is held and every expected attempt has its ledger row. */
async function waitForQuiet(base: () => string, pool: pg.Pool, plans: readonly TenantPlan[], expected: () => ReadonlySet<string>, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const uses = await Promise.all(plans.map((plan) => admin(base(), 'GET', `/tenants/${plan.id}/limit-use`).catch(() => ({ status: 0, json: {} }))));
    const held = uses.filter((use) => use.status !== 200 || use.json.inFlight !== 0 || use.json.budgetReservedMicros !== 0).length;
    const rows = new Set((await ledger(pool).catch(() => [])).map((row) => row.attempt_id));
    const missing = [...expected()].filter((attemptId) => !rows.has(attemptId));
    if (held === 0 && missing.length === 0) return;
    if (Date.now() > deadline) throw new Error(`after ${timeoutMs} ms: ${held} tenants still hold reservations or slots, ${missing.length} attempts have no ledger row${deadInstances()}`);
    await sleep(250);
  }
}

/** The simulator's records of the phase's attempts (attempt ids whose request id the gateway gave a phase request). */
function servedIn(simulator: ProviderSimulator, since: number): Map<string, SimulatorRequestRecord[]> {
  const served = new Map<string, SimulatorRequestRecord[]>();
  for (const record of simulator.requests.slice(since)) {
    if (record.attemptId === undefined) continue;
    served.set(record.attemptId, [...(served.get(record.attemptId) ?? []), record]);
  }
  return served;
}

/**
 * Every check of the proof over one phase: `allRows` is the whole ledger, `served` what the simulator recorded since
 * the phase began, `outcomes` what the phase's clients saw.
 */
function assertExact(plans: readonly TenantPlan[], allRows: readonly LedgerRow[], outcomes: readonly Outcome[], served: ReadonlyMap<string, readonly SimulatorRequestRecord[]>): { rows: readonly LedgerRow[]; compared: number; orphaned: number } {
  const tenants = new Set(plans.map((plan) => plan.id));
  const rows = allRows.filter((row) => tenants.has(row.tenant_id));
  const byAttempt = new Map<string, LedgerRow[]>();
  for (const row of allRows) byAttempt.set(row.attempt_id, [...(byAttempt.get(row.attempt_id) ?? []), row]);
  // No attempt written twice.
  expect([...byAttempt.values()].filter((list) => list.length > 1).map((list) => list[0]?.attempt_id)).toEqual([]);

  // One ledger row per attempt the simulator served, with the usage it served unless the row is estimated/orphaned.
  let compared = 0;
  const lost: string[] = [];
  const unequal: string[] = [];
  for (const [attemptId, records] of served) {
    expect(records).toHaveLength(1);
    const row = byAttempt.get(attemptId)?.[0];
    if (row === undefined) {
      lost.push(attemptId);
      continue;
    }
    const usage = records[0]?.usage;
    if (row.kind === 'estimated' || row.kind === 'orphaned' || usage === undefined) continue;
    compared += 1;
    if (row.usage?.inputTokens !== usage.inputTokens || row.usage?.outputTokens !== usage.outputTokens) unequal.push(`${attemptId}: ledger ${JSON.stringify(row.usage)} served ${JSON.stringify(usage)}`);
  }
  expect(lost).toEqual([]);
  expect(unequal).toEqual([]);
  // Every row that names served usage matches an attempt the simulator saw; every answered request was settled.
  expect(rows.filter((row) => row.kind === 'actual' && !served.has(row.attempt_id)).map((row) => row.attempt_id)).toEqual([]);
  const settledRequests = new Set(rows.map((row) => row.request_id));
  expect(outcomes.filter((outcome) => outcome.status === 200 && (outcome.requestId === undefined || !settledRequests.has(outcome.requestId)))).toEqual([]);

  for (const plan of plans) {
    const own = rows.filter((row) => row.tenant_id === plan.id);
    // Admissions over a limit = 0 in every window: the requests (first attempts) and tokens of any rolling minute.
    const firsts = own.filter((row) => row.attempt === 1).map((row) => Number(row.started_at_ms));
    for (const [index, at] of firsts.entries()) {
      const inWindow = firsts.slice(0, index + 1).filter((other) => other > at - 60_000).length;
      expect(inWindow, `${plan.id} requests in the minute before ${at}`).toBeLessThanOrEqual(plan.limits.requestsPerMinute);
    }
    if (plan.limits.tokensPerMinute !== undefined) {
      for (const row of own) {
        const at = Number(row.started_at_ms);
        const tokens = own.filter((other) => Number(other.started_at_ms) <= at && Number(other.started_at_ms) > at - 60_000).reduce((sum, other) => sum + Number(other.used_tokens), 0);
        expect(tokens, `${plan.id} tokens in the minute before ${at}`).toBeLessThanOrEqual(plan.limits.tokensPerMinute);
      }
    }
    if (plan.limits.concurrentRequests !== undefined) {
      // Each row's [started, settled] lies inside the time its request held the slot: overlaps bound what was held.
      // An orphaned row is settled by a sweep some time after its request's deadline, when its slot had already
      // stopped counting: its interval says nothing about what was held, so it is left out.
      const firstRows = own.filter((row) => row.attempt === 1 && row.kind !== 'orphaned');
      for (const row of firstRows) {
        const at = Number(row.started_at_ms);
        const overlapping = firstRows.filter((other) => Number(other.started_at_ms) <= at && Number(other.settled_at_ms) > at).length;
        expect(overlapping, `${plan.id} requests in flight at ${at}`).toBeLessThanOrEqual(plan.limits.concurrentRequests);
      }
    }
    // Spend over a budget = the sum of overrun rows, which is 0 here.
    const spent = own.reduce((sum, row) => sum + Number(row.cost_micros), 0);
    const overrun = own.filter((row) => row.overrun).reduce((sum, row) => sum + Number(row.cost_micros) - Number(row.reserved_micros), 0);
    expect(Math.max(0, spent - plan.limits.budget.amountMicros)).toBe(overrun);
    expect(overrun).toBe(0);
  }
  return { rows, compared, orphaned: rows.filter((row) => row.kind === 'orphaned').length };
}

describe.skipIf(!available)('three gateway processes over one Redis and one PostgreSQL', () => {
  let servers: RealServers;
  let simulator: ProviderSimulator;
  let pool: pg.Pool;
  let folder: string;
  let instances: GatewayProcess[] = [];
  let env: NodeJS.ProcessEnv;
  let configPath: string;

  beforeAll(async () => {
    [servers, simulator] = await Promise.all([startRealServers(), startProviderSimulator()]);
    pool = new pg.Pool({ connectionString: servers.postgres.url, max: 2 });
    pool.on('error', () => undefined);
    folder = mkdtempSync(join(tmpdir(), 'tf-multi-'));
    configPath = join(folder, 'catalogue.json');
    writeFileSync(configPath, JSON.stringify(catalogueFor(simulator)));
    const { credentials } = simulator;
    env = {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      REDIS_URL: servers.redis.url,
      DATABASE_URL: servers.postgres.url,
      TOKENFORGE_KEY_HASHING_SECRET: randomBytes(32).toString('hex'),
      TOKENFORGE_ADMIN_KEY: ADMIN_KEY,
      TF_MULTI_STATIC_KEY: `static-${randomBytes(12).toString('hex')}`,
      TF_SIM_OPENAI: credentials.openAiApiKey,
      TF_SIM_ANTHROPIC: credentials.anthropicApiKey,
      TF_SIM_GEMINI: credentials.geminiApiKey,
    };
    instances = await Promise.all([0, 1, 2].map(() => startGatewayProcess({ configPath, env })));
    started = [...instances];
  }, 180_000);

  afterAll(async () => {
    await Promise.all(instances.map((instance) => instance.stop(5_000)));
    await pool?.end();
    await simulator?.close();
    await servers?.dispose();
    if (folder !== undefined) rmSync(folder, { recursive: true, force: true });
  }, 60_000);

  it('sends the attempt id header the simulator reconciles by', () => {
    expect(ATTEMPT_ID_HEADER).toBe(SIMULATOR_ATTEMPT_ID_HEADER);
  });

  it('holds every limit exactly: no admission over a limit, no spend over a budget, one ledger row per served attempt', async () => {
    const plans = tenantPlans('a');
    await createTenants(instances, plans);
    const since = simulator.requests.length;
    const outcomes = await runLoad(() => instances, plans, { maxRequests: 240, maxMs: 25_000, workers: 12 });
    const served = (): Map<string, SimulatorRequestRecord[]> => servedIn(simulator, since);
    await waitForQuiet(() => (instances[0] as GatewayProcess).url, pool, plans, () => new Set(served().keys()), 30_000);
    const { rows, compared } = assertExact(plans, await ledger(pool), outcomes, served());

    // The load reached every dialect and the limits bound: refusals of each kind that can be forced here.
    expect(new Set(outcomes.filter((outcome) => outcome.status === 200).map((outcome) => outcome.variant)).size).toBe(VARIANTS.length);
    expect(outcomes.some((outcome) => outcome.code === 'tenant-rate-limit')).toBe(true);
    expect(outcomes.some((outcome) => outcome.code === 'tenant-budget-exhausted')).toBe(true);
    expect(outcomes.filter((outcome) => outcome.status === 0 || outcome.status >= 500)).toEqual([]);
    expect(compared).toBeGreaterThan(served().size / 2);
    expect(rows.some((row) => row.kind === 'released' && row.attempt === 1)).toBe(true);
    console.info(`multi-instance: ${outcomes.length} requests, ${outcomes.filter((outcome) => outcome.status === 200).length} served, ${rows.length} ledger rows, ${compared} with usage compared`);
  }, 150_000);

  it('stays exact with an instance SIGKILLed, PostgreSQL stopped for 5 s and Redis restarted, all mid-load', async () => {
    const plans = tenantPlans('b');
    await createTenants(instances, plans);
    const since = simulator.requests.length;
    const victim = instances[2] as GatewayProcess;
    let survivors: GatewayProcess[] = [...instances];
    let redisBackAt: number | undefined;
    const faults = (async () => {
      await sleep(2_000);
      await victim.kill();
      survivors = instances.slice(0, 2);
      started = survivors;
      await sleep(1_000);
      await servers.postgres.stop();
      await sleep(5_000);
      await servers.postgres.start();
      await sleep(1_000);
      await servers.redis.stop();
      await servers.redis.start();
      redisBackAt = Date.now();
    })();
    // The load runs through every fault and two seconds past the last (bounded in count and time all the same).
    const outcomes = await runLoad(() => survivors, plans, { maxRequests: 2_000, maxMs: 40_000, workers: 12, done: () => redisBackAt !== undefined && Date.now() > redisBackAt + 2_000 });
    await faults;
    instances = survivors;
    // The survivors rode out the faults: neither the stopped database nor the Redis restart ended a process.
    expect(deadInstances()).toBe('');
    // And both serve metered requests again once Redis is back (a fresh tenant: the phase's may have spent their limits).
    const [after] = tenantPlans('b-after-');
    await createTenants(survivors.slice(0, 1), [after as TenantPlan]);
    for (const survivor of survivors) {
      const deadline = Date.now() + 15_000;
      let status = 0;
      while (status !== 200 && Date.now() < deadline) {
        status = (await send(survivor.url, VARIANTS[0] as Variant, after as TenantPlan)).status;
        if (status !== 200) await sleep(200);
      }
      expect(status, `${survivor.url} after the Redis restart`).toBe(200);
    }
    const served = (): Map<string, SimulatorRequestRecord[]> => servedIn(simulator, since);
    // The victim's reservations are settled by a survivor's sweep once their deadline passed.
    await waitForQuiet(() => (survivors[0] as GatewayProcess).url, pool, plans, () => new Set(served().keys()), REQUEST_TIMEOUT_MS + 30_000);
    // Requests the victim answered before it died may have been settled by the sweep only: their rows exist all the same.
    const { rows, compared, orphaned } = assertExact(plans, await ledger(pool), outcomes, served());
    expect(compared).toBeGreaterThan(0);
    // The faults came mid-load: requests were cut by the kill, and requests sent after Redis came back were served.
    expect(outcomes.some((outcome) => outcome.status === 0)).toBe(true);
    // Nothing admitted while Redis was down (fail closed): those requests were answered 503 with nothing sent.
    expect(outcomes.filter((outcome) => outcome.status >= 500).every((outcome) => outcome.code === 'governance-unavailable' || outcome.status === 503 || outcome.status === 502)).toBe(true);
    const unavailable = outcomes.filter((outcome) => outcome.code === 'governance-unavailable').length;
    console.info(
      `multi-instance faults: ${outcomes.length} requests, ${outcomes.filter((outcome) => outcome.status === 200).length} served, ${outcomes.filter((outcome) => outcome.status === 0).length} cut by the kill, ${unavailable} refused while Redis was down, ${rows.length} ledger rows, ${orphaned} orphaned, ${compared} with usage compared`,
    );
  }, 150_000);

  it('refuses a key revoked on one instance on the others once they report the new governance version', async () => {
    const [first, second] = instances as [GatewayProcess, GatewayProcess];
    expect((await admin(first.url, 'POST', '/tenants', { id: 'revoking', name: 'Revoking', modelAccess: ['m-*'] })).status).toBe(201);
    const created = await admin(first.url, 'POST', '/keys', { tenantId: 'revoking' });
    const plan: TenantPlan = { id: 'revoking', limits: { requestsPerMinute: 1000, budget: { amountMicros: 1, currency: 'USD', period: 'total' } }, apiKey: created.json.apiKey as string };
    const openAi = VARIANTS[0] as Variant;
    await waitForVersion([second], created.json.version as number);
    expect((await send(second.url, openAi, plan)).status).toBe(200);
    const revoked = await admin(first.url, 'POST', `/keys/${created.json.key.id as string}/revoke`, undefined);
    expect(revoked.status).toBe(200);
    await waitForVersion([second], revoked.json.version as number);
    const refused = await send(second.url, openAi, plan);
    expect(refused.status).toBe(401);
  }, 60_000);
});
