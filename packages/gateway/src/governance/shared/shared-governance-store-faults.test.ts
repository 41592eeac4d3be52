import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { Redis } from 'ioredis';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { AdmissionRequestV1, SettlementV1 } from '../v1/governance-store-v1.js';
import { admissionRequestV1, settlementV1 } from '../v1/test-support/governance-fixtures.js';
import { redisGovernanceKeys } from './redis-governance-keys.js';
import { SharedGovernanceConfigError, SharedGovernanceStore, type SharedGovernanceStoreOptions } from './shared-governance-store.js';
import { type RealServers, realServersAvailable, startRealServers } from './test-support/real-servers.js';
import { resetSharedGovernanceState } from './test-support/reset-shared-governance-state.js';

const LIMITS = { concurrentRequests: 100, budget: { amountMicros: 1_000_000, currency: 'USD', period: 'total' } } as const;

function admission(overrides: Partial<AdmissionRequestV1> = {}): AdmissionRequestV1 {
  return admissionRequestV1({ tenantLimits: LIMITS, deadlineMs: Date.now() + 600_000, ...overrides });
}

function settlement(request: AdmissionRequestV1, costMicros = 400): SettlementV1 {
  return settlementV1(request, { costMicros });
}

async function eventually<T>(read: () => Promise<T>, accept: (value: T) => boolean, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read().catch(() => undefined);
    if (value !== undefined && accept(value)) return value;
    if (Date.now() > deadline) throw new Error(`not reached within ${timeoutMs} ms: ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe.skipIf(!realServersAvailable())('shared governance store faults on real servers', () => {
  let servers: RealServers;
  let database: pg.Pool;
  let redis: Redis;
  const stores: SharedGovernanceStore[] = [];

  beforeAll(async () => {
    servers = await startRealServers();
  }, 120_000);
  afterAll(async () => servers?.dispose());
  beforeEach(async () => {
    await resetSharedGovernanceState(servers.redis.url, servers.postgres.url);
    database = new pg.Pool({ connectionString: servers.postgres.url, max: 2 });
    database.on('error', () => undefined);
    redis = new Redis(servers.redis.url);
    redis.on('error', () => undefined);
  });
  afterEach(async () => {
    await Promise.all(stores.splice(0).map((store) => store.close()));
    redis.disconnect();
    await database.end();
  });

  async function open(options: Partial<SharedGovernanceStoreOptions> = {}): Promise<SharedGovernanceStore> {
    const store = await SharedGovernanceStore.open({
      redisUrl: servers.redis.url,
      databaseUrl: servers.postgres.url,
      ledgerRetryMs: 100,
      ...options,
    });
    stores.push(store);
    return store;
  }

  async function ledgerCounts(): Promise<{ rows: number; attempts: number; cost: number }> {
    const result = await database.query('SELECT count(*)::int AS rows, count(DISTINCT attempt_id)::int AS attempts, coalesce(sum(cost_micros), 0)::int AS cost FROM governance_ledger');
    return result.rows[0];
  }

  it('PostgreSQL stopped for 5 s while settling: admission and settlement go on, rows wait in the outbox, then are written exactly once', async () => {
    const store = await open();
    await store.admin.createTenant({ id: 'acme', name: 'Acme', modelAccess: ['*'], limits: LIMITS, disabled: false }, 'admin');
    const before = Array.from({ length: 10 }, () => admission());
    for (const request of before) expect((await store.admit(request)).kind).toBe('admitted');

    await servers.postgres.stop();
    const stoppedAt = Date.now();
    const during = Array.from({ length: 10 }, () => admission());
    for (const request of during) expect((await store.admit(request)).kind).toBe('admitted');
    for (const request of [...before, ...during]) expect(await store.settle(settlement(request))).toEqual({ kind: 'settled' });
    await new Promise((resolve) => setTimeout(resolve, 1000));
    expect(await redis.xlen(redisGovernanceKeys.outbox)).toBe(20);
    expect(await store.settle(settlement(before[0]!))).toEqual({ kind: 'duplicate' });
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, 5000 - (Date.now() - stoppedAt))));
    await servers.postgres.start();

    expect(await store.drainOutbox(15_000)).toBe(true);
    expect(await ledgerCounts()).toEqual({ rows: 20, attempts: 20, cost: 20 * 400 });
    expect(await redis.xlen(redisGovernanceKeys.outbox)).toBe(0);
    expect((await store.admin.limitUse('acme')).budgetSpentMicros).toBe(20 * 400);
  }, 60_000);

  it('above the outbox bound admission answers unavailable (PostgreSQL down), and admits again once the rows are written', async () => {
    const store = await open({ maxOutboxLength: 3 });
    await store.admin.createTenant({ id: 'acme', name: 'Acme', modelAccess: ['*'], limits: LIMITS, disabled: false }, 'admin');
    await servers.postgres.stop();
    try {
      for (let index = 0; index < 4; index += 1) {
        const request = admission();
        expect((await store.admit(request)).kind).toBe('admitted');
        await store.settle(settlement(request));
      }
      expect(store.outboxLength).toBe(4);
      expect(await store.admit(admission())).toEqual({ kind: 'unavailable' });
    } finally {
      await servers.postgres.start();
    }
    await eventually(() => store.admit(admission()), (result) => result.kind === 'admitted');
    expect((await eventually(ledgerCounts, (counts) => counts.rows === 4)).rows).toBe(4);
  }, 60_000);

  it('Redis restarted (append-only file on): unavailable while down, reservations and the outbox survive, settlement then counts once', async () => {
    const store = await open();
    await store.admin.createTenant({ id: 'acme', name: 'Acme', modelAccess: ['*'], limits: LIMITS, disabled: false }, 'admin');
    const held = admission({ reservedMicros: 300_000 });
    const settledBefore = admission();
    expect((await store.admit(held)).kind).toBe('admitted');
    expect((await store.admit(settledBefore)).kind).toBe('admitted');
    await store.settle(settlement(settledBefore));

    await servers.redis.stop();
    expect(await store.admit(admission())).toEqual({ kind: 'unavailable' });
    expect(await store.settle(settlement(held))).toEqual({ kind: 'unavailable' });
    await servers.redis.start();

    await eventually(() => store.admin.limitUse('acme'), () => true);
    expect(await store.admin.limitUse('acme')).toMatchObject({ inFlight: 1, budgetReservedMicros: 300_000, budgetSpentMicros: 400 });
    expect(await store.admit(admission({ reservedMicros: 700_000 }))).toMatchObject({ kind: 'refused', code: 'tenant-budget-exhausted' });
    expect(await store.settle(settlement(held, 250_000))).toEqual({ kind: 'settled' });
    expect(await store.settle(settlement(held, 250_000))).toEqual({ kind: 'duplicate' });
    expect(await store.admin.limitUse('acme')).toMatchObject({ inFlight: 0, budgetReservedMicros: 0, budgetSpentMicros: 250_400 });
    expect(await store.drainOutbox(15_000)).toBe(true);
    expect(await ledgerCounts()).toEqual({ rows: 2, attempts: 2, cost: 250_400 });
  }, 60_000);

  it('a killed instance: rows its flusher read and never acknowledged are claimed by another instance and written once', async () => {
    const settler = await open({ flushLedger: false });
    await settler.admin.createTenant({ id: 'acme', name: 'Acme', modelAccess: ['*'], limits: LIMITS, disabled: false }, 'admin');
    const requests = Array.from({ length: 8 }, () => admission());
    for (const request of requests) {
      await settler.admit(request);
      await settler.settle(settlement(request));
    }
    const script = fileURLToPath(new URL('./test-support/read-outbox-and-hang.ts', import.meta.url));
    const root = fileURLToPath(new URL('../../../../../', import.meta.url));
    const child = spawn(process.execPath, ['--import', 'tsx', script, servers.redis.url], { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] });
    const exited = new Promise((resolve) => child.once('exit', resolve));
    const said = await new Promise<string>((resolve, reject) => {
      child.stdout.on('data', (chunk: Buffer) => resolve(chunk.toString().trim()));
      child.once('exit', () => reject(new Error('the instance exited before reading')));
    });
    expect(said).toBe('read');
    child.kill('SIGKILL');
    await exited;
    const pendingAtDead = (await redis.call('XPENDING', redisGovernanceKeys.outbox, redisGovernanceKeys.outboxGroup, '-', '+', 100, 'doomed')) as unknown[];
    expect(pendingAtDead).toHaveLength(8);

    const survivor = await open({ ledgerClaimIdleMs: 500, consumerName: 'survivor' });
    expect(await survivor.drainOutbox(15_000)).toBe(true);
    expect(await ledgerCounts()).toEqual({ rows: 8, attempts: 8, cost: 8 * 400 });
    const pending = (await redis.call('XPENDING', redisGovernanceKeys.outbox, redisGovernanceKeys.outboxGroup)) as [number, ...unknown[]];
    expect(pending[0]).toBe(0);
  }, 60_000);

  it('an outbox entry that is not a ledger row goes to the dead-letter stream and does not stop the flusher', async () => {
    const store = await open();
    await store.admin.createTenant({ id: 'acme', name: 'Acme', modelAccess: ['*'], limits: LIMITS, disabled: false }, 'admin');
    await redis.xadd(redisGovernanceKeys.outbox, '*', 'row', '{"not":"a row"}');
    const request = admission();
    await store.admit(request);
    await store.settle(settlement(request));
    expect(await store.drainOutbox(15_000)).toBe(true);
    expect((await ledgerCounts()).rows).toBe(1);
    const dead = await redis.xrange(redisGovernanceKeys.deadLetter, '-', '+');
    expect(dead.map(([, fields]) => fields)).toEqual([['row', '{"not":"a row"}']]);
  }, 60_000);

  it('opens from REDIS_URL and DATABASE_URL, and names a missing variable without echoing any URL', async () => {
    const store = await SharedGovernanceStore.fromEnvironment({ REDIS_URL: servers.redis.url, DATABASE_URL: servers.postgres.url });
    stores.push(store);
    expect(await store.currentVersion()).toBe(0);
    const missing = await SharedGovernanceStore.fromEnvironment({ REDIS_URL: 'redis://:secret@127.0.0.1:1' }).catch((error: unknown) => error);
    expect(missing).toBeInstanceOf(SharedGovernanceConfigError);
    expect(missing).toMatchObject({ code: 'governance-store-config-missing', variable: 'DATABASE_URL' });
    expect(String((missing as Error).message)).not.toContain('secret');
  });
});
