import { spawn } from 'node:child_process';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import type { AdmissionRequestV1, SettlementV1 } from '../v1/governance-store-v1.js';
import { isGovernanceStoreErrorV1 } from '../v1/governance-store-error-v1.js';
import { admissionRequestV1, settlementV1 } from '../v1/test-support/governance-fixtures.js';
import { describeGovernanceStoreContract } from '../v1/test-support/governance-store-contract.js';
import { GOVERNANCE_DATA_FILES } from './governance-data-directory.js';
import { type EmbeddedGovernanceStoreOptions, openEmbeddedGovernanceStore } from './embedded-governance-store.js';

const ROOT = fileURLToPath(new URL('../../../../../', import.meta.url));

async function temporaryDirectory(): Promise<string> {
  return mkdtemp(join(tmpdir(), 'tf-governance-'));
}

describeGovernanceStoreContract('embedded (better-sqlite3)', async ({ clock }) => {
  const dataDirectory = await temporaryDirectory();
  const store = openEmbeddedGovernanceStore({ dataDirectory, clock: () => clock.now() });
  return {
    store,
    cleanup: async () => {
      await store.close();
      await rm(dataDirectory, { recursive: true, force: true });
    },
  };
});

const admission = admissionRequestV1({
  requestId: 'r1',
  keyId: 'k1',
  priceVersion: 'p-1',
  tenantLimits: { budget: { amountMicros: 1000, currency: 'USD', period: 'month' } },
  reservedMicros: 600,
});

function settlementOf(request: AdmissionRequestV1, costMicros: number): SettlementV1 {
  return settlementV1(request, { costMicros, priceVersion: 'p-1' });
}

