import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { startProviderSimulator, type ProviderSimulator } from '@tokenforge/provider-simulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GatewayCatalogueV1 } from '../catalogue/gateway-catalogue-v1.js';
import { startGatewayProcess, type GatewayProcess } from '../governance/shared/test-support/gateway-process.js';
import { realServersAvailable, startRealServers, type RealServers } from '../governance/shared/test-support/real-servers.js';
import { simulatorCatalogue } from '../test-support/simulator-catalogue.js';
import { webhookEventId } from './webhooks/webhook-dispatcher.js';

/**
 * The proof of issue #34: 2,000 open jobs over three gateway processes (the CLI) on one real Redis and one real
 * PostgreSQL, the simulator's Kling and DashScope endpoints with scripted durations and failures, and nobody polling.
 * Every job reaches its terminal state, is polled by one instance at a time (the simulator holds each status read
 * and counts how many of one job were in flight at once), is settled once (one ledger row per job), and its terminal
 * event is delivered and verified by the receiver here, while the receiver is down for the first seconds (deliveries
 * retried) and one instance is SIGKILLed mid-run (its leases taken over, its unsent events sent by the others).
 */

const available = realServersAvailable();
const JOBS = 2_000;
const ADMIN_KEY = `admin-${randomBytes(16).toString('hex')}`;
const TENANTS = ['studio-a', 'studio-b', 'studio-c', 'studio-d'];
const PRICE = { currency: 'USD', version: 'jobs-1', inputPerMillion: '0', outputPerMillion: '0', perVideoSecond: '0.1' };
/** Public model, family, scripted provider model (`job.<queuedMs>.<runningMs>`), and the state it ends in. */
const MODELS = [
  { name: 'kling-ok', family: 'kling-video/v1', model: 'job.400.1200', ends: 'succeeded' },
  { name: 'kling-fail', family: 'kling-video/v1', model: 'job-fail.300.700', ends: 'failed' },
  { name: 'dash-ok', family: 'dashscope-tasks/v1', model: 'job.300.1100', ends: 'succeeded' },
  { name: 'dash-fail', family: 'dashscope-tasks/v1', model: 'job-fail.200.600', ends: 'failed' },
] as const;
/** The receiver answers 503 for this long after the first job is created. */
const RECEIVER_DOWN_MS = 4_000;

