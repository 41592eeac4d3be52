import { createHash } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { AdmissionRequestV1 } from '../v1/governance-store-v1.js';
import { REDIS_ADMISSION_SCRIPT, REDIS_ADMISSION_SCRIPT_SHA1 } from './redis-admission-script.js';
import { REDIS_LIMIT_USE_SCRIPT, REDIS_LIMIT_USE_SCRIPT_SHA1 } from './redis-limit-use-script.js';
import { REDIS_ORPHAN_SWEEP_SCRIPT, REDIS_ORPHAN_SWEEP_SCRIPT_SHA1 } from './redis-orphan-sweep-script.js';
import { REDIS_SETTLEMENT_SCRIPT, REDIS_SETTLEMENT_SCRIPT_SHA1 } from './redis-settlement-script.js';
import { REDIS_SIGN_IN_THROTTLE_SCRIPT, REDIS_SIGN_IN_THROTTLE_SCRIPT_SHA1 } from './redis-sign-in-throttle-script.js';
import { REDIS_VERSION_SCRIPT, REDIS_VERSION_SCRIPT_SHA1 } from './redis-version-script.js';
import { admissionRequestV1, settlementV1 } from '../v1/test-support/governance-fixtures.js';
import { SharedGovernanceStore } from './shared-governance-store.js';
import { type RealServers, realServersAvailable, startRealServers } from './test-support/real-servers.js';
import { resetSharedGovernanceState } from './test-support/reset-shared-governance-state.js';

const SCRIPTS = {
  admission: [REDIS_ADMISSION_SCRIPT, REDIS_ADMISSION_SCRIPT_SHA1],
  settlement: [REDIS_SETTLEMENT_SCRIPT, REDIS_SETTLEMENT_SCRIPT_SHA1],
  'orphan sweep': [REDIS_ORPHAN_SWEEP_SCRIPT, REDIS_ORPHAN_SWEEP_SCRIPT_SHA1],
  'limit use': [REDIS_LIMIT_USE_SCRIPT, REDIS_LIMIT_USE_SCRIPT_SHA1],
  version: [REDIS_VERSION_SCRIPT, REDIS_VERSION_SCRIPT_SHA1],
  'sign-in throttle': [REDIS_SIGN_IN_THROTTLE_SCRIPT, REDIS_SIGN_IN_THROTTLE_SCRIPT_SHA1],
} as const;

describe('the governance Lua scripts are pinned by their SHA-1', () => {
  it.each(Object.entries(SCRIPTS))('%s', (_name, [source, sha1]) => {
    expect(createHash('sha1').update(source).digest('hex')).toBe(sha1);
  });
});

function admission(overrides: Partial<AdmissionRequestV1> = {}): AdmissionRequestV1 {
  return admissionRequestV1({
    requestId: `request-${Math.random().toString(36).slice(2)}`,
    tenantLimits: { requestsPerMinute: 1000, tokensPerMinute: 100_000, concurrentRequests: 10, budget: { amountMicros: 10_000_000, currency: 'USD', period: 'day' } },
    keyLimits: { requestsPerMinute: 100 },
    ...overrides,
  });
}