describe('embedded governance store', () => {
  const directories: string[] = [];
  const open = async (options: Partial<EmbeddedGovernanceStoreOptions> = {}) => {
    const dataDirectory = options.dataDirectory ?? (await temporaryDirectory());
    directories.push(dataDirectory);
    return openEmbeddedGovernanceStore({ ...options, dataDirectory });
  };
  afterEach(async () => {
    for (const directory of directories.splice(0)) await rm(directory, { recursive: true, force: true });
  });

  it('creates the key-hashing secret, admin key and webhook master key once, as files of mode 0600, and reads them back', async () => {
    const first = await open();
    const directory = directories[0] ?? '';
    expect(first.secrets.created).toBe(true);
    expect(first.secrets.keyHashingSecret).toMatch(/^[0-9a-f]{64}$/);
    expect(first.secrets.adminKey).toMatch(/^tf-admin-[0-9A-Za-z]{43}$/);
    expect(first.secrets.webhookMasterKey).toMatch(/^[0-9a-f]{64}$/);
    expect(first.secrets.webhookMasterKey).not.toBe(first.secrets.keyHashingSecret);
    for (const file of [GOVERNANCE_DATA_FILES.keyHashingSecret, GOVERNANCE_DATA_FILES.adminKey, GOVERNANCE_DATA_FILES.webhookMasterKey]) {
      expect((await stat(join(directory, file))).mode & 0o777).toBe(0o600);
    }
    expect((await stat(directory)).mode & 0o777).toBe(0o700);
    await first.close();
    const second = await open({ dataDirectory: directory });
    expect(second.secrets).toEqual({ ...first.secrets, created: false });
    await second.close();
  });

  it('keeps tenants, keys, the version, the ledger and the spend of the current period across a restart', async () => {
    const store = await open();
    const directory = directories[0] ?? '';
    await store.admin.createTenant({ id: 'acme', name: 'Acme', modelAccess: ['*'], limits: admission.tenantLimits, disabled: false }, 'admin');
    await store.admin.createKey({ id: 'k1', tenantId: 'acme', digest: 'cd'.repeat(32), displayPrefix: 'tf-abcd' }, 'admin');
    await store.admit(admission);
    await store.settle(settlementOf(admission, 700));
    await store.close();

    const reopened = await open({ dataDirectory: directory });
    expect(await reopened.currentVersion()).toBe(2);
    expect((await reopened.loadSnapshot()).keys.map((key) => key.id)).toEqual(['k1']);
    expect(await reopened.settle(settlementOf(admission, 700))).toEqual({ kind: 'duplicate' });
    expect(await reopened.admin.limitUse('acme')).toMatchObject({ budgetSpentMicros: 700 });
    const next = { ...admission, attemptId: 'r2:1', requestId: 'r2', reservedMicros: 400 };
    expect(await reopened.admit(next)).toMatchObject({ kind: 'refused', code: 'tenant-budget-exhausted' });
    expect((await reopened.admin.ledger({ limit: 10 })).map((row) => row.attemptId)).toEqual(['r1:1']);
    await reopened.close();
  });

  it('writes ledger rows in batches off the settle call, and on close', async () => {
    const store = await open({ flushIntervalMs: 60_000 });
    const directory = directories[0] ?? '';
    await store.admit(admission);
    await store.settle(settlementOf(admission, 10));
    const reader = new Database(join(directory, GOVERNANCE_DATA_FILES.database), { readonly: true });
    const count = () => (reader.prepare('SELECT count(*) AS n FROM ledger').get() as { n: number }).n;
    try {
      expect(count()).toBe(0);
      await store.close();
      expect(count()).toBe(1);
    } finally {
      reader.close();
    }
  });

  it('writes a batch by itself once the flush interval passed', async () => {
    const store = await open({ flushIntervalMs: 20 });
    const directory = directories[0] ?? '';
    await store.admit(admission);
    await store.settle(settlementOf(admission, 10));
    const reader = new Database(join(directory, GOVERNANCE_DATA_FILES.database), { readonly: true });
    try {
      const deadline = Date.now() + 5000;
      let rows = 0;
      while (rows === 0 && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 10));
        rows = (reader.prepare('SELECT count(*) AS n FROM ledger').get() as { n: number }).n;
      }
      expect(rows).toBe(1);
    } finally {
      reader.close();
      await store.close();
    }
  });

  it('settles as orphaned, at the next start, a reservation a killed process left open', async () => {
    const directory = await temporaryDirectory();
    directories.push(directory);
    // One process (no tsx wrapper), so that SIGKILL kills the store's own process.
    const script = fileURLToPath(new URL('./test-support/admit-and-hang.ts', import.meta.url));
    const child = spawn(process.execPath, ['--import', 'tsx', script, directory], { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] });
    const exited = new Promise((resolve) => child.once('exit', resolve));
    await new Promise<void>((resolve, reject) => {
      child.stdout.on('data', (chunk: Buffer) => {
        if (chunk.toString().includes('admitted')) resolve();
      });
      child.once('exit', () => reject(new Error('the child exited before admitting')));
    });
    child.kill('SIGKILL');
    await exited;
    const store = await open({ dataDirectory: directory });
    const rows = await store.admin.ledger({ tenantId: 'acme', limit: 10 });
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ attemptId: 'r1:1', kind: 'orphaned', costMicros: 4_000, usedTokens: 900, publicModel: 'model-a' });
    expect((await store.admin.spend({ tenantId: 'acme', groupBy: [] }))[0]?.costMicros).toBe(4_000);
    await store.close();
    const again = await open({ dataDirectory: directory });
    expect(await again.admin.ledger({ tenantId: 'acme', limit: 10 })).toHaveLength(1);
    await again.close();
  }, 30_000);

  it('keeps a batch the disk refused, refuses admission while too many rows wait, and writes them once it can', async () => {
    const errors: unknown[] = [];
    const store = await open({ flushIntervalMs: 10, maxQueuedLedgerRows: 2, onWriteError: (error) => errors.push(error) });
    const path = join(directories[0] ?? '', GOVERNANCE_DATA_FILES.database);
    const other = new Database(path);
    other.exec(`CREATE TRIGGER refuse_ledger BEFORE INSERT ON ledger BEGIN SELECT RAISE(ABORT, 'refused by the test'); END;`);
    const attempts = ['a', 'b'].map((requestId) => ({ ...admission, requestId, attemptId: `${requestId}:1`, tenantLimits: {} }));
    try {
      for (const attempt of attempts) {
        expect((await store.admit(attempt)).kind).toBe('admitted');
        expect(await store.settle(settlementOf(attempt, 5))).toEqual({ kind: 'settled' });
      }
      const deadline = Date.now() + 5000;
      while (errors.length === 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 5));
      expect(errors.length).toBeGreaterThan(0);
      expect(await store.admit({ ...admission, requestId: 'c', attemptId: 'c:1', tenantLimits: {} })).toEqual({ kind: 'unavailable' });
      expect(await store.settle(settlementOf(attempts[0] ?? admission, 5))).toEqual({ kind: 'duplicate' });
      other.exec('DROP TRIGGER refuse_ledger');
      let rows = 0;
      while (rows < 2 && Date.now() < deadline + 5000) {
        await new Promise((resolve) => setTimeout(resolve, 10));
        rows = (other.prepare('SELECT count(*) AS n FROM ledger').get() as { n: number }).n;
      }
      expect(rows).toBe(2);
      expect((await store.admit({ ...admission, requestId: 'c', attemptId: 'c:1', tenantLimits: {} })).kind).toBe('admitted');
    } finally {
      other.close();
      await store.close();
    }
  });

  it('holds its data directory: a second store is refused while the first is open', async () => {
    const first = await open();
    const directory = directories[0] ?? '';
    let refusal: unknown;
    try {
      openEmbeddedGovernanceStore({ dataDirectory: directory });
    } catch (error) {
      refusal = error;
    }
    expect(isGovernanceStoreErrorV1(refusal) && refusal.code).toBe('data-directory-in-use');
    await first.close();
    const second = await open({ dataDirectory: directory });
    await second.close();
  });

  it('forgets request records older than their retention', async () => {
    let now = Date.UTC(2026, 3, 15);
    const store = await open({ clock: () => now, requestRetentionMs: 60_000 });
    const base = { route: '/v1/messages', status: 200, outcome: 'completed', totalMs: 3, attempts: [] } as const;
    store.recordRequest({ ...base, requestId: 'old', atMs: now });
    store.recordRequest({ ...base, requestId: 'new', atMs: now + 30_000 });
    now += 75_000;
    expect((await store.admin.requests({ limit: 10 })).map((record) => record.requestId)).toEqual(['new']);
    await store.close();
  });
});
