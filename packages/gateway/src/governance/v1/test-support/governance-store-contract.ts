import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isGovernanceStoreErrorV1 } from '../governance-store-error-v1.js';
import type {
  AdmissionRequestV1,
  AdmissionResultV1,
  ClientKeyRecordV1,
  GovernanceLimitsV1,
  GovernanceStoreV1,
  LedgerRowV1,
  SettlementV1,
  SpendGroupV1,
  TenantRecordV1,
  TrackedJobQueryV1,
  TrackedJobV1,
} from '../governance-store-v1.js';
import { JOB_DELIVERY_LOG_LIMIT_V1 } from '../governance-store-v1.js';
import { admissionRequestV1, type SettlementOverridesV1, settlementV1 } from './governance-fixtures.js';

/** What a factory gives the contract suite: a store on a fresh, empty state, and how to tear it down. */
export interface GovernanceStoreUnderTest {
  readonly store: GovernanceStoreV1;
  cleanup(): Promise<void>;
}

/**
 * The store's clock in the contract suite. An implementation under test reads `now()` wherever it would read its own
 * clock (the process clock for the embedded store, the Redis server's `TIME` for the shared one): rate windows, budget
 * periods, admission times. The suite moves it with `advance`; it starts at {@link CONTRACT_START_MS}.
 */
export interface GovernanceContractClock {
  now(): number;
}

/** 2026-04-15T12:00:00.000Z: where the contract clock starts. */
export const CONTRACT_START_MS = Date.UTC(2026, 3, 15, 12, 0, 0);

const MINUTE = 60_000;

