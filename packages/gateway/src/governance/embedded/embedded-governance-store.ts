import { join } from 'node:path';
import { budgetPeriodEndMsV1, budgetPeriodKeyV1, budgetPeriodKeysV1 } from '../v1/budget-period-v1.js';
import { GovernanceStoreErrorV1 } from '../v1/governance-store-error-v1.js';
import { SignInFailureLog } from './sign-in-failure-log.js';
import type {
  AdmissionRequestV1,
  AdmissionResultV1,
  AuditEntryV1,
  ClientKeyRecordV1,
  ConsoleSessionV1,
  GovernanceAdminV1,
  GovernanceChangeV1,
  GovernanceLimitsV1,
  GovernanceRefusalCodeV1,
  GovernanceSnapshotV1,
  GovernanceStoreV1,
  LedgerRowV1,
  LimitStatesV1,
  LimitStateV1,
  LimitUseV1,
  RequestRecordV1,
  SettlementV1,
  SettleResultV1,
  SignInThrottlePolicyV1,
  TenantRecordV1,
  TrackedJobClaimV1,
  TrackedJobDeliveryV1,
  TrackedJobKeyV1,
  TrackedJobObservationV1,
  TrackedJobQueryV1,
  TrackedJobV1,
} from '../v1/governance-store-v1.js';
import { reservationFactsV1 } from '../v1/reservation-facts-v1.js';
import {
  type GovernanceDataDirectorySecrets,
  GOVERNANCE_DATA_FILES,
  lockGovernanceDataDirectory,
  prepareGovernanceDataDirectory,
} from './governance-data-directory.js';
import { GovernanceDatabase, type QueuedLedgerWrite, type SpendDelta } from './governance-database.js';
import { LimitHolder } from './limit-holder.js';

/** Options of {@link openEmbeddedGovernanceStore}. */
export interface EmbeddedGovernanceStoreOptions {
  /** The data directory: the SQLite file, the key-hashing secret and the admin key live here. */
  readonly dataDirectory: string;
  /** The store clock (epoch milliseconds); default `Date.now`. Tests inject one. */
  readonly clock?: () => number;
  /** How long request records are kept; default 7 days. The ledger is kept for ever. */
  readonly requestRetentionMs?: number;
  /** Queued ledger rows and request records are written at most this long after they were queued; default 200 ms. */
  readonly flushIntervalMs?: number;
  /** A batch is written as soon as this many ledger rows wait; default 500. */
  readonly flushBatchRows?: number;
  /**
   * While this many ledger rows wait unwritten (the disk refuses them), `admit` answers `unavailable`: new requests
   * are refused rather than money left unrecorded. Default 10,000.
   */
  readonly maxQueuedLedgerRows?: number;
  /** Called when a batch could not be written; it is kept and tried again at the next interval. */
  readonly onWriteError?: (error: unknown) => void;
}

/** The embedded governance store, with the secrets of its data directory. */
export interface EmbeddedGovernanceStore extends GovernanceStoreV1 {
  readonly secrets: GovernanceDataDirectorySecrets;
  /** Writes what is queued now (reads and `close` do it themselves). */
  flush(): void;
}

interface HeldReservation {
  readonly request: AdmissionRequestV1;
  readonly admittedAtMs: number;
  /** Sequence numbers of the reservation's entries in the tenant and key token windows, where kept. */
  readonly tokenEntries: readonly [number | undefined, number | undefined];
}

interface HeldSlot {
  readonly tenantId: string;
  readonly keyId: string;
  deadlineMs: number;
  readonly attempts: Set<string>;
}

type Refusal = Extract<AdmissionResultV1, { kind: 'refused' }>;

const DAY_MS = 86_400_000;