describe.skipIf(!realServersAvailable())('the governance scripts on a real Redis', () => {
  let servers: RealServers;
  let store: SharedGovernanceStore;
  let monitored: Redis;
  let monitor: Redis;
  let seen: { readonly command: string; readonly source: string }[];
  beforeAll(async () => {
    servers = await startRealServers();
  }, 120_000);
  afterAll(async () => servers?.dispose());
  beforeEach(async () => {
    await resetSharedGovernanceState(servers.redis.url, servers.postgres.url);
    store = await SharedGovernanceStore.open({ redisUrl: servers.redis.url, databaseUrl: servers.postgres.url, flushLedger: false });
    await store.admin.createTenant({ id: 'acme', name: 'Acme', modelAccess: ['*'], limits: {}, disabled: false }, 'admin');
    seen = [];
    monitored = new Redis(servers.redis.url);
    monitor = await monitored.monitor();
    monitor.on('monitor', (_time: string, args: string[], source: string) => seen.push({ command: args.join(' ').slice(0, 60), source }));
  });
  afterEach(async () => {
    monitor.disconnect();
    monitored.disconnect();
    await store.close();
  });

  /**
   * Commands the server received from clients while `work` ran (a script's inner commands come from `lua` and are not
   * round trips). A marker command sent on another connection before and after fences the window: the server runs
   * commands one at a time, so MONITOR reports everything of `work` between the two markers.
   */
  async function clientCommandsDuring(work: () => Promise<unknown>): Promise<string[]> {
    const marker = new Redis(servers.redis.url);
    const fence = async (name: string): Promise<number> => {
      await marker.echo(name);
      for (;;) {
        const index = seen.findIndex((entry) => entry.command === `echo ${name}`);
        if (index >= 0) return index;
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
    };
    const id = Math.random().toString(36).slice(2);
    const start = await fence(`start-${id}`);
    await work();
    const end = await fence(`end-${id}`);
    marker.disconnect();
    return seen
      .slice(start + 1, end)
      .filter((entry) => entry.source !== 'lua')
      .map((entry) => entry.command.split(' ').slice(0, 2).join(' '));
  }

  it('the server computes the same SHA-1 for each script as the pinned one', async () => {
    const redis = new Redis(servers.redis.url);
    for (const [source, sha1] of Object.values(SCRIPTS)) expect(await redis.script('LOAD', source)).toBe(sha1);
    redis.disconnect();
  });

  it('one round trip admits (EVALSHA) and one settles (EVALSHA) once the scripts are cached', async () => {
    const warm = admission();
    await store.admit(warm);
    await store.settle(settlementV1(warm));
    const request = admission();
    expect(await clientCommandsDuring(() => store.admit(request))).toEqual([`evalsha ${REDIS_ADMISSION_SCRIPT_SHA1}`]);
    expect(await clientCommandsDuring(() => store.settle(settlementV1(request)))).toEqual([`evalsha ${REDIS_SETTLEMENT_SCRIPT_SHA1}`]);
  });

  it('falls back to EVAL on NOSCRIPT (after SCRIPT FLUSH) and keeps admitting', async () => {
    const redis = new Redis(servers.redis.url);
    await redis.script('FLUSH');
    redis.disconnect();
    const request = admission();
    const commands = await clientCommandsDuring(() => store.admit(request));
    expect(commands).toEqual([`evalsha ${REDIS_ADMISSION_SCRIPT_SHA1}`, expect.stringMatching(/^eval /)]);
    expect(await clientCommandsDuring(() => store.admit(admission()))).toEqual([`evalsha ${REDIS_ADMISSION_SCRIPT_SHA1}`]);
  });

  it('windows run on the Redis clock: an instance clock two minutes ahead frees nothing', async () => {
    const limits = { requestsPerMinute: 1 };
    expect((await store.admit(admission({ tenantLimits: limits }))).kind).toBe('admitted');
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + 120_000 });
    try {
      expect(await store.admit(admission({ tenantLimits: limits }))).toMatchObject({ kind: 'refused', code: 'tenant-rate-limit' });
    } finally {
      vi.useRealTimers();
    }
  });

  it.each([
    ['the last minute of a leap February', Date.UTC(2028, 1, 29, 23, 59, 0), 60_000],
    ['the last seconds of a year', Date.UTC(2026, 11, 31, 23, 59, 30), 30_000],
    ['the first instant of a month', Date.UTC(2027, 2, 1, 0, 0, 0), Date.UTC(2027, 3, 1) - Date.UTC(2027, 2, 1)],
  ])('a month budget in %s says to retry when the next UTC month starts', async (_name, nowMs, retryAfterMs) => {
    const clocked = await SharedGovernanceStore.open({ redisUrl: servers.redis.url, databaseUrl: servers.postgres.url, flushLedger: false, clock: () => nowMs });
    try {
      const tenantLimits = { budget: { amountMicros: 100, currency: 'USD', period: 'month' as const } };
      expect((await clocked.admit(admission({ tenantLimits, reservedMicros: 100 }))).kind).toBe('admitted');
      expect(await clocked.admit(admission({ tenantLimits, reservedMicros: 1 }))).toMatchObject({ kind: 'refused', code: 'tenant-budget-exhausted', retryAfterMs });
    } finally {
      await clocked.close();
    }
  });
});