class ManualClock implements GovernanceContractClock {
  #nowMs = CONTRACT_START_MS;
  now(): number {
    return this.#nowMs;
  }
  advance(ms: number): void {
    this.#nowMs += ms;
  }
  set(ms: number): void {
    if (ms < this.#nowMs) throw new Error('the contract clock only moves forward');
    this.#nowMs = ms;
  }
}

/**
 * Registers the tests every {@link GovernanceStoreV1} implementation must pass. `makeStore` is called once per test and
 * must answer a store on an empty state whose clock is `clock`.
 */
export function describeGovernanceStoreContract(
  name: string,
  makeStore: (options: { readonly clock: GovernanceContractClock }) => Promise<GovernanceStoreUnderTest>,
): void {
  describe(`${name}: governance store contract`, () => {
    let clock: ManualClock;
    let store: GovernanceStoreV1;
    let cleanup: () => Promise<void>;
    let sequence = 0;

    beforeEach(async () => {
      clock = new ManualClock();
      const made = await makeStore({ clock });
      store = made.store;
      cleanup = made.cleanup;
    });
    afterEach(async () => {
      await cleanup();
    });

    async function tenant(limits: GovernanceLimitsV1, extra: Partial<TenantRecordV1> = {}): Promise<TenantRecordV1> {
      sequence += 1;
      const change = await store.admin.createTenant(
        { id: `tenant-${sequence}`, name: `Tenant ${sequence}`, modelAccess: ['*'], limits, disabled: false, ...extra },
        'admin',
      );
      return change.value;
    }

    async function key(tenantId: string, limits?: GovernanceLimitsV1): Promise<ClientKeyRecordV1> {
      sequence += 1;
      const change = await store.admin.createKey(
        {
          id: `key-${sequence}`,
          tenantId,
          digest: `${sequence.toString(16).padStart(8, '0')}`.repeat(8),
          displayPrefix: `tf-${sequence}`,
          ...(limits === undefined ? {} : { limits }),
        },
        'admin',
      );
      return change.value;
    }

    function admission(
      holder: { tenant: TenantRecordV1; key?: ClientKeyRecordV1 },
      overrides: Partial<AdmissionRequestV1> = {},
    ): AdmissionRequestV1 {
      sequence += 1;
      return admissionRequestV1({
        requestId: `request-${sequence}`,
        tenantId: holder.tenant.id,
        keyId: holder.key?.id ?? 'key-none',
        tenantLimits: holder.tenant.limits,
        ...(holder.key?.limits === undefined ? {} : { keyLimits: holder.key.limits }),
        reservedTokens: 10,
        reservedMicros: 10,
        deadlineMs: clock.now() + 10 * MINUTE,
        ...overrides,
      });
    }

    function settlement(request: AdmissionRequestV1, overrides: SettlementOverridesV1 = {}): SettlementV1 {
      return settlementV1(request, {
        usage: { inputTokens: 3, outputTokens: 2 },
        costMicros: request.reservedMicros,
        usedTokens: 5,
        startedAtMs: clock.now(),
        settledAtMs: clock.now(),
        ...overrides,
      });
    }

    async function admitAll(requests: readonly AdmissionRequestV1[]): Promise<AdmissionResultV1[]> {
      return Promise.all(requests.map((request) => store.admit(request)));
    }

    function admittedCount(results: readonly AdmissionResultV1[]): number {
      return results.filter((result) => result.kind === 'admitted').length;
    }

    function refusals(results: readonly AdmissionResultV1[]) {
      return results.flatMap((result) => (result.kind === 'refused' ? [result] : []));
    }

    describe('admission', () => {
      it('admits exactly L of N parallel first attempts against requestsPerMinute L', async () => {
        const holder = { tenant: await tenant({ requestsPerMinute: 7 }) };
        const results = await admitAll(Array.from({ length: 40 }, () => admission(holder)));
        expect(admittedCount(results)).toBe(7);
        for (const refusal of refusals(results)) {
          expect(refusal).toMatchObject({ code: 'tenant-rate-limit', scope: 'tenant' });
          expect(refusal.retryAfterMs).toBeGreaterThan(0);
          expect(refusal.retryAfterMs).toBeLessThanOrEqual(MINUTE);
        }
      });

      it('admits exactly L of N parallel attempts against tokensPerMinute', async () => {
        const holder = { tenant: await tenant({ tokensPerMinute: 1000 }) };
        const results = await admitAll(Array.from({ length: 30 }, () => admission(holder, { reservedTokens: 100 })));
        expect(admittedCount(results)).toBe(10);
        for (const refusal of refusals(results)) {
          expect(refusal).toMatchObject({ code: 'tenant-token-limit', scope: 'tenant' });
          expect(refusal.retryAfterMs).toBeGreaterThan(0);
          expect(refusal.retryAfterMs).toBeLessThanOrEqual(MINUTE);
        }
      });

      it('admits exactly L of N parallel requests against concurrentRequests', async () => {
        const holder = { tenant: await tenant({ concurrentRequests: 5 }) };
        const results = await admitAll(Array.from({ length: 30 }, () => admission(holder)));
        expect(admittedCount(results)).toBe(5);
        for (const refusal of refusals(results)) expect(refusal).toMatchObject({ code: 'tenant-concurrency-limit', scope: 'tenant' });
      });

      it('admits exactly as many parallel reservations as the budget holds', async () => {
        const holder = { tenant: await tenant({ budget: { amountMicros: 1000, currency: 'USD', period: 'total' } }) };
        const results = await admitAll(Array.from({ length: 30 }, () => admission(holder, { reservedMicros: 150 })));
        expect(admittedCount(results)).toBe(6);
        for (const refusal of refusals(results)) {
          expect(refusal).toMatchObject({ code: 'tenant-budget-exhausted', scope: 'tenant' });
          expect(refusal.retryAfterMs).toBeUndefined();
        }
      });

      it('names the key when the key limit refuses and the tenant when the tenant limit does', async () => {
        const owner = await tenant({ requestsPerMinute: 5 });
        const narrow = { tenant: owner, key: await key(owner.id, { requestsPerMinute: 2 }) };
        const wide = { tenant: owner, key: await key(owner.id) };
        expect(admittedCount(await admitAll([admission(narrow), admission(narrow)]))).toBe(2);
        expect(await store.admit(admission(narrow))).toMatchObject({ kind: 'refused', code: 'tenant-rate-limit', scope: 'key' });
        expect(admittedCount(await admitAll([admission(wide), admission(wide), admission(wide)]))).toBe(3);
        expect(await store.admit(admission(wide))).toMatchObject({ kind: 'refused', code: 'tenant-rate-limit', scope: 'tenant' });
      });

      it('a refusal holds nothing: no request, token, slot or budget is kept by a refused attempt', async () => {
        const holder = {
          tenant: await tenant({
            requestsPerMinute: 10,
            tokensPerMinute: 100,
            concurrentRequests: 5,
            budget: { amountMicros: 1000, currency: 'USD', period: 'total' },
          }),
        };
        expect((await store.admit(admission(holder, { reservedTokens: 80, reservedMicros: 400 }))).kind).toBe('admitted');
        expect(await store.admit(admission(holder, { reservedTokens: 30, reservedMicros: 100 }))).toMatchObject({
          kind: 'refused',
          code: 'tenant-token-limit',
        });
        expect(await store.admit(admission(holder, { reservedTokens: 10, reservedMicros: 700 }))).toMatchObject({
          kind: 'refused',
          code: 'tenant-budget-exhausted',
        });
        expect(await store.admin.limitUse(holder.tenant.id)).toMatchObject({
          requestsLastMinute: 1,
          tokensLastMinute: 80,
          inFlight: 1,
          budgetSpentMicros: 0,
          budgetReservedMicros: 400,
        });
        expect((await store.admit(admission(holder, { reservedTokens: 20, reservedMicros: 600 }))).kind).toBe('admitted');
      });

      it('a later attempt of a request reserves tokens and budget but takes no request or slot', async () => {
        const holder = { tenant: await tenant({ requestsPerMinute: 1, concurrentRequests: 1, tokensPerMinute: 100 }) };
        const first = admission(holder, { reservedTokens: 40 });
        expect((await store.admit(first)).kind).toBe('admitted');
        const second = admission(holder, { requestId: first.requestId, attempt: 2, reservedTokens: 40 });
        expect(second.firstAttempt).toBe(false);
        expect((await store.admit(second)).kind).toBe('admitted');
        expect(await store.admin.limitUse(holder.tenant.id)).toMatchObject({ requestsLastMinute: 1, tokensLastMinute: 80, inFlight: 1 });
        const third = admission(holder, { requestId: first.requestId, attempt: 3, reservedTokens: 40 });
        expect(await store.admit(third)).toMatchObject({ kind: 'refused', code: 'tenant-token-limit' });
      });

      it('reports the tighter of the tenant and key windows', async () => {
        const owner = await tenant({ requestsPerMinute: 10, tokensPerMinute: 1000 });
        const holder = { tenant: owner, key: await key(owner.id, { requestsPerMinute: 3, tokensPerMinute: 5000 }) };
        const result = await store.admit(admission(holder, { reservedTokens: 100 }));
        expect(result.kind).toBe('admitted');
        if (result.kind !== 'admitted') return;
        expect(result.limits.requests).toMatchObject({ limit: 3, remaining: 2 });
        expect(result.limits.tokens).toMatchObject({ limit: 1000, remaining: 900 });
        expect(result.limits.requests?.resetMs).toBeGreaterThan(0);
        expect(result.limits.requests?.resetMs).toBeLessThanOrEqual(MINUTE);
      });

      it('slides the request window on the store clock and says when to retry', async () => {
        const holder = { tenant: await tenant({ requestsPerMinute: 2 }) };
        expect((await store.admit(admission(holder))).kind).toBe('admitted');
        clock.advance(30_000);
        expect((await store.admit(admission(holder))).kind).toBe('admitted');
        clock.advance(1_000);
        const refused = await store.admit(admission(holder));
        expect(refused).toMatchObject({ kind: 'refused', code: 'tenant-rate-limit' });
        if (refused.kind !== 'refused') return;
        expect(refused.retryAfterMs).toBeGreaterThanOrEqual(28_000);
        expect(refused.retryAfterMs).toBeLessThanOrEqual(30_000);
        clock.advance(29_001);
        expect((await store.admit(admission(holder))).kind).toBe('admitted');
        expect(await store.admit(admission(holder))).toMatchObject({ kind: 'refused', code: 'tenant-rate-limit' });
      });

      it('an exhausted day budget says to retry at the next UTC midnight; an exhausted total budget never', async () => {
        clock.set(Date.UTC(2026, 3, 15, 23, 59, 0));
        const daily = { tenant: await tenant({ budget: { amountMicros: 100, currency: 'USD', period: 'day' } }) };
        const total = { tenant: await tenant({ budget: { amountMicros: 100, currency: 'USD', period: 'total' } }) };
        expect((await store.admit(admission(daily, { reservedMicros: 100 }))).kind).toBe('admitted');
        expect((await store.admit(admission(total, { reservedMicros: 100 }))).kind).toBe('admitted');
        const dayRefusal = await store.admit(admission(daily, { reservedMicros: 1 }));
        expect(dayRefusal).toMatchObject({ kind: 'refused', code: 'tenant-budget-exhausted', scope: 'tenant' });
        if (dayRefusal.kind === 'refused') {
          expect(dayRefusal.retryAfterMs).toBeGreaterThanOrEqual(59_000);
          expect(dayRefusal.retryAfterMs).toBeLessThanOrEqual(60_000);
        }
        const totalRefusal = await store.admit(admission(total, { reservedMicros: 1 }));
        expect(totalRefusal).toMatchObject({ kind: 'refused', code: 'tenant-budget-exhausted' });
        if (totalRefusal.kind === 'refused') expect(totalRefusal.retryAfterMs).toBeUndefined();
      });
    });

    describe('settlement', () => {
      it('releases the slot and the rest of the reservation and charges the actual cost', async () => {
        const holder = {
          tenant: await tenant({
            tokensPerMinute: 1000,
            concurrentRequests: 1,
            budget: { amountMicros: 1000, currency: 'USD', period: 'total' },
          }),
        };
        const request = admission(holder, { reservedTokens: 800, reservedMicros: 900 });
        expect((await store.admit(request)).kind).toBe('admitted');
        expect(await store.settle(settlement(request, { costMicros: 300, usedTokens: 200 }))).toEqual({ kind: 'settled' });
        expect(await store.admin.limitUse(holder.tenant.id)).toMatchObject({
          tokensLastMinute: 200,
          inFlight: 0,
          budgetSpentMicros: 300,
          budgetReservedMicros: 0,
        });
        expect((await store.admit(admission(holder, { reservedTokens: 800, reservedMicros: 700 }))).kind).toBe('admitted');
      });

      it('keeps the request slot when the settlement does not release it', async () => {
        const holder = { tenant: await tenant({ concurrentRequests: 1 }) };
        const request = admission(holder);
        await store.admit(request);
        await store.settle(settlement(request, { releaseSlot: false, kind: 'released', costMicros: 0, usage: undefined, usedTokens: 0 }));
        expect(await store.admit(admission(holder))).toMatchObject({ kind: 'refused', code: 'tenant-concurrency-limit' });
        const retry = admission(holder, { requestId: request.requestId, attempt: 2 });
        expect((await store.admit(retry)).kind).toBe('admitted');
        await store.settle(settlement(retry));
        expect((await store.admin.limitUse(holder.tenant.id)).inFlight).toBe(0);
        expect((await store.admit(admission(holder))).kind).toBe('admitted');
      });

      it('settling an attempt twice writes one ledger row and answers duplicate, also when both run at once', async () => {
        const holder = { tenant: await tenant({ budget: { amountMicros: 10_000, currency: 'USD', period: 'total' } }) };
        const sequential = admission(holder, { reservedMicros: 50 });
        const concurrent = admission(holder, { reservedMicros: 50 });
        await admitAll([sequential, concurrent]);
        expect(await store.settle(settlement(sequential, { costMicros: 20 }))).toEqual({ kind: 'settled' });
        expect(await store.settle(settlement(sequential, { costMicros: 20 }))).toEqual({ kind: 'duplicate' });
        const both = await Promise.all([store.settle(settlement(concurrent, { costMicros: 30 })), store.settle(settlement(concurrent, { costMicros: 30 }))]);
        expect(both.map((result) => result.kind).sort()).toEqual(['duplicate', 'settled']);
        const rows = await store.admin.ledger({ tenantId: holder.tenant.id, limit: 100 });
        expect(rows.map((row) => row.attemptId).sort()).toEqual([concurrent.attemptId, sequential.attemptId].sort());
        expect((await store.admin.limitUse(holder.tenant.id)).budgetSpentMicros).toBe(50);
      });

      it('records each kind: actual, estimated at the reservation, released at nothing', async () => {
        const holder = { tenant: await tenant({ tokensPerMinute: 10_000, budget: { amountMicros: 10_000, currency: 'USD', period: 'total' } }) };
        const actual = admission(holder, { reservedMicros: 500, reservedTokens: 300 });
        const estimated = admission(holder, { reservedMicros: 400, reservedTokens: 300 });
        const released = admission(holder, { reservedMicros: 300, reservedTokens: 300 });
        await admitAll([actual, estimated, released]);
        await store.settle(settlement(actual, { costMicros: 120, usedTokens: 40 }));
        await store.settle(settlement(estimated, { kind: 'estimated', usage: undefined, costMicros: 400, usedTokens: 300 }));
        await store.settle(settlement(released, { kind: 'released', usage: undefined, costMicros: 0, usedTokens: 0, outcome: 'failed:upstream-refused' }));
        const rows = await store.admin.ledger({ tenantId: holder.tenant.id, limit: 10 });
        const byAttempt = new Map(rows.map((row) => [row.attemptId, row]));
        expect(byAttempt.get(actual.attemptId)).toMatchObject({ kind: 'actual', costMicros: 120, usage: { inputTokens: 3, outputTokens: 2 } });
        expect(byAttempt.get(estimated.attemptId)).toMatchObject({ kind: 'estimated', costMicros: 400, usedTokens: 300 });
        expect(byAttempt.get(estimated.attemptId)?.usage).toBeUndefined();
        expect(byAttempt.get(released.attemptId)).toMatchObject({ kind: 'released', costMicros: 0, outcome: 'failed:upstream-refused' });
        expect(await store.admin.limitUse(holder.tenant.id)).toMatchObject({ budgetSpentMicros: 520, budgetReservedMicros: 0, tokensLastMinute: 340 });
      });

      it('charges an overrun in full and flags its row', async () => {
        const holder = { tenant: await tenant({ budget: { amountMicros: 300, currency: 'USD', period: 'total' } }) };
        const request = admission(holder, { reservedMicros: 100 });
        await store.admit(request);
        await store.settle(settlement(request, { costMicros: 250, overrun: true }));
        const [row] = await store.admin.ledger({ tenantId: holder.tenant.id, limit: 1 });
        expect(row).toMatchObject({ costMicros: 250, reservedMicros: 100, overrun: true });
        expect((await store.admin.limitUse(holder.tenant.id)).budgetSpentMicros).toBe(250);
        expect(await store.admit(admission(holder, { reservedMicros: 60 }))).toMatchObject({ kind: 'refused', code: 'tenant-budget-exhausted' });
        expect((await store.admit(admission(holder, { reservedMicros: 50 }))).kind).toBe('admitted');
      });

      it('writes the ledger row as settled: every fact of the settlement and its UTC day', async () => {
        const holder = { tenant: await tenant({}) };
        const request = admission(holder);
        await store.admit(request);
        const settled = settlement(request, {
          usage: { inputTokens: 1200, outputTokens: 300, cacheReadInputTokens: 1000, reasoningOutputTokens: 100 },
          upstreamCost: { amountMicros: 12_300, currency: 'USD' },
          settledAtMs: Date.UTC(2026, 3, 14, 23, 59, 59, 999),
        });
        await store.settle(settled);
        const [row] = await store.admin.ledger({ tenantId: holder.tenant.id, limit: 1 });
        const { releaseSlot: _releaseSlot, ...facts } = settled;
        expect(row).toEqual({ ...facts, day: '2026-04-14' } satisfies LedgerRowV1);
      });

      it('records a settlement whose reservation the store does not hold, once', async () => {
        const holder = { tenant: await tenant({ concurrentRequests: 1, budget: { amountMicros: 1000, currency: 'USD', period: 'total' } }) };
        const never = admission(holder, { reservedMicros: 100 });
        expect(await store.settle(settlement(never, { costMicros: 70 }))).toEqual({ kind: 'settled' });
        expect(await store.settle(settlement(never, { costMicros: 70 }))).toEqual({ kind: 'duplicate' });
        expect(await store.admin.limitUse(holder.tenant.id)).toMatchObject({ inFlight: 0, budgetSpentMicros: 70, budgetReservedMicros: 0 });
        expect((await store.admit(admission(holder))).kind).toBe('admitted');
      });
    });

    describe('orphaned reservations', () => {
      it('sweeps an expired reservation once, at its reserved amount, with its slot', async () => {
        const holder = { tenant: await tenant({ concurrentRequests: 1, budget: { amountMicros: 1000, currency: 'USD', period: 'total' } }) };
        const request = admission(holder, { reservedMicros: 300, reservedTokens: 50, deadlineMs: clock.now() + 1000 });
        await store.admit(request);
        expect(await store.sweepOrphans(clock.now() + 500)).toBe(0);
        expect(await store.sweepOrphans(clock.now() + 2000)).toBe(1);
        expect(await store.sweepOrphans(clock.now() + 3000)).toBe(0);
        const rows = await store.admin.ledger({ tenantId: holder.tenant.id, limit: 10 });
        expect(rows).toHaveLength(1);
        expect(rows[0]).toMatchObject({
          attemptId: request.attemptId,
          requestId: request.requestId,
          attempt: 1,
          keyId: request.keyId,
          publicModel: 'model-a',
          targetRef: 'model-a#0',
          provider: 'simulator',
          priceVersion: 'prices-1',
          kind: 'orphaned',
          costMicros: 300,
          reservedMicros: 300,
          reservedTokens: 50,
          usedTokens: 50,
          currency: 'USD',
        });
        expect(await store.admin.limitUse(holder.tenant.id)).toMatchObject({ inFlight: 0, budgetSpentMicros: 300, budgetReservedMicros: 0 });
        expect((await store.admit(admission(holder))).kind).toBe('admitted');
      });

      it('two sweeps at once settle each expired reservation exactly once', async () => {
        const holder = { tenant: await tenant({}) };
        const requests = Array.from({ length: 5 }, () => admission(holder, { deadlineMs: clock.now() + 1000 }));
        await admitAll(requests);
        const counts = await Promise.all([store.sweepOrphans(clock.now() + 5000), store.sweepOrphans(clock.now() + 5000)]);
        expect(counts[0] + counts[1]).toBe(5);
        const rows = await store.admin.ledger({ tenantId: holder.tenant.id, limit: 100 });
        expect(rows.map((row) => row.attemptId).sort()).toEqual(requests.map((request) => request.attemptId).sort());
      });

      it('a late real settlement of a swept attempt is a duplicate that charges nothing more', async () => {
        const holder = { tenant: await tenant({ budget: { amountMicros: 1000, currency: 'USD', period: 'total' } }) };
        const request = admission(holder, { reservedMicros: 300, deadlineMs: clock.now() + 1000 });
        await store.admit(request);
        expect(await store.sweepOrphans(clock.now() + 2000)).toBe(1);
        expect(await store.settle(settlement(request, { costMicros: 100 }))).toEqual({ kind: 'duplicate' });
        const rows = await store.admin.ledger({ tenantId: holder.tenant.id, limit: 10 });
        expect(rows.map((row) => row.kind)).toEqual(['orphaned']);
        expect((await store.admin.limitUse(holder.tenant.id)).budgetSpentMicros).toBe(300);
      });

      it('frees, after the request deadline, a slot its instance never released', async () => {
        const holder = { tenant: await tenant({ concurrentRequests: 1 }) };
        const request = admission(holder, { deadlineMs: clock.now() + 1000 });
        await store.admit(request);
        await store.settle(settlement(request, { releaseSlot: false }));
        expect(await store.admit(admission(holder))).toMatchObject({ kind: 'refused', code: 'tenant-concurrency-limit' });
        expect(await store.sweepOrphans(clock.now() + 500)).toBe(0);
        expect(await store.admit(admission(holder))).toMatchObject({ kind: 'refused', code: 'tenant-concurrency-limit' });
        expect(await store.sweepOrphans(clock.now() + 2000)).toBe(0);
        expect((await store.admin.limitUse(holder.tenant.id)).inFlight).toBe(0);
        expect((await store.admit(admission(holder))).kind).toBe('admitted');
      });

      it('never sweeps a settled attempt', async () => {
        const holder = { tenant: await tenant({}) };
        const request = admission(holder, { deadlineMs: clock.now() + 1000 });
        await store.admit(request);
        await store.settle(settlement(request));
        expect(await store.sweepOrphans(clock.now() + 5000)).toBe(0);
        expect(await store.admin.ledger({ tenantId: holder.tenant.id, limit: 10 })).toHaveLength(1);
      });
    });

    describe('budget periods on the store clock', () => {
      it('a day budget starts again at 00:00 UTC, a month budget on the first of the month, a total budget never', async () => {
        clock.set(Date.UTC(2026, 3, 15, 23, 59, 0));
        const holders = {
          day: { tenant: await tenant({ budget: { amountMicros: 100, currency: 'USD', period: 'day' } }) },
          month: { tenant: await tenant({ budget: { amountMicros: 100, currency: 'USD', period: 'month' } }) },
          total: { tenant: await tenant({ budget: { amountMicros: 100, currency: 'USD', period: 'total' } }) },
        };
        const spendAll = async (): Promise<void> => {
          for (const holder of Object.values(holders)) {
            const request = admission(holder, { reservedMicros: 100 });
            if ((await store.admit(request)).kind === 'admitted') await store.settle(settlement(request, { costMicros: 100 }));
          }
        };
        const admits = async (): Promise<Record<string, boolean>> => {
          const answer: Record<string, boolean> = {};
          for (const [period, holder] of Object.entries(holders)) {
            const request = admission(holder, { reservedMicros: 1 });
            const result = await store.admit(request);
            answer[period] = result.kind === 'admitted';
            if (result.kind === 'admitted') await store.settle(settlement(request, { kind: 'released', costMicros: 0 }));
          }
          return answer;
        };
        await spendAll();
        expect(await admits()).toEqual({ day: false, month: false, total: false });
        clock.set(Date.UTC(2026, 3, 16, 0, 0, 1));
        expect(await admits()).toEqual({ day: true, month: false, total: false });
        await spendAll();
        expect(await admits()).toEqual({ day: false, month: false, total: false });
        clock.set(Date.UTC(2026, 4, 1, 0, 0, 1));
        expect(await admits()).toEqual({ day: true, month: true, total: false });
      });
    });

    describe('admin verbs', () => {
      it('every change bumps the version, answers the version it created, and is audited', async () => {
        const before = await store.currentVersion();
        const created = await store.admin.createTenant({ id: 'acme', name: 'Acme', modelAccess: ['gpt-*'], limits: {}, disabled: false }, 'alice');
        expect(created.version).toBe(before + 1);
        expect(created.value).toMatchObject({ id: 'acme', createdAtMs: clock.now() });
        const updated = await store.admin.updateTenant('acme', { limits: { requestsPerMinute: 5 } }, 'alice');
        expect(updated?.version).toBe(before + 2);
        expect(updated?.value.limits).toEqual({ requestsPerMinute: 5 });
        const keyCreated = await store.admin.createKey({ id: 'k1', tenantId: 'acme', digest: 'ab'.repeat(32), displayPrefix: 'tf-abcd' }, 'bob');
        expect(keyCreated.version).toBe(before + 3);
        const keyUpdated = await store.admin.updateKey('k1', { modelAccess: ['gpt-4o'] }, 'bob');
        expect(keyUpdated?.version).toBe(before + 4);
        const revoked = await store.admin.revokeKey('k1', 'bob');
        expect(revoked?.version).toBe(before + 5);
        expect(revoked?.value.revokedAtMs).toBe(clock.now());
        expect(await store.currentVersion()).toBe(before + 5);
        const audit = await store.admin.audit(10);
        expect(audit.map((entry) => [entry.version, entry.actor, entry.action, entry.subject])).toEqual([
          [before + 5, 'bob', 'key.revoke', 'k1'],
          [before + 4, 'bob', 'key.update', 'k1'],
          [before + 3, 'bob', 'key.create', 'k1'],
          [before + 2, 'alice', 'tenant.update', 'acme'],
          [before + 1, 'alice', 'tenant.create', 'acme'],
        ]);
        expect(audit[3]?.detail).toMatchObject({ limits: { requestsPerMinute: 5 } });
        expect(JSON.stringify(audit)).not.toContain('ab'.repeat(32));
        expect((await store.admin.audit(2)).map((entry) => entry.version)).toEqual([before + 5, before + 4]);
      });

      it('a revoked key shows as revoked in the next snapshot, which names the current version', async () => {
        const owner = await tenant({ requestsPerMinute: 3 });
        const revokedKey = await key(owner.id);
        const keptKey = await key(owner.id);
        const first = await store.loadSnapshot();
        expect(first.version).toBe(await store.currentVersion());
        expect(first.keys.find((record) => record.id === revokedKey.id)?.revokedAtMs).toBeUndefined();
        await store.admin.revokeKey(revokedKey.id, 'admin');
        const next = await store.loadSnapshot();
        expect(next.version).toBe(first.version + 1);
        expect(next.tenants.find((record) => record.id === owner.id)).toEqual(owner);
        expect(next.keys.find((record) => record.id === revokedKey.id)?.revokedAtMs).toBe(clock.now());
        expect(next.keys.find((record) => record.id === keptKey.id)).toEqual(keptKey);
      });

      it('a change to an unknown id answers undefined and changes nothing', async () => {
        const before = await store.currentVersion();
        expect(await store.admin.updateTenant('nobody', { name: 'x' }, 'admin')).toBeUndefined();
        expect(await store.admin.updateKey('nothing', { expiresAtMs: 1 }, 'admin')).toBeUndefined();
        expect(await store.admin.revokeKey('nothing', 'admin')).toBeUndefined();
        expect(await store.currentVersion()).toBe(before);
        expect(await store.admin.audit(10)).toHaveLength(0);
      });

      it('refuses a tenant or key id that exists, or a key of an unknown tenant, with a typed error, changing nothing', async () => {
        await store.admin.createTenant({ id: 'acme', name: 'Acme', modelAccess: [], limits: {}, disabled: false }, 'admin');
        await store.admin.createKey({ id: 'k1', tenantId: 'acme', digest: 'ab'.repeat(32), displayPrefix: 'tf-abcd' }, 'admin');
        const version = await store.currentVersion();
        const refusal = async (attempt: Promise<unknown>): Promise<string | undefined> => {
          const error = await attempt.then(() => undefined, (caught: unknown) => caught);
          return isGovernanceStoreErrorV1(error) ? error.code : undefined;
        };
        expect(await refusal(store.admin.createTenant({ id: 'acme', name: 'Other', modelAccess: [], limits: {}, disabled: false }, 'admin'))).toBe('conflict');
        expect(await refusal(store.admin.createKey({ id: 'k1', tenantId: 'acme', digest: 'cd'.repeat(32), displayPrefix: 'tf-cdcd' }, 'admin'))).toBe('conflict');
        expect(await refusal(store.admin.createKey({ id: 'k2', tenantId: 'nobody', digest: 'ef'.repeat(32), displayPrefix: 'tf-efef' }, 'admin'))).toBe('not-found');
        expect(await store.currentVersion()).toBe(version);
        expect((await store.admin.listTenants()).map((record) => record.name)).toEqual(['Acme']);
        expect((await store.admin.listKeys()).map((record) => record.digest)).toEqual(['ab'.repeat(32)]);
      });

      it('lists tenants, and keys of all tenants or of one', async () => {
        const first = await tenant({});
        const second = await tenant({ concurrentRequests: 2 }, { disabled: true, modelAccess: ['a', 'b-*'] });
        const firstKey = await key(first.id, { tokensPerMinute: 10 });
        const secondKey = await key(second.id);
        expect([...(await store.admin.listTenants())].sort((a, b) => a.id.localeCompare(b.id))).toEqual([first, second]);
        expect((await store.admin.listKeys()).map((record) => record.id).sort()).toEqual([firstKey.id, secondKey.id].sort());
        expect(await store.admin.listKeys(first.id)).toEqual([firstKey]);
      });
    });

    describe('spend and ledger', () => {
      async function settleRow(
        holder: { tenant: TenantRecordV1; key?: ClientKeyRecordV1 },
        model: string,
        day: number,
        costMicros: number,
      ): Promise<void> {
        const request = admission(holder, { publicModel: model, targetRef: `${model}#0` });
        await store.admit(request);
        await store.settle(
          settlement(request, {
            costMicros,
            usage: { inputTokens: costMicros * 2, outputTokens: costMicros },
            settledAtMs: Date.UTC(2026, 3, day, 10, 0, sequence % 60),
          }),
        );
      }

      function sorted(groups: readonly SpendGroupV1[]): SpendGroupV1[] {
        return [...groups].sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)));
      }

      it('groups spend by tenant, key, model and day, within the asked days', async () => {
        const acme = await tenant({});
        const globex = await tenant({});
        const acmeOne = { tenant: acme, key: await key(acme.id) };
        const acmeTwo = { tenant: acme, key: await key(acme.id) };
        const globexOne = { tenant: globex, key: await key(globex.id) };
        await settleRow(acmeOne, 'model-a', 10, 10);
        await settleRow(acmeOne, 'model-b', 10, 20);
        await settleRow(acmeTwo, 'model-a', 11, 40);
        await settleRow(globexOne, 'model-a', 11, 80);
        await settleRow(globexOne, 'model-a', 12, 160);

        const byTenant = await store.admin.spend({ groupBy: ['tenant'] });
        expect(sorted(byTenant)).toEqual(
          sorted([
            { tenantId: acme.id, currency: 'USD', costMicros: 70, attempts: 3, inputTokens: 140, outputTokens: 70 },
            { tenantId: globex.id, currency: 'USD', costMicros: 240, attempts: 2, inputTokens: 480, outputTokens: 240 },
          ]),
        );
        expect(sorted(await store.admin.spend({ tenantId: acme.id, groupBy: ['key'] }))).toEqual(
          sorted([
            { keyId: acmeOne.key.id, currency: 'USD', costMicros: 30, attempts: 2, inputTokens: 60, outputTokens: 30 },
            { keyId: acmeTwo.key.id, currency: 'USD', costMicros: 40, attempts: 1, inputTokens: 80, outputTokens: 40 },
          ]),
        );
        expect(sorted(await store.admin.spend({ groupBy: ['model', 'day'], fromDay: '2026-04-11', toDay: '2026-04-11' }))).toEqual([
          { publicModel: 'model-a', day: '2026-04-11', currency: 'USD', costMicros: 120, attempts: 2, inputTokens: 240, outputTokens: 120 },
        ]);
        expect(sorted(await store.admin.spend({ publicModel: 'model-a', groupBy: ['day'], fromDay: '2026-04-11' }))).toEqual([
          { day: '2026-04-11', currency: 'USD', costMicros: 120, attempts: 2, inputTokens: 240, outputTokens: 120 },
          { day: '2026-04-12', currency: 'USD', costMicros: 160, attempts: 1, inputTokens: 320, outputTokens: 160 },
        ]);
        expect(await store.admin.spend({ keyId: globexOne.key.id, groupBy: [] })).toEqual([
          { currency: 'USD', costMicros: 240, attempts: 2, inputTokens: 480, outputTokens: 240 },
        ]);
      });

      it('reads the ledger by tenant and by key, newest first, up to the limit', async () => {
        const acme = await tenant({});
        const one = { tenant: acme, key: await key(acme.id) };
        const two = { tenant: acme, key: await key(acme.id) };
        const other = { tenant: await tenant({}) };
        await settleRow(one, 'model-a', 10, 1);
        await settleRow(two, 'model-a', 11, 2);
        await settleRow(one, 'model-a', 12, 3);
        await settleRow(other, 'model-a', 13, 4);
        expect((await store.admin.ledger({ tenantId: acme.id, limit: 10 })).map((row) => row.costMicros)).toEqual([3, 2, 1]);
        expect((await store.admin.ledger({ keyId: one.key.id, limit: 10 })).map((row) => row.costMicros)).toEqual([3, 1]);
        expect((await store.admin.ledger({ tenantId: acme.id, limit: 2 })).map((row) => row.day)).toEqual(['2026-04-12', '2026-04-11']);
        expect((await store.admin.ledger({ limit: 1 })).map((row) => row.tenantId)).toEqual([other.tenant.id]);
      });
    });