/**
 * Opens the embedded governance store: one process, nothing to install or run beside the gateway.
 *
 * Counters live in memory and admission is synchronous: the checks and the increments of one `admit` run with no
 * `await` between them, so concurrent requests of one process can never overshoot a limit. Request and token limits
 * are sliding window logs over the last minute of the store clock (exact; see `SlidingWindowLog`).
 *
 * Durable state is one SQLite database (better-sqlite3) in the data directory. Admin changes and tracked jobs are
 * written before their call answers. Ledger rows, spend totals, open reservations and request records are queued and
 * written in one transaction per batch, off the request path (`settle` never waits for the disk), and on `close`. A
 * ledger row is written once per attempt id (its primary key). At start the spend of the current periods is read
 * back, and reservations a killed process left open are settled as `orphaned` rows.
 */
export function openEmbeddedGovernanceStore(options: EmbeddedGovernanceStoreOptions): EmbeddedGovernanceStore {
  const secrets = prepareGovernanceDataDirectory(options.dataDirectory);
  const release = lockGovernanceDataDirectory(options.dataDirectory);
  try {
    const database = new GovernanceDatabase(join(options.dataDirectory, GOVERNANCE_DATA_FILES.database));
    return new EmbeddedStore(database, secrets, release, options);
  } catch (error) {
    release();
    throw error;
  }
}

function withoutUndefined<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, entry]) => entry !== undefined)) as T;
}

class EmbeddedStore implements EmbeddedGovernanceStore {
  readonly secrets: GovernanceDataDirectorySecrets;
  readonly admin: GovernanceAdminV1;
  readonly #database: GovernanceDatabase;
  readonly #release: () => void;
  readonly #clock: () => number;
  readonly #retentionMs: number;
  readonly #flushIntervalMs: number;
  readonly #flushBatchRows: number;
  readonly #maxQueuedLedgerRows: number;
  readonly #onWriteError: (error: unknown) => void;

  #version: number;
  readonly #tenants = new Map<string, TenantRecordV1>();
  readonly #keys = new Map<string, ClientKeyRecordV1>();
  readonly #signInFailures = new SignInFailureLog();
  readonly #holders = new Map<string, LimitHolder>();
  readonly #reservations = new Map<string, HeldReservation>();
  readonly #slots = new Map<string, HeldSlot>();

  #queuedLedger: QueuedLedgerWrite[] = [];
  readonly #queuedAttemptIds = new Set<string>();
  #queuedOpened: AdmissionRequestV1[] = [];
  #queuedClosed: string[] = [];
  #queuedRequests: RequestRecordV1[] = [];
  #lastPruneMs = Number.NEGATIVE_INFINITY;
  #timer: NodeJS.Timeout | undefined;
  #timerSoon = false;
  #closed = false;

  constructor(database: GovernanceDatabase, secrets: GovernanceDataDirectorySecrets, release: () => void, options: EmbeddedGovernanceStoreOptions) {
    this.#database = database;
    this.#release = release;
    this.secrets = secrets;
    this.#clock = options.clock ?? Date.now;
    this.#retentionMs = options.requestRetentionMs ?? 7 * DAY_MS;
    this.#flushIntervalMs = options.flushIntervalMs ?? 200;
    this.#flushBatchRows = options.flushBatchRows ?? 500;
    this.#maxQueuedLedgerRows = options.maxQueuedLedgerRows ?? 10_000;
    this.#onWriteError = options.onWriteError ?? (() => undefined);
    this.#version = database.version();
    for (const tenant of database.tenants()) this.#tenants.set(tenant.id, tenant);
    for (const key of database.keys()) this.#keys.set(key.id, key);
    const now = this.#clock();
    const [total, day, month] = budgetPeriodKeysV1(now) as [string, string, string];
    for (const entry of database.spendOfPeriods([total, day, month])) this.#holder(entry.holder).addSpent(entry.period, entry.currency, entry.micros);
    for (const request of database.openReservations()) {
      if (database.hasLedgerRow(request.attemptId)) this.#queuedClosed.push(request.attemptId);
      else this.#record(this.#orphanedSettlement(request, now, now), undefined, now);
    }
    this.flush();
    this.admin = this.#createAdmin();
  }

