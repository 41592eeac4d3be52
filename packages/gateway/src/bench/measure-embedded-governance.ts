/**
 * What the embedded governance store adds to a gateway process: time to open a new data directory (first start) and
 * an existing one holding `--rows` ledger rows (warm start), resident memory added, and admit+settle pairs per second
 * through the store's API with the batched ledger writes. Each phase runs in a fresh process. Run:
 * `npx --yes pnpm@12.4.2 exec tsx packages/gateway/src/bench/measure-embedded-governance.ts --rows 200000`
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const TENANTS = 1_000;
const KEYS_PER_TENANT = 2;

function megabytes(bytes: number): number {
  return Math.round((bytes / 1_048_576) * 10) / 10;
}

async function phase(name: string, dataDirectory: string, rows: number): Promise<Record<string, number>> {
  // Loaded before the memory baseline: tsx compiles TypeScript in a loader thread whose memory is not the store's.
  const importing = performance.now();
  const { openEmbeddedGovernanceStore } = await import('../governance/embedded/embedded-governance-store.js');
  const importMs = performance.now() - importing;
  global.gc?.();
  const rssBefore = process.memoryUsage().rss;
  const started = performance.now();
  const store = openEmbeddedGovernanceStore({ dataDirectory });
  const snapshot = await store.loadSnapshot();
  const startMs = performance.now() - started;
  const result: Record<string, number> = { importMs: Math.round(importMs), startMs: Math.round(startMs), tenants: snapshot.tenants.length };
  if (name === 'fill') {
    for (let index = 0; index < TENANTS; index += 1) {
      const limits = { requestsPerMinute: 1_000_000, tokensPerMinute: 1e12, budget: { amountMicros: 1e15, currency: 'USD', period: 'month' as const } };
      await store.admin.createTenant({ id: `tenant-${index}`, name: `Tenant ${index}`, modelAccess: ['*'], limits, disabled: false }, 'bench');
      for (let key = 0; key < KEYS_PER_TENANT; key += 1) {
        await store.admin.createKey({ id: `key-${index}-${key}`, tenantId: `tenant-${index}`, digest: `${index}`.padStart(64, '0'), displayPrefix: 'tf-0000' }, 'bench');
      }
    }
    const tenant = (await store.admin.listTenants())[0];
    if (tenant === undefined) throw new Error('no tenant');
    const timed = performance.now();
    const cpuBefore = process.cpuUsage();
    for (let index = 0; index < rows; index += 1) {
      const tenantId = `tenant-${index % TENANTS}`;
      const request = {
        attemptId: `r${index}:1`,
        requestId: `r${index}`,
        attempt: 1,
        tenantId,
        keyId: `key-${index % TENANTS}-0`,
        publicModel: `model-${index % 5}`,
        targetRef: `model-${index % 5}#0`,
        provider: 'simulator',
        priceVersion: 'p-1',
        tenantLimits: tenant.limits,
        firstAttempt: true,
        reservedTokens: 5_000,
        reservedMicros: 50_000,
        currency: 'USD',
        deadlineMs: Date.now() + 600_000,
      };
      const admitted = await store.admit(request);
      if (admitted.kind !== 'admitted') throw new Error(`refused: ${JSON.stringify(admitted)}`);
      await store.settle({
        ...request,
        kind: 'actual',
        usage: { inputTokens: 1_200, outputTokens: 300 },
        costMicros: 12_345,
        reservedMicros: 50_000,
        usedTokens: 1_500,
        overrun: false,
        outcome: 'completed',
        releaseSlot: true,
        startedAtMs: Date.now(),
        settledAtMs: Date.now(),
      });
      if (index % 1_000 === 999) await new Promise((resolve) => setImmediate(resolve));
    }
    result.rssBeforeCloseMb = megabytes(process.memoryUsage().rss - rssBefore);
    result.externalMb = megabytes(process.memoryUsage().external);
    await store.close();
    result.admitSettlePerSecond = Math.round(rows / ((performance.now() - timed) / 1000));
    const cpu = process.cpuUsage(cpuBefore);
    result.cpuMicrosPerAdmitSettle = Math.round((cpu.user + cpu.system) / rows);
  } else {
    await store.close();
  }
  global.gc?.();
  result.addedRssMb = megabytes(process.memoryUsage().rss - rssBefore);
  result.heapUsedMb = megabytes(process.memoryUsage().heapUsed);
  result.heapTotalMb = megabytes(process.memoryUsage().heapTotal);
  return result;
}

const argv = process.argv.slice(2);
if (argv[0] === '--phase') {
  const [, name = '', dataDirectory = '', rows = '0'] = argv;
  process.stdout.write(`${JSON.stringify(await phase(name, dataDirectory, Number(rows)))}\n`);
} else {
  const rows = Number(argv[argv.indexOf('--rows') + 1] ?? 100_000) || 100_000;
  const dataDirectory = mkdtempSync(join(tmpdir(), 'tf-governance-bench-'));
  const self = fileURLToPath(import.meta.url);
  const run = (name: string): Record<string, number> => {
    const child = spawnSync(process.execPath, ['--expose-gc', '--import', 'tsx', self, '--phase', name, dataDirectory, String(rows)], { encoding: 'utf8' });
    if (child.status !== 0) throw new Error(child.stderr);
    return JSON.parse(child.stdout) as Record<string, number>;
  };
  try {
    const first = run('first');
    const fill = run('fill');
    const warm = [run('warm'), run('warm'), run('warm')];
    process.stdout.write(`${JSON.stringify({ rows, first, fill, warm }, null, 2)}\n`);
  } finally {
    rmSync(dataDirectory, { recursive: true, force: true });
  }
}