    describe('request records and tracked jobs', () => {
      it('request records round trip with their attempts (target, family, outcome, diagnostic, timings), newest first, by tenant', async () => {
        const ATTEMPTS = [
          {
            attempt: 1,
            targetRef: 'model-a#0',
            provider: 'simulator',
            family: 'openai-chat/v1',
            outcome: 'overloaded',
            diagnostic: 'retry after 1500 ms',
            startedAtMs: clock.now() - 1100,
            durationMs: 40,
          },
          { attempt: 2, targetRef: 'model-a#1', provider: 'other', family: 'anthropic-messages/v1', outcome: 'ok', startedAtMs: clock.now() - 1060, timeToFirstByteMs: 30, durationMs: 55 },
        ];
        const base = { route: '/v1/chat/completions', status: 200, outcome: 'completed', totalMs: 12, attempts: [] } as const;
        store.recordRequest({ ...base, requestId: 'r1', tenantId: 'acme', keyId: 'k1', publicModel: 'model-a', atMs: clock.now() - 2000 });
        store.recordRequest({
          ...base,
          requestId: 'r2',
          tenantId: 'acme',
          status: 429,
          outcome: 'refused:tenant-rate-limit',
          attempts: ATTEMPTS,
          timeToFirstByteMs: 5,
          atMs: clock.now() - 1000,
        });
        store.recordRequest({ ...base, requestId: 'r3', tenantId: 'globex', atMs: clock.now() });
        store.recordRequest({ ...base, requestId: 'r4', status: 401, outcome: 'refused:unauthenticated', atMs: clock.now() });
        const acme = await store.admin.requests({ tenantId: 'acme', limit: 10 });
        expect(acme.map((record) => record.requestId)).toEqual(['r2', 'r1']);
        expect(acme[0]).toEqual({
          ...base,
          requestId: 'r2',
          tenantId: 'acme',
          status: 429,
          outcome: 'refused:tenant-rate-limit',
          attempts: ATTEMPTS,
          timeToFirstByteMs: 5,
          atMs: clock.now() - 1000,
        });
        expect((await store.admin.requests({ limit: 10 })).map((record) => record.requestId).sort()).toEqual(['r1', 'r2', 'r3', 'r4']);
        expect(await store.admin.request('r2')).toEqual(acme[0]);
        expect(await store.admin.request('unknown')).toBeUndefined();
        store.recordRequest({ ...base, requestId: 'r5', atMs: clock.now() });
        expect((await store.admin.request('r5'))?.requestId).toBe('r5');
        expect(await store.admin.requests({ limit: 1 })).toHaveLength(1);
      });

      it('tracked jobs round trip: found only by their tenant, newest first, replaced when recorded again', async () => {
        const job = {
          tenantId: 'acme',
          keyId: 'k1',
          publicModel: 'video-a',
          targetRef: 'video-a#0',
          providerJobId: 'job-1',
          idempotencyKey: 'acme:abc',
          attemptId: 'r1:1',
          reservedMicros: 5_000_000,
          currency: 'USD',
          createdAtMs: clock.now() - 1000,
          state: 'queued',
        };
        await store.recordJob(job);
        const { idempotencyKey: _idempotencyKey, ...withoutKey } = job;
        await store.recordJob({ ...withoutKey, providerJobId: 'job-2', attemptId: 'r2:1', createdAtMs: clock.now() });
        await store.recordJob({ ...job, targetRef: 'video-a#1', providerJobId: 'job-3', attemptId: 'r3:1', createdAtMs: clock.now() + 1 });
        await store.recordJob({ ...job, tenantId: 'globex', providerJobId: 'job-4', attemptId: 'r4:1' });
        expect(await store.findJob('acme', 'video-a#0', 'job-1')).toEqual(job);
        expect(await store.findJob('globex', 'video-a#0', 'job-1')).toBeUndefined();
        expect(await store.findJob('acme', 'video-a#1', 'job-1')).toBeUndefined();
        expect((await store.listJobs('acme', { limit: 10 })).map((entry) => entry.providerJobId)).toEqual(['job-3', 'job-2', 'job-1']);
        expect((await store.listJobs('acme', { targetRef: 'video-a#0', limit: 10 })).map((entry) => entry.providerJobId)).toEqual(['job-2', 'job-1']);
        expect(await store.listJobs('acme', { limit: 1 })).toHaveLength(1);
        const settled = { ...job, state: 'succeeded', settledAtMs: clock.now() };
        await store.recordJob(settled);
        expect(await store.findJob('acme', 'video-a#0', 'job-1')).toEqual(settled);
        expect(await store.listJobs('acme', { limit: 10 })).toHaveLength(3);
      });
      it('console sessions: found until they expire on the store clock, gone once deleted, one per id', async () => {
        const session = { id: 'a'.repeat(64), csrfToken: 'csrf-1', createdAtMs: clock.now(), expiresAtMs: clock.now() + 10 * MINUTE };
        await store.createSession(session);
        await store.createSession({ ...session, id: 'b'.repeat(64), csrfToken: 'csrf-2' });
        expect(await store.findSession('a'.repeat(64))).toEqual(session);
        expect(await store.findSession('c'.repeat(64))).toBeUndefined();
        clock.set(session.expiresAtMs - 1);
        expect((await store.findSession('b'.repeat(64)))?.csrfToken).toBe('csrf-2');
        await store.deleteSession('b'.repeat(64));
        await store.deleteSession('never-created');
        expect(await store.findSession('b'.repeat(64))).toBeUndefined();
        expect(await store.findSession('a'.repeat(64))).toEqual(session);
        clock.set(session.expiresAtMs);
        expect(await store.findSession('a'.repeat(64))).toBeUndefined();
      });

      it('failed sign-ins: counted per address on the store clock, the wait until the oldest counted one leaves the window, cleared by a success', async () => {
        const policy = { failuresAllowed: 3, windowMs: 10 * MINUTE };
        const start = clock.now();
        expect(await store.signInRetryAfterMs('198.51.100.7', policy)).toBe(0);
        expect(await store.recordSignInFailure('198.51.100.7', policy)).toBe(0);
        clock.set(start + MINUTE);
        expect(await store.recordSignInFailure('198.51.100.7', policy)).toBe(0);
        clock.set(start + 2 * MINUTE);
        expect(await store.recordSignInFailure('198.51.100.7', policy)).toBe(8 * MINUTE);
        expect(await store.signInRetryAfterMs('198.51.100.7', policy)).toBe(8 * MINUTE);
        expect(await store.signInRetryAfterMs('2001:db8::1', policy)).toBe(0);
        clock.set(start + 10 * MINUTE - 1);
        expect(await store.signInRetryAfterMs('198.51.100.7', policy)).toBe(1);
        clock.set(start + 10 * MINUTE);
        expect(await store.signInRetryAfterMs('198.51.100.7', policy)).toBe(0);
        expect(await store.recordSignInFailure('198.51.100.7', policy)).toBe(MINUTE);
        await store.clearSignInFailures('198.51.100.7');
        expect(await store.signInRetryAfterMs('198.51.100.7', policy)).toBe(0);
        await store.clearSignInFailures('never-failed');
      });

      it('lists a tenant\'s jobs filtered by state, model and creation time', async () => {
        const base = { tenantId: 'acme', keyId: 'k1', targetRef: 'video-a#0', reservedMicros: 1, currency: 'USD' };
        await store.recordJob({ ...base, publicModel: 'video-a', providerJobId: 'a', attemptId: 'a:1', createdAtMs: 1000, state: 'running' });
        await store.recordJob({ ...base, publicModel: 'video-a', providerJobId: 'b', attemptId: 'b:1', createdAtMs: 2000, state: 'succeeded' });
        await store.recordJob({ ...base, publicModel: 'video-b', targetRef: 'video-b#0', providerJobId: 'c', attemptId: 'c:1', createdAtMs: 3000, state: 'running' });
        await store.recordJob({ ...base, tenantId: 'globex', publicModel: 'video-a', providerJobId: 'd', attemptId: 'd:1', createdAtMs: 3000, state: 'running' });
        const ids = async (query: Omit<TrackedJobQueryV1, 'limit'>) => (await store.listJobs('acme', { ...query, limit: 10 })).map((job) => job.providerJobId);
        expect(await ids({ state: 'running' })).toEqual(['c', 'a']);
        expect(await ids({ publicModel: 'video-a' })).toEqual(['b', 'a']);
        expect(await ids({ createdFromMs: 2000 })).toEqual(['c', 'b']);
        expect(await ids({ createdBeforeMs: 2000 })).toEqual(['a']);
        expect(await ids({ state: 'running', publicModel: 'video-a', createdFromMs: 1000, createdBeforeMs: 3000 })).toEqual(['a']);
      });

      it('pages a tenant\'s jobs after the last one seen, ties at one instant included, each job once', async () => {
        const base = { tenantId: 'acme', keyId: 'k1', publicModel: 'video-a', reservedMicros: 1, currency: 'USD', state: 'running' };
        const recorded = ['p1', 'p2', 'p3', 'p4', 'p5'].map((id, index) => ({ ...base, targetRef: index % 2 === 0 ? 'video-a#0' : 'video-a#1', providerJobId: id, attemptId: `${id}:1`, createdAtMs: index < 4 ? 5000 : 4000 }));
        for (const job of recorded) await store.recordJob(job);
        const seen: string[] = [];
        let after: TrackedJobQueryV1['after'];
        for (let page = 0; page < 5; page += 1) {
          const jobs = await store.listJobs('acme', { limit: 2, ...(after === undefined ? {} : { after }) });
          seen.push(...jobs.map((job) => job.providerJobId));
          const last = jobs.at(-1);
          if (last === undefined) break;
          after = { createdAtMs: last.createdAtMs, targetRef: last.targetRef, providerJobId: last.providerJobId };
        }
        expect(seen).toEqual(['p4', 'p2', 'p3', 'p1', 'p5']);
      });
    });