  #holder(id: string): LimitHolder {
    let holder = this.#holders.get(id);
    if (holder === undefined) {
      holder = new LimitHolder();
      this.#holders.set(id, holder);
    }
    return holder;
  }

  #holdersOf(tenantId: string, keyId: string): readonly [LimitHolder, LimitHolder] {
    return [this.#holder(`tenant:${tenantId}`), this.#holder(`key:${keyId}`)];
  }

  loadSnapshot(): Promise<GovernanceSnapshotV1> {
    return Promise.resolve({ version: this.#version, tenants: [...this.#tenants.values()], keys: [...this.#keys.values()] });
  }

  currentVersion(): Promise<number> {
    return Promise.resolve(this.#version);
  }

  admit(request: AdmissionRequestV1): Promise<AdmissionResultV1> {
    if (this.#closed || this.#queuedLedger.length >= this.#maxQueuedLedgerRows) return Promise.resolve({ kind: 'unavailable' });
    const now = this.#clock();
    const holders = this.#holdersOf(request.tenantId, request.keyId);
    const scoped = [
      ['tenant', holders[0], request.tenantLimits],
      ['key', holders[1], request.keyLimits],
    ] as const;
    if (!this.#reservations.has(request.attemptId)) {
      for (const [scope, holder, limits] of scoped) {
        const refusal = limits === undefined ? undefined : this.#check(holder, limits, request, now);
        if (refusal !== undefined) {
          return Promise.resolve({ kind: 'refused', scope, ...refusal, limits: this.#limitStates(scoped, now) });
        }
      }
      // Windows are kept only where a limit applies: their memory is then bounded by the limits the operator set.
      for (const [, holder, limits] of scoped) {
        if (request.firstAttempt) {
          if (limits?.requestsPerMinute !== undefined) holder.requests.add(now, 1);
          holder.inFlight += 1;
        }
        holder.addReserved(request.currency, request.reservedMicros);
      }
      const tokenEntry = (index: 0 | 1, limits: GovernanceLimitsV1 | undefined) =>
        limits?.tokensPerMinute === undefined ? undefined : holders[index].tokens.add(now, request.reservedTokens);
      const tokenEntries = [tokenEntry(0, request.tenantLimits), tokenEntry(1, request.keyLimits)] as const;
      this.#reservations.set(request.attemptId, { request, admittedAtMs: now, tokenEntries });
      const slot = this.#slots.get(request.requestId);
      if (request.firstAttempt && slot === undefined) {
        this.#slots.set(request.requestId, { tenantId: request.tenantId, keyId: request.keyId, deadlineMs: request.deadlineMs, attempts: new Set([request.attemptId]) });
      } else if (slot !== undefined) {
        slot.deadlineMs = Math.max(slot.deadlineMs, request.deadlineMs);
        slot.attempts.add(request.attemptId);
      }
      this.#queuedOpened.push(request);
      this.#schedule();
    }
    return Promise.resolve({ kind: 'admitted', limits: this.#limitStates(scoped, now) });
  }

  #check(holder: LimitHolder, limits: GovernanceLimitsV1, request: AdmissionRequestV1, now: number): Omit<Refusal, 'kind' | 'scope' | 'limits'> | undefined {
    const refuse = (code: GovernanceRefusalCodeV1, retryAfterMs: number | undefined) => ({ code, ...(retryAfterMs === undefined ? {} : { retryAfterMs }) });
    if (request.firstAttempt && limits.requestsPerMinute !== undefined) {
      const wait = holder.requests.waitFor(1, limits.requestsPerMinute, now);
      if (wait !== 0) return refuse('tenant-rate-limit', wait);
    }
    if (limits.tokensPerMinute !== undefined) {
      const wait = holder.tokens.waitFor(request.reservedTokens, limits.tokensPerMinute, now);
      if (wait !== 0) return refuse('tenant-token-limit', wait);
    }
    if (request.firstAttempt && limits.concurrentRequests !== undefined && holder.inFlight >= limits.concurrentRequests) {
      return refuse('tenant-concurrency-limit', undefined);
    }
    const budget = limits.budget;
    if (budget !== undefined && budget.currency === request.currency) {
      const used = holder.spentIn(budgetPeriodKeyV1(budget.period, now), budget.currency) + holder.reservedIn(budget.currency);
      if (used + request.reservedMicros > budget.amountMicros) {
        const end = budgetPeriodEndMsV1(budget.period, now);
        return refuse('tenant-budget-exhausted', end === undefined ? undefined : end - now);
      }
    }
    return undefined;
  }

  #limitStates(scoped: readonly (readonly [string, LimitHolder, GovernanceLimitsV1 | undefined])[], now: number): LimitStatesV1 {
    let requests: LimitStateV1 | undefined;
    let tokens: LimitStateV1 | undefined;
    for (const [, holder, limits] of scoped) {
      if (limits?.requestsPerMinute !== undefined) {
        const state = { limit: limits.requestsPerMinute, remaining: Math.max(0, limits.requestsPerMinute - holder.requests.total(now)), resetMs: holder.requests.resetMs(now) };
        if (requests === undefined || state.remaining < requests.remaining) requests = state;
      }
      if (limits?.tokensPerMinute !== undefined) {
        const state = { limit: limits.tokensPerMinute, remaining: Math.max(0, limits.tokensPerMinute - holder.tokens.total(now)), resetMs: holder.tokens.resetMs(now) };
        if (tokens === undefined || state.remaining < tokens.remaining) tokens = state;
      }
    }
    return { ...(requests === undefined ? {} : { requests }), ...(tokens === undefined ? {} : { tokens }) };
  }

  settle(settlement: SettlementV1): Promise<SettleResultV1> {
    if (this.#closed) return Promise.resolve({ kind: 'unavailable' });
    const reservation = this.#reservations.get(settlement.attemptId);
    if (reservation === undefined && (this.#queuedAttemptIds.has(settlement.attemptId) || this.#database.hasLedgerRow(settlement.attemptId))) {
      return Promise.resolve({ kind: 'duplicate' });
    }
    this.#record(settlement, reservation, this.#clock());
    return Promise.resolve({ kind: 'settled' });
  }

  /** Releases a held reservation and slot, charges the cost to the current periods, and queues the ledger row. */
  #record(settlement: SettlementV1, reservation: HeldReservation | undefined, now: number): void {
    const [tenant, key] = this.#holdersOf(settlement.tenantId, settlement.keyId);
    if (reservation !== undefined) {
      this.#reservations.delete(settlement.attemptId);
      const { request, tokenEntries } = reservation;
      tenant.addReserved(request.currency, -request.reservedMicros);
      key.addReserved(request.currency, -request.reservedMicros);
      if (tokenEntries[0] !== undefined) tenant.tokens.correct(tokenEntries[0], settlement.usedTokens);
      if (tokenEntries[1] !== undefined) key.tokens.correct(tokenEntries[1], settlement.usedTokens);
      this.#queuedClosed.push(settlement.attemptId);
    }
    const slot = this.#slots.get(settlement.requestId);
    slot?.attempts.delete(settlement.attemptId);
    if (slot !== undefined && settlement.releaseSlot) this.#releaseSlot(settlement.requestId, slot);
    const spend: SpendDelta[] = [];
    for (const period of budgetPeriodKeysV1(now)) {
      tenant.addSpent(period, settlement.currency, settlement.costMicros);
      key.addSpent(period, settlement.currency, settlement.costMicros);
      spend.push({ holder: `tenant:${settlement.tenantId}`, period, currency: settlement.currency, micros: settlement.costMicros });
      spend.push({ holder: `key:${settlement.keyId}`, period, currency: settlement.currency, micros: settlement.costMicros });
    }
    const { releaseSlot: _releaseSlot, ...facts } = settlement;
    const row: LedgerRowV1 = { ...facts, day: budgetPeriodKeyV1('day', settlement.settledAtMs).slice('day:'.length) };
    this.#queuedLedger.push({ row, spend });
    this.#queuedAttemptIds.add(settlement.attemptId);
    this.#schedule();
  }

  #releaseSlot(requestId: string, slot: HeldSlot): void {
    this.#slots.delete(requestId);
    for (const holder of this.#holdersOf(slot.tenantId, slot.keyId)) holder.inFlight -= 1;
  }

  #orphanedSettlement(request: AdmissionRequestV1, startedAtMs: number, settledAtMs: number): SettlementV1 {
    return {
      ...reservationFactsV1(request),
      kind: 'orphaned',
      costMicros: request.reservedMicros,
      usedTokens: request.reservedTokens,
      overrun: false,
      outcome: 'orphaned',
      releaseSlot: true,
      startedAtMs,
      settledAtMs,
    };
  }

  sweepOrphans(nowMs: number): Promise<number> {
    if (this.#closed) return Promise.resolve(0);
    let settled = 0;
    for (const reservation of [...this.#reservations.values()]) {
      if (reservation.request.deadlineMs >= nowMs) continue;
      this.#record(this.#orphanedSettlement(reservation.request, reservation.admittedAtMs, nowMs), reservation, this.#clock());
      settled += 1;
    }
    for (const [requestId, slot] of [...this.#slots]) {
      if (slot.deadlineMs < nowMs && slot.attempts.size === 0) this.#releaseSlot(requestId, slot);
    }
    return Promise.resolve(settled);
  }

  recordRequest(record: RequestRecordV1): void {
    if (this.#closed) return;
    this.#queuedRequests.push(record);
    this.#schedule();
  }

  recordJob(job: TrackedJobV1): Promise<void> {
    this.#database.trackedJobs.put(job);
    return Promise.resolve();
  }

  findJob(tenantId: string, targetRef: string, providerJobId: string): Promise<TrackedJobV1 | undefined> {
    return Promise.resolve(this.#database.trackedJobs.get({ tenantId, targetRef, providerJobId }));
  }

  listJobs(tenantId: string, query: TrackedJobQueryV1): Promise<readonly TrackedJobV1[]> {
    return Promise.resolve(this.#database.trackedJobs.list(tenantId, query));
  }

  claimDueJobs(claim: TrackedJobClaimV1): Promise<readonly TrackedJobV1[]> {
    return Promise.resolve(this.#database.trackedJobs.claim(claim, this.#clock()));
  }

  observeJob(observation: TrackedJobObservationV1): Promise<'recorded' | 'lease-lost' | 'not-found'> {
    return Promise.resolve(this.#database.trackedJobs.observe(observation));
  }

  extendJobLeases(owner: string, jobs: readonly TrackedJobKeyV1[], leaseMs: number): Promise<number> {
    return Promise.resolve(this.#database.trackedJobs.extend(owner, jobs, this.#clock() + leaseMs));
  }

  releaseJobLeases(owner: string, jobs?: readonly TrackedJobKeyV1[]): Promise<number> {
    return Promise.resolve(this.#database.trackedJobs.release(owner, jobs));
  }

  appendJobDelivery(job: TrackedJobKeyV1, delivery: TrackedJobDeliveryV1): Promise<void> {
    this.#database.trackedJobs.appendDelivery(job, delivery);
    return Promise.resolve();
  }

  createSession(session: ConsoleSessionV1): Promise<void> {
    this.#database.putSession(session, this.#clock());
    return Promise.resolve();
  }

  findSession(id: string): Promise<ConsoleSessionV1 | undefined> {
    return Promise.resolve(this.#database.session(id, this.#clock()));
  }

  deleteSession(id: string): Promise<void> {
    this.#database.deleteSession(id);
    return Promise.resolve();
  }

  signInRetryAfterMs(address: string, policy: SignInThrottlePolicyV1): Promise<number> {
    return Promise.resolve(this.#signInFailures.retryAfterMs(address, policy, this.#clock()));
  }

  recordSignInFailure(address: string, policy: SignInThrottlePolicyV1): Promise<number> {
    return Promise.resolve(this.#signInFailures.fail(address, policy, this.#clock()));
  }

  clearSignInFailures(address: string): Promise<void> {
    this.#signInFailures.clear(address);
    return Promise.resolve();
  }

  #flushInBackground(): void {
    try {
      this.flush();
    } catch (error) {
      this.#onWriteError(error);
    }
  }

  /** Arms the flush timer: at once when a full batch waits (unless retrying a failed write), else after the interval. */
  #schedule(retrying = false): void {
    const soon = !retrying && this.#queuedLedger.length >= this.#flushBatchRows;
    if (this.#timer !== undefined && !(soon && !this.#timerSoon)) return;
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#timerSoon = soon;
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      this.#flushInBackground();
    }, soon ? 0 : this.#flushIntervalMs);
    this.#timer.unref();
  }

  flush(): void {
    if (this.#timer !== undefined) {
      clearTimeout(this.#timer);
      this.#timer = undefined;
    }
    if (this.#closed) return;
    const now = this.#clock();
    const prune = now - this.#lastPruneMs >= 60_000;
    if (this.#queuedLedger.length + this.#queuedOpened.length + this.#queuedClosed.length + this.#queuedRequests.length === 0 && !prune) return;
    // A reservation opened and closed within one batch never needs to reach the disk.
    const closed = new Set(this.#queuedClosed);
    const opened = new Set(this.#queuedOpened.map((request) => request.attemptId));
    const batch = {
      ledger: this.#queuedLedger,
      reservationsOpened: this.#queuedOpened.filter((request) => !closed.has(request.attemptId)),
      reservationsClosed: this.#queuedClosed.filter((attemptId) => !opened.has(attemptId)),
      requests: this.#queuedRequests,
      ...(prune ? { pruneRequestsBeforeMs: now - this.#retentionMs } : {}),
    };
    this.#queuedLedger = [];
    this.#queuedOpened = [];
    this.#queuedClosed = [];
    this.#queuedRequests = [];
    try {
      this.#database.write(batch);
    } catch (error) {
      // Kept for the next attempt: money is never dropped because a write failed.
      this.#queuedLedger = [...batch.ledger, ...this.#queuedLedger];
      this.#queuedOpened = [...batch.reservationsOpened, ...this.#queuedOpened];
      this.#queuedClosed = [...batch.reservationsClosed, ...this.#queuedClosed];
      this.#queuedRequests = [...batch.requests, ...this.#queuedRequests];
      if (!this.#closed) this.#schedule(true);
      throw error;
    }
    if (prune) this.#lastPruneMs = now;
    for (const { row } of batch.ledger) this.#queuedAttemptIds.delete(row.attemptId);
  }

  close(): Promise<void> {
    if (this.#closed) return Promise.resolve();
    this.flush();
    this.#closed = true;
    this.#database.close();
    this.#release();
    return Promise.resolve();
  }

  #change<T>(action: string, subject: string, actor: string, detail: Record<string, unknown>, apply: (version: number) => { tenant?: TenantRecordV1; key?: ClientKeyRecordV1; value: T }): GovernanceChangeV1<T> {
    const version = this.#version + 1;
    const audit: AuditEntryV1 = { version, atMs: this.#clock(), actor, action, subject, detail: withoutUndefined(detail) };
    const { tenant, key, value } = apply(version);
    this.#database.applyChange({ ...(tenant === undefined ? {} : { tenant }), ...(key === undefined ? {} : { key }), audit });
    if (tenant !== undefined) this.#tenants.set(tenant.id, tenant);
    if (key !== undefined) this.#keys.set(key.id, key);
    this.#version = version;
    return { version, value };
  }

  #limitUse(tenantId: string): LimitUseV1 {
    const now = this.#clock();
    const tenant = this.#holder(`tenant:${tenantId}`);
    const budget = this.#tenants.get(tenantId)?.limits.budget;
    const sumOver = (map: Map<string, number>, prefix: string): number => {
      let sum = 0;
      for (const [name, micros] of map) if (name.startsWith(prefix)) sum += micros;
      return sum;
    };
    const keys = [...this.#keys.values()]
      .filter((key) => key.tenantId === tenantId)
      .map((key) => {
        const holder = this.#holder(`key:${key.id}`);
        return { keyId: key.id, requestsLastMinute: holder.requests.total(now), tokensLastMinute: holder.tokens.total(now), inFlight: holder.inFlight };
      });
    return {
      tenantId,
      requestsLastMinute: tenant.requests.total(now),
      tokensLastMinute: tenant.tokens.total(now),
      inFlight: tenant.inFlight,
      budgetSpentMicros: budget === undefined ? sumOver(tenant.spent, 'total|') : tenant.spentIn(budgetPeriodKeyV1(budget.period, now), budget.currency),
      budgetReservedMicros: budget === undefined ? sumOver(tenant.reserved, '') : tenant.reservedIn(budget.currency),
      keys,
    };
  }

  #createAdmin(): GovernanceAdminV1 {
    const store = this;
    const now = (): number => this.#clock();
    return {
      createTenant: (tenant, actor) => {
        if (this.#tenants.has(tenant.id)) return Promise.reject(new GovernanceStoreErrorV1('conflict', 'a tenant with this id exists'));
        const { id, ...detail } = tenant;
        return Promise.resolve(this.#change('tenant.create', id, actor, detail, () => {
          const value: TenantRecordV1 = { ...tenant, createdAtMs: now() };
          return { tenant: value, value };
        }));
      },
      updateTenant: (id, patch, actor) => {
        const existing = this.#tenants.get(id);
        if (existing === undefined) return Promise.resolve(undefined);
        return Promise.resolve(this.#change('tenant.update', id, actor, { ...patch }, () => {
          const value: TenantRecordV1 = { ...existing, ...patch };
          return { tenant: value, value };
        }));
      },
      listTenants: () => Promise.resolve([...this.#tenants.values()]),
      createKey: (key, actor) => {
        if (this.#keys.has(key.id)) return Promise.reject(new GovernanceStoreErrorV1('conflict', 'a key with this id exists'));
        if (!this.#tenants.has(key.tenantId)) return Promise.reject(new GovernanceStoreErrorV1('not-found', 'the key names an unknown tenant'));
        const { id, digest: _digest, ...detail } = key;
        return Promise.resolve(this.#change('key.create', id, actor, detail, () => {
          const value: ClientKeyRecordV1 = { ...key, createdAtMs: now() };
          return { key: value, value };
        }));
      },
      updateKey: (id, patch, actor) => {
        const existing = this.#keys.get(id);
        if (existing === undefined) return Promise.resolve(undefined);
        return Promise.resolve(this.#change('key.update', id, actor, { ...patch }, () => {
          const value: ClientKeyRecordV1 = { ...existing, ...patch };
          return { key: value, value };
        }));
      },
      revokeKey: (id, actor) => {
        const existing = this.#keys.get(id);
        if (existing === undefined) return Promise.resolve(undefined);
        if (existing.revokedAtMs !== undefined) return Promise.resolve({ version: this.#version, value: existing });
        const revokedAtMs = now();
        return Promise.resolve(this.#change('key.revoke', id, actor, { revokedAtMs }, () => {
          const value: ClientKeyRecordV1 = { ...existing, revokedAtMs };
          return { key: value, value };
        }));
      },
      listKeys: (tenantId) => Promise.resolve([...this.#keys.values()].filter((key) => tenantId === undefined || key.tenantId === tenantId)),
      spend: (query) => {
        store.flush();
        return Promise.resolve(this.#database.spend(query));
      },
      ledger: (query) => {
        store.flush();
        return Promise.resolve(this.#database.ledger(query));
      },
      audit: (limit) => Promise.resolve(this.#database.audit(limit)),
      requests: (query) => {
        this.#lastPruneMs = Number.NEGATIVE_INFINITY;
        store.flush();
        return Promise.resolve(this.#database.requests(query));
      },
      request: (requestId) => {
        this.#lastPruneMs = Number.NEGATIVE_INFINITY;
        store.flush();
        return Promise.resolve(this.#database.request(requestId));
      },
      limitUse: (tenantId) => Promise.resolve(this.#limitUse(tenantId)),
    };
  }
}
