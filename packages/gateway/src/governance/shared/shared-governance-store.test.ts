import { Redis } from 'ioredis';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { isGovernanceStoreErrorV1 } from '../v1/governance-store-error-v1.js';
import type { AdmissionRequestV1 } from '../v1/governance-store-v1.js';
import { admissionRequestV1, settlementV1 } from '../v1/test-support/governance-fixtures.js';
import { describeGovernanceStoreContract } from '../v1/test-support/governance-store-contract.js';
import { redisGovernanceKeys } from './redis-governance-keys.js';
import { SharedGovernanceStore } from './shared-governance-store.js';
import { type RealServers, realServersAvailable, startRealServers } from './test-support/real-servers.js';
import { resetSharedGovernanceState } from './test-support/reset-shared-governance-state.js';

describe.skipIf(!realServersAvailable())('shared governance store on real Redis and PostgreSQL', () => {
  let servers: RealServers;
  beforeAll(async () => {
    servers = await startRealServers();
  }, 120_000);
  afterAll(async () => servers?.dispose());

  describeGovernanceStoreContract('shared (Redis + PostgreSQL)', async ({ clock }) => {
    await resetSharedGovernanceState(servers.redis.url, servers.postgres.url);
    const store = await SharedGovernanceStore.open({
      redisUrl: servers.redis.url,
      databaseUrl: servers.postgres.url,
      clock: () => clock.now(),
    });
    return { store, cleanup: () => store.close() };
  });

  describe('several instances over one Redis and one PostgreSQL', () => {
    const instances: SharedGovernanceStore[] = [];
    afterEach(async () => {
      await Promise.all(instances.splice(0).map((instance) => instance.close()));
    });
    async function openInstances(count: number): Promise<SharedGovernanceStore[]> {
      await resetSharedGovernanceState(servers.redis.url, servers.postgres.url);
      const opened = await Promise.all(
        Array.from({ length: count }, () => SharedGovernanceStore.open({ redisUrl: servers.redis.url, databaseUrl: servers.postgres.url })),
      );
      instances.push(...opened);
      return opened;
    }
    function admission(index: number, overrides: Partial<AdmissionRequestV1> = {}): AdmissionRequestV1 {
      return {
        attemptId: `request-${index}:1`,
        requestId: `request-${index}`,
        attempt: 1,
        tenantId: 'acme',
        keyId: `key-${index % 2}`,
        publicModel: 'model-a',
        targetRef: 'model-a#0',
        provider: 'simulator',
        priceVersion: 'prices-1',
        tenantLimits: { requestsPerMinute: 10, budget: { amountMicros: 5000, currency: 'USD', period: 'day' } },
        firstAttempt: true,
        reservedTokens: 10,
        reservedMicros: 400,
        currency: 'USD',
        deadlineMs: Date.now() + 60_000,
        ...overrides,
      };
    }

    it('three instances admitting 60 attempts at once admit exactly the limit', async () => {
      const stores = await openInstances(3);
      const results = await Promise.all(Array.from({ length: 60 }, (_, index) => stores[index % 3]!.admit(admission(index))));
      expect(results.filter((result) => result.kind === 'admitted')).toHaveLength(10);
      expect(results.filter((result) => result.kind === 'refused' && result.code === 'tenant-rate-limit')).toHaveLength(50);
    });

    it('a reservation of an instance that died is swept by another, once, while a third sweeps at the same time', async () => {
      const [dying, first, second] = await openInstances(3);
      await dying!.admin.createTenant({ id: 'acme', name: 'Acme', modelAccess: ['*'], limits: {}, disabled: false }, 'admin');
      const deadlineMs = Date.now() + 200;
      for (let index = 0; index < 4; index += 1) expect((await dying!.admit(admission(index, { deadlineMs }))).kind).toBe('admitted');
      instances.splice(instances.indexOf(dying!), 1);
      await dying!.close();
      await new Promise((resolve) => setTimeout(resolve, 300));
      const swept = await Promise.all([first!.sweepOrphans(Date.now()), second!.sweepOrphans(Date.now())]);
      expect(swept[0]! + swept[1]!).toBe(4);
      const rows = await first!.admin.ledger({ tenantId: 'acme', limit: 10 });
      expect(rows.map((row) => [row.kind, row.costMicros])).toEqual(Array.from({ length: 4 }, () => ['orphaned', 400]));
    });

    it('an admin change on one instance is seen by the others polling the version; a lost Redis counter is restored from PostgreSQL', async () => {
      const [writer, reader] = await openInstances(2);
      const before = await reader!.currentVersion();
      const change = await writer!.admin.createTenant({ id: 'acme', name: 'Acme', modelAccess: ['*'], limits: {}, disabled: false }, 'admin');
      expect(change.version).toBe(before + 1);
      expect(await reader!.currentVersion()).toBe(change.version);
      expect((await reader!.loadSnapshot()).tenants.map((tenant) => tenant.id)).toEqual(['acme']);
      const redis = new Redis(servers.redis.url);
      await redis.del(redisGovernanceKeys.version);
      expect(await reader!.currentVersion()).toBe(change.version);
      expect(await redis.get(redisGovernanceKeys.version)).toBe(String(change.version));
      redis.disconnect();
    });
  });

  it('rows settled one by one reach PostgreSQL many to a transaction (the flusher lingers), and a drain writes them at once', async () => {
    const transactionsFor = async (lingerMs: number): Promise<number> => {
      await resetSharedGovernanceState(servers.redis.url, servers.postgres.url);
      const store = await SharedGovernanceStore.open({ redisUrl: servers.redis.url, databaseUrl: servers.postgres.url, ledgerLingerMs: lingerMs });
      try {
        await store.admin.createTenant({ id: 'acme', name: 'Acme', modelAccess: ['*'], limits: {}, disabled: false }, 'admin');
        for (let index = 0; index < 20; index += 1) {
          const request = admissionRequestV1({ requestId: `linger-${lingerMs}-${index}` });
          expect((await store.admit(request)).kind).toBe('admitted');
          expect(await store.settle(settlementV1(request))).toEqual({ kind: 'settled' });
          await new Promise((resolve) => setTimeout(resolve, 15));
        }
        expect(await store.drainOutbox(5000)).toBe(true);
        const pool = new pg.Pool({ connectionString: servers.postgres.url, max: 1 });
        // Rows written by one transaction share its id (xmin).
        const { rows } = await pool.query<{ rows: string; transactions: string }>('SELECT count(*) AS rows, count(DISTINCT xmin::text) AS transactions FROM governance_ledger');
        await pool.end();
        expect(Number(rows[0]!.rows)).toBe(20);
        return Number(rows[0]!.transactions);
      } finally {
        await store.close();
      }
    };
    expect(await transactionsFor(0)).toBeGreaterThanOrEqual(10);
    expect(await transactionsFor(1000)).toBeLessThanOrEqual(2);
  }, 60_000);

  it('deletes request records older than their retention when it writes new ones; the ledger is kept', async () => {
    await resetSharedGovernanceState(servers.redis.url, servers.postgres.url);
    const now = Date.now();
    const store = await SharedGovernanceStore.open({ redisUrl: servers.redis.url, databaseUrl: servers.postgres.url, requestRetentionMs: 60_000 });
    try {
      const record = { route: '/v1/chat/completions', status: 200, outcome: 'completed', totalMs: 3, attempts: [] } as const;
      store.recordRequest({ ...record, requestId: 'old', atMs: now - 120_000 });
      store.recordRequest({ ...record, requestId: 'recent', atMs: now - 1000 });
      expect((await store.admin.requests({ limit: 10 })).map((entry) => entry.requestId)).toEqual(['recent']);
    } finally {
      await store.close();
    }
  });

  it('a duplicate tenant or key id is a conflict and a key of an unknown tenant not-found, changing nothing', async () => {
    await resetSharedGovernanceState(servers.redis.url, servers.postgres.url);
    const store = await SharedGovernanceStore.open({ redisUrl: servers.redis.url, databaseUrl: servers.postgres.url });
    try {
      const tenant = { id: 'acme', name: 'Acme', modelAccess: ['*'], limits: {}, disabled: false };
      await store.admin.createTenant(tenant, 'admin');
      await store.admin.createKey({ id: 'k1', tenantId: 'acme', digest: 'ab'.repeat(32), displayPrefix: 'tf-ab' }, 'admin');
      const version = await store.currentVersion();
      const refusals = await Promise.all([
        store.admin.createTenant(tenant, 'admin').catch((error: unknown) => error),
        store.admin.createKey({ id: 'k1', tenantId: 'acme', digest: 'cd'.repeat(32), displayPrefix: 'tf-cd' }, 'admin').catch((error: unknown) => error),
        store.admin.createKey({ id: 'k2', tenantId: 'nobody', digest: 'ef'.repeat(32), displayPrefix: 'tf-ef' }, 'admin').catch((error: unknown) => error),
      ]);
      expect(refusals.map((error) => (isGovernanceStoreErrorV1(error) ? error.code : error))).toEqual(['conflict', 'conflict', 'not-found']);
      expect(JSON.stringify(refusals.map((error) => (error as Error).message))).not.toContain('cd'.repeat(32));
      expect(await store.currentVersion()).toBe(version);
      expect(await store.admin.audit(10)).toHaveLength(2);
    } finally {
      await store.close();
    }
  });
});