    describe('tracked job leases', () => {
      const LEASE_MS = 30_000;
      let sequence = 0;
      function dueJob(overrides: Partial<TrackedJobV1> = {}): TrackedJobV1 {
        sequence += 1;
        return {
          tenantId: 'acme',
          keyId: 'k1',
          publicModel: 'video-a',
          targetRef: 'video-a#0',
          providerJobId: `lease-${sequence}`,
          attemptId: `lease-${sequence}:1`,
          reservedMicros: 100,
          currency: 'USD',
          createdAtMs: clock.now() - 10_000,
          state: 'queued',
          nextPollAtMs: clock.now() - 1000 + sequence,
          pollAttempts: 0,
          ...overrides,
        };
      }
      const ids = (jobs: readonly TrackedJobV1[]) => jobs.map((job) => job.providerJobId);

      it('claims only due jobs, oldest due first, and never a job nobody polls', async () => {
        const later = dueJob({ nextPollAtMs: clock.now() + 5000 });
        const unpolled = dueJob();
        const { nextPollAtMs: _never, ...withoutPoll } = unpolled;
        const first = dueJob({ nextPollAtMs: clock.now() - 5000 });
        const second = dueJob({ nextPollAtMs: clock.now() - 10 });
        for (const job of [later, withoutPoll, second, first]) await store.recordJob(job);
        const claimed = await store.claimDueJobs({ owner: 'a', leaseMs: LEASE_MS, limit: 10 });
        expect(ids(claimed)).toEqual([first.providerJobId, second.providerJobId]);
        expect(claimed[0]).toEqual(first);
        clock.advance(5000);
        expect(ids(await store.claimDueJobs({ owner: 'a', leaseMs: LEASE_MS, limit: 10 }))).toEqual([later.providerJobId]);
      });

      it('two claimers at once never get the same job', async () => {
        const jobs = Array.from({ length: 40 }, () => dueJob());
        for (const job of jobs) await store.recordJob(job);
        const rounds = await Promise.all(['a', 'b', 'c', 'd'].map((owner) => store.claimDueJobs({ owner, leaseMs: LEASE_MS, limit: 15 })));
        const rest = await store.claimDueJobs({ owner: 'e', leaseMs: LEASE_MS, limit: 40 });
        const all = [...rounds.flatMap(ids), ...ids(rest)];
        expect(all).toHaveLength(40);
        expect(new Set(all).size).toBe(40);
        expect(await store.claimDueJobs({ owner: 'f', leaseMs: LEASE_MS, limit: 40 })).toEqual([]);
      });

      it('a lease that expired (its holder died) is claimable again, and the late holder\'s observation is refused', async () => {
        const job = dueJob();
        await store.recordJob(job);
        expect(ids(await store.claimDueJobs({ owner: 'dead', leaseMs: LEASE_MS, limit: 5 }))).toEqual([job.providerJobId]);
        clock.advance(LEASE_MS - 1);
        expect(await store.claimDueJobs({ owner: 'alive', leaseMs: LEASE_MS, limit: 5 })).toEqual([]);
        clock.advance(1);
        expect(ids(await store.claimDueJobs({ owner: 'alive', leaseMs: LEASE_MS, limit: 5 }))).toEqual([job.providerJobId]);
        const seen = { ...job, state: 'running', observedAtMs: clock.now(), nextPollAtMs: clock.now() + 1000, pollAttempts: 1 };
        expect(await store.observeJob({ ...seen, owner: 'dead' })).toBe('lease-lost');
        expect(await store.observeJob({ ...seen, owner: 'alive' })).toBe('recorded');
        expect(await store.observeJob({ ...seen, providerJobId: 'no-such-job', owner: 'alive' })).toBe('not-found');
      });

      it('extends and releases leases only for their holder', async () => {
        const one = dueJob();
        const two = dueJob();
        await store.recordJob(one);
        await store.recordJob(two);
        await store.claimDueJobs({ owner: 'a', leaseMs: LEASE_MS, limit: 5 });
        expect(await store.extendJobLeases('b', [one, two], LEASE_MS)).toBe(0);
        clock.advance(LEASE_MS - 1);
        expect(await store.extendJobLeases('a', [one], LEASE_MS)).toBe(1);
        clock.advance(1);
        expect(ids(await store.claimDueJobs({ owner: 'b', leaseMs: LEASE_MS, limit: 5 }))).toEqual([two.providerJobId]);
        expect(await store.releaseJobLeases('b', [one])).toBe(0);
        expect(await store.releaseJobLeases('a', [one])).toBe(1);
        expect(ids(await store.claimDueJobs({ owner: 'b', leaseMs: LEASE_MS, limit: 5 }))).toEqual([one.providerJobId]);
        expect(await store.releaseJobLeases('b')).toBe(2);
        expect(ids(await store.claimDueJobs({ owner: 'c', leaseMs: LEASE_MS, limit: 5 }))).toHaveLength(2);
      });

      it('observations round trip, release the lease, and never clear terminal facts or the settlement', async () => {
        const job = dueJob({ callbackUrl: 'https://hooks.example.com/jobs' });
        await store.recordJob(job);
        await store.claimDueJobs({ owner: 'a', leaseMs: LEASE_MS, limit: 5 });
        const running = { ...job, owner: 'a', state: 'running', progress: 0.25, observedAtMs: clock.now(), nextPollAtMs: clock.now() + 2000, pollAttempts: 1 };
        expect(await store.observeJob(running)).toBe('recorded');
        expect(await store.findJob(job.tenantId, job.targetRef, job.providerJobId)).toEqual({
          ...job,
          state: 'running',
          progress: 0.25,
          lastObservedAtMs: clock.now(),
          nextPollAtMs: clock.now() + 2000,
          pollAttempts: 1,
        });
        clock.advance(2000);
        expect(ids(await store.claimDueJobs({ owner: 'b', leaseMs: LEASE_MS, limit: 5 }))).toEqual([job.providerJobId]);
        // A client's read (no owner) records what it saw without taking the poller's lease away.
        const { owner: _owner, ...clientRead } = { ...running, observedAtMs: clock.now(), pollAttempts: 2, nextPollAtMs: clock.now() + 1000 };
        expect(await store.observeJob(clientRead)).toBe('recorded');
        clock.advance(1000);
        expect(await store.claimDueJobs({ owner: 'c', leaseMs: LEASE_MS, limit: 5 })).toEqual([]);
        const terminal = {
          finishedAtMs: clock.now() - 500,
          media: [{ type: 'video' as const, url: 'https://cdn.example.com/v.mp4', durationSeconds: 5, expiresAtMs: clock.now() + 86_400_000 }],
          usage: { outputTokens: 0 },
        };
        const { nextPollAtMs: _stop, ...succeeded } = { ...running, owner: 'b', state: 'succeeded', progress: 1, observedAtMs: clock.now(), pollAttempts: 3, terminal, settledAtMs: clock.now() };
        expect(await store.observeJob(succeeded)).toBe('recorded');
        const { nextPollAtMs: _gone, ...rest } = job;
        const expected = { ...rest, state: 'succeeded', progress: 1, lastObservedAtMs: clock.now(), pollAttempts: 3, terminal, settledAtMs: clock.now() };
        expect(await store.findJob(job.tenantId, job.targetRef, job.providerJobId)).toEqual(expected);
        clock.advance(10);
        const { terminal: _t, settledAtMs: _s, owner: _o, ...late } = { ...succeeded, observedAtMs: clock.now(), pollAttempts: 4, terminal: { finishedAtMs: 1 } };
        expect(await store.observeJob(late)).toBe('recorded');
        expect(await store.findJob(job.tenantId, job.targetRef, job.providerJobId)).toEqual({ ...expected, lastObservedAtMs: clock.now(), pollAttempts: 4 });
        clock.advance(LEASE_MS * 10);
        expect(await store.claimDueJobs({ owner: 'c', leaseMs: LEASE_MS, limit: 5 })).toEqual([]);
      });

      it('keeps the newest delivery attempts in order', async () => {
        const job = dueJob();
        await store.recordJob(job);
        for (let attempt = 1; attempt <= JOB_DELIVERY_LOG_LIMIT_V1 + 5; attempt += 1) {
          await store.appendJobDelivery(job, { eventId: 'evt-1', state: 'succeeded', attempt, atMs: clock.now() + attempt, outcome: 'failed', status: 503 });
        }
        const found = await store.findJob(job.tenantId, job.targetRef, job.providerJobId);
        expect(found?.deliveries?.map((delivery) => delivery.attempt)).toEqual(Array.from({ length: JOB_DELIVERY_LOG_LIMIT_V1 }, (_, index) => index + 6));
        expect(found?.deliveries?.[0]).toEqual({ eventId: 'evt-1', state: 'succeeded', attempt: 6, atMs: clock.now() + 6, outcome: 'failed', status: 503 });
      });
    });
  });
}