interface JobRow {
  readonly tenant_id: string;
  readonly target_ref: string;
  readonly provider_job_id: string;
  readonly public_model: string;
  readonly attempt_id: string;
  readonly state: string;
  readonly settled_at_ms: string | null;
  readonly poll_attempts: number | null;
  readonly lease_owner: string | null;
  readonly deliveries: { eventId: string; state: string; attempt: number; outcome: string }[] | null;
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

describe.skipIf(!available)('tracked jobs over three instances, one Redis, one PostgreSQL (issue #34 proof)', () => {
  let servers: RealServers;
  let simulator: ProviderSimulator;
  let pool: pg.Pool;
  let folder: string;
  let instances: GatewayProcess[] = [];
  let receiver: Server;

  beforeAll(async () => {
    [servers, simulator] = await Promise.all([startRealServers(), startProviderSimulator({ jobTimings: { queuedMs: 300, runningMs: 900, pollDelayMs: 10 } })]);
    pool = new pg.Pool({ connectionString: servers.postgres.url, max: 2 });
    pool.on('error', () => undefined);
    const { catalogue, env } = simulatorCatalogue(
      simulator,
      MODELS.map((model) => ({ name: model.name, taskKind: 'video-generation' as const, targets: [{ family: model.family, model: model.model }] })),
    );
    for (const model of catalogue.models) for (const target of model.targets) (target as { price?: unknown }).price = PRICE;
    // A poll plan tuned for a two-core CI machine: first poll 0.6 s after the create, backoff to 1.5 s.
    const tuned: GatewayCatalogueV1 = {
      ...catalogue,
      jobs: {
        signingKeyEnv: 'TEST_SIGNING_KEY',
        polling: { maxConcurrent: 100, maxConcurrentPerTarget: 40, leaseMs: 2_000, claimIntervalMs: 100, pollTimeoutMs: 3_000, plans: { '*': { firstPollMs: 600, backoffFactor: 1.5, ceilingMs: 1_500 } } },
        webhooks: { allowLoopback: true, retryDelaysMs: [300, 600, 1_000, 2_000, 3_000, 3_000, 3_000, 3_000, 3_000, 3_000, 3_000, 3_000], timeoutMs: 2_000, maxConcurrent: 32 },
      },
      governance: { pollIntervalMs: 200, sweepIntervalMs: 2_000 },
    };
    folder = mkdtempSync(join(tmpdir(), 'tf-jobs-multi-'));
    const configPath = join(folder, 'catalogue.json');
    writeFileSync(configPath, JSON.stringify(tuned));
    const processEnv = {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      ...env,
      REDIS_URL: servers.redis.url,
      DATABASE_URL: servers.postgres.url,
      TOKENFORGE_KEY_HASHING_SECRET: randomBytes(32).toString('hex'),
      TOKENFORGE_ADMIN_KEY: ADMIN_KEY,
      TOKENFORGE_WEBHOOK_MASTER_KEY: randomBytes(32).toString('hex'),
    };
    instances = await Promise.all([0, 1, 2].map(() => startGatewayProcess({ configPath, env: processEnv })));
  }, 180_000);

  afterAll(async () => {
    await Promise.all(instances.map((instance) => instance.stop(5_000)));
    receiver?.closeAllConnections();
    await new Promise((resolve) => (receiver === undefined ? resolve(undefined) : receiver.close(resolve)));
    await pool?.end();
    await simulator?.close();
    await servers?.dispose();
    if (folder !== undefined) rmSync(folder, { recursive: true, force: true });
  }, 60_000);

  const admin = async (base: string, method: string, path: string, body?: unknown): Promise<{ status: number; json: any }> => {
    const response = await fetch(`${base}/admin/v1${path}`, {
      method,
      headers: { authorization: `Bearer ${ADMIN_KEY}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return { status: response.status, json: await response.json() };
  };

  it(`${JOBS} jobs nobody polls: all terminal, one poll at a time, settled once, announced and verified, through a dead receiver and a SIGKILLed instance`, async () => {
    const dead = (): string => instances.filter((instance) => !instance.alive()).map((instance) => `\n${instance.url}: ${instance.stderrTail()}`).join('');
    // Tenants, keys and each tenant's webhook secret (derived from the master key: every instance answers the same).
    const keys = new Map<string, string>();
    const secrets = new Map<string, string>();
    for (const [index, tenantId] of TENANTS.entries()) {
      const base = (instances[index % 3] as GatewayProcess).url;
      expect((await admin(base, 'POST', '/tenants', { id: tenantId, name: tenantId })).status).toBe(201);
      keys.set(tenantId, (await admin(base, 'POST', '/keys', { tenantId })).json.apiKey as string);
      const answers = await Promise.all(instances.map((instance) => admin(instance.url, 'GET', `/tenants/${tenantId}/webhook-secret`)));
      expect(new Set(answers.map((answer) => answer.json.secret)).size).toBe(1);
      secrets.set(tenantId, answers[0]?.json.secret as string);
    }
    await sleep(500);

    // The receiver: verifies every signature with the tenant's secret (its own HMAC, not the gateway's code).
    let downUntil = Number.POSITIVE_INFINITY;
    let refusedWhileDown = 0;
    let badSignatures = 0;
    const verifiedEvents = new Map<string, number>();
    receiver = createServer((request: IncomingMessage, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        if (Date.now() < downUntil) {
          refusedWhileDown += 1;
          return response.writeHead(503).end();
        }
        const body = Buffer.concat(chunks).toString('utf8');
        const secret = secrets.get((request.url ?? '').split('/').at(-1) ?? '') ?? '';
        const id = String(request.headers['webhook-id'] ?? '');
        const timestamp = String(request.headers['webhook-timestamp'] ?? '');
        const expected = Buffer.from(createHmac('sha256', Buffer.from(secret.replace(/^whsec_/, ''), 'base64')).update(`${id}.${timestamp}.${body}`).digest('base64'));
        const given = Buffer.from(String(request.headers['webhook-signature'] ?? '').replace(/^v1,/, ''));
        if (given.length !== expected.length || !timingSafeEqual(given, expected) || Math.abs(Date.now() / 1000 - Number(timestamp)) > 300) {
          badSignatures += 1;
          return response.writeHead(400).end();
        }
        verifiedEvents.set(id, (verifiedEvents.get(id) ?? 0) + 1);
        return response.writeHead(204).end();
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    const hooks = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;

    const rows = async (): Promise<JobRow[]> =>
      (await pool.query<JobRow>('SELECT tenant_id, target_ref, provider_job_id, public_model, attempt_id, state, settled_at_ms, poll_attempts, lease_owner, deliveries FROM governance_tracked_jobs')).rows;
    const terminalEventOf = (row: JobRow): string => webhookEventId({ tenantId: row.tenant_id, targetRef: row.target_ref, providerJobId: row.provider_job_id, state: row.state } as Parameters<typeof webhookEventId>[0]);

    // 2,000 creates spread over the instances; nobody reads a job afterwards. Once a quarter of the jobs settled,
    // the third instance gets no more creates and, when its creates in flight are answered, is SIGKILLed mid-run,
    // noting the leases it held.
    const started = Date.now();
    downUntil = started + RECEIVER_DOWN_MS;
    const victim = instances[2] as GatewayProcess;
    let victimRetired = false;
    let victimCreatesInFlight = 0;
    const victimLeased = new Set<string>();
    let killedAt = 0;
    let next = 0;
    const refusedCreates: string[] = [];
    const creator = async (): Promise<void> => {
      for (let index = next++; index < JOBS; index = next++) {
        const tenantId = TENANTS[index % TENANTS.length] as string;
        const model = MODELS[index % MODELS.length] as (typeof MODELS)[number];
        const live = victimRetired ? instances.slice(0, 2) : instances;
        const instance = live[index % live.length] as GatewayProcess;
        if (instance === victim) victimCreatesInFlight += 1;
        try {
          const response = await fetch(`${instance.url}/v2/jobs`, {
            method: 'POST',
            headers: { authorization: `Bearer ${keys.get(tenantId) ?? ''}`, 'content-type': 'application/json' },
            body: JSON.stringify({ model: model.name, prompt: `job ${index}`, durationSeconds: 5, callbackUrl: `${hooks}/${tenantId}` }),
          });
          if (response.status !== 202) refusedCreates.push(`${response.status} ${await response.text()}`);
          else await response.arrayBuffer();
        } finally {
          if (instance === victim) victimCreatesInFlight -= 1;
        }
      }
    };
    const killer = async (): Promise<void> => {
      for (;;) {
        const settled = (await pool.query<{ count: string }>('SELECT count(*) AS count FROM governance_tracked_jobs WHERE settled_at_ms IS NOT NULL')).rows[0]?.count;
        if (Number(settled) >= JOBS / 4) break;
        if (Date.now() - started > 90_000) throw new Error(`a quarter of the jobs did not settle in 90 s${dead()}`);
        await sleep(100);
      }
      victimRetired = true;
      while (victimCreatesInFlight > 0) await sleep(5);
      // Killed at a moment it holds leases (it claims every 100 ms while jobs are due).
      for (let tries = 0; tries < 200 && victimLeased.size === 0; tries += 1) {
        const { rows: leased } = await pool.query<{ provider_job_id: string }>('SELECT provider_job_id FROM governance_tracked_jobs WHERE lease_owner LIKE $1 AND lease_until_ms > $2', [
          `%:${victim.pid}:%`,
          Date.now(),
        ]);
        for (const row of leased) victimLeased.add(row.provider_job_id);
        if (victimLeased.size === 0) await sleep(10);
      }
      await victim.kill();
      killedAt = Date.now();
    };
    await Promise.all([killer(), ...Array.from({ length: 24 }, creator)]);
    const createdMs = Date.now() - started;
    expect(refusedCreates).toEqual([]);
    // Every 202 has its row before the client got the handle (an untracked job is never polled, settled or announced).
    expect(Number((await pool.query<{ count: string }>('SELECT count(*) AS count FROM governance_tracked_jobs')).rows[0]?.count)).toBe(JOBS);


    // The gateway's Kling job ids carry their endpoint (`text2video:<task id>`); the simulator counts by task id.
    // On failure: which jobs are stuck and how their rows stand (lease, schedule, attempts, last observation, settlement).
    const stuck = async (seen: JobRow[]): Promise<string> => {
      const open = seen.filter((row) => row.settled_at_ms === null || !verifiedEvents.has(terminalEventOf(row))).slice(0, 20);
      const { rows: detail } = await pool.query(
        `SELECT tenant_id, target_ref, provider_job_id, state, lease_owner, lease_until_ms, next_poll_at_ms, poll_attempts, created_at_ms,
           last_observed_at_ms, settled_at_ms, terminal, deliveries, (extract(epoch from clock_timestamp()) * 1000)::bigint AS db_now_ms
         FROM governance_tracked_jobs WHERE provider_job_id = ANY($1::text[])`,
        [open.map((row) => row.provider_job_id)],
      );
      const victimPid = `:${victim.pid}:`;
      return `\nstuck (victim pid ${victim.pid}, killed at ${killedAt}):\n${detail.map((row) => JSON.stringify({ ...row, createdAfterStartMs: Number(row.created_at_ms) - started, ownedByVictim: String(row.lease_owner ?? '').includes(victimPid), polls: polls.get(String(row.provider_job_id)) ?? null, announced: verifiedEvents.has(terminalEventOf(row as JobRow)) })).join('\n')}`;
    };
    const simulatorPollsNow = () => simulator.jobPolls();
    const polls = { get: (id: string) => simulatorPollsNow().get(id) ?? simulatorPollsNow().get(id.slice(id.lastIndexOf(':') + 1)) };

    // Wait for every job to be settled and its terminal event verified by the receiver.
    let final: JobRow[] = [];
    const settleDeadline = Math.min(started + 150_000, Date.now() + 45_000);
    for (;;) {
      final = await rows();
      const settled = final.filter((row) => row.settled_at_ms !== null).length;
      const announced = final.filter((row) => row.settled_at_ms !== null && verifiedEvents.has(terminalEventOf(row))).length;
      if (settled === JOBS && announced === JOBS) break;
      // A busy two-core machine may spend most of a minute on the creates: the settling budget counts from their end
      // (all settle within seconds of the last create when healthy), capped so the test ends well inside its timeout.
      if (Date.now() > settleDeadline) throw new Error(`after ${Date.now() - started} ms (creates done at ${createdMs} ms): ${final.length} rows, ${settled} settled, ${announced} announced of ${JOBS}${await stuck(final)}${dead()}`);
      await sleep(200);
    }
    const doneMs = Date.now() - started;

    // Every job in the state its script ends in, polled at least once, and never by two instances at once.
    expect(final).toHaveLength(JOBS);
    const ends = new Map<string, string>(MODELS.map((model) => [model.name, model.ends]));
    expect(final.filter((row) => row.state !== ends.get(row.public_model)).map((row) => `${row.public_model}: ${row.state}`)).toEqual([]);
    expect(final.filter((row) => (polls.get(row.provider_job_id)?.polls ?? 0) === 0)).toEqual([]);
    expect(final.filter((row) => (polls.get(row.provider_job_id)?.maxConcurrent ?? 0) > 1).map((row) => row.provider_job_id)).toEqual([]);
    const totalPolls = final.reduce((sum, row) => sum + (polls.get(row.provider_job_id)?.polls ?? 0), 0);

    // Settled once: exactly one ledger row per job's attempt, a failed job's reservation released at no cost.
    // A ledger row the killed instance had read from the Redis outbox but not yet written is taken over by a
    // survivor's flusher after 30 s (the shared store's claimIdleMs): wait that long when one is missing.
    let ledger: { attempt_id: string; count: string; cost: string }[] = [];
    for (let wait = 0; wait < 200; wait += 1) {
      ledger = (await pool.query<{ attempt_id: string; count: string; cost: string }>('SELECT attempt_id, count(*) AS count, sum(cost_micros) AS cost FROM governance_ledger GROUP BY attempt_id')).rows;
      if (ledger.length >= JOBS) break;
      await sleep(200);
    }
    const byAttempt = new Map(ledger.map((row) => [row.attempt_id, row]));
    expect(final.filter((row) => byAttempt.get(row.attempt_id)?.count !== '1').map((row) => `${row.attempt_id}: ${byAttempt.get(row.attempt_id)?.count ?? 'no'} ledger rows`)).toEqual([]);
    expect(final.filter((row) => row.state === 'failed' && byAttempt.get(row.attempt_id)?.cost !== '0')).toEqual([]);
    expect(final.filter((row) => row.state === 'succeeded' && Number(byAttempt.get(row.attempt_id)?.cost) <= 0)).toEqual([]);

    // Webhooks: no bad signature, the receiver refused events while down, and those were retried and delivered.
    expect(badSignatures).toBe(0);
    expect(refusedWhileDown).toBeGreaterThan(0);
    const retried = final.filter((row) => (row.deliveries ?? []).some((delivery) => delivery.outcome === 'failed') && (row.deliveries ?? []).some((delivery) => delivery.outcome === 'delivered'));
    expect(retried.length).toBeGreaterThan(0);

    // The killed instance held leases; each of those jobs was taken over and finished by the survivors.
    expect(victimLeased.size).toBeGreaterThan(0);
    const byId = new Map(final.map((row) => [row.provider_job_id, row]));
    expect([...victimLeased].filter((id) => byId.get(id)?.settled_at_ms === null)).toEqual([]);
    expect(final.filter((row) => row.lease_owner !== null && row.lease_owner.includes(`:${victim.pid}:`) && Number(row.settled_at_ms) > killedAt)).toEqual([]);

    const seconds = (doneMs - 0) / 1000;
    console.info(
      `jobs proof: ${JOBS} jobs created in ${createdMs} ms (the SIGKILL at ${killedAt - started} ms), all settled and announced after ${doneMs} ms; ${totalPolls} polls ` +
        `(${(totalPolls / JOBS).toFixed(2)} per job, ${(totalPolls / seconds).toFixed(0)}/s); receiver refused ${refusedWhileDown} while down; ` +
        `${retried.length} jobs with retried deliveries; victim held ${victimLeased.size} leases at SIGKILL`,
    );
  }, 240_000);
});
