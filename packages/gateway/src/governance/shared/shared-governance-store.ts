import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import type { Redis } from 'ioredis';
import type pg from 'pg';
import type {
  AdmissionRequestV1,
  AdmissionResultV1,
  BudgetV1,
  ConsoleSessionV1,
  GovernanceAdminV1,
  GovernanceLimitsV1,
  GovernanceSnapshotV1,
  GovernanceStoreV1,
  LimitStatesV1,
  LimitUseV1,
  RequestRecordV1,
  SettlementV1,
  SettleResultV1,
  SignInThrottlePolicyV1,
  TrackedJobClaimV1,
  TrackedJobDeliveryV1,
  TrackedJobKeyV1,
  TrackedJobObservationV1,
  TrackedJobQueryV1,
  TrackedJobV1,
} from '../v1/governance-store-v1.js';
import { GovernanceStoreErrorV1 } from '../v1/governance-store-error-v1.js';
import { reservationFactsV1 } from '../v1/reservation-facts-v1.js';
import { LedgerOutboxFlusher } from './ledger-outbox-flusher.js';
import { encodeSettlementRow } from './ledger-outbox-row.js';
import { applyGovernanceMigrations } from './postgres-governance-migrations.js';
import { PostgresGovernanceRecords } from './postgres-governance-records.js';
import { PostgresTrackedJobs } from './postgres-tracked-jobs.js';
import { REDIS_ADMISSION_SCRIPT, REDIS_ADMISSION_SCRIPT_SHA1 } from './redis-admission-script.js';
import { holderKeys, redisGovernanceKeys as names } from './redis-governance-keys.js';
import { REDIS_LIMIT_USE_SCRIPT, REDIS_LIMIT_USE_SCRIPT_SHA1 } from './redis-limit-use-script.js';
import { REDIS_ORPHAN_SWEEP_SCRIPT, REDIS_ORPHAN_SWEEP_SCRIPT_SHA1 } from './redis-orphan-sweep-script.js';
import { REDIS_SETTLEMENT_SCRIPT, REDIS_SETTLEMENT_SCRIPT_SHA1 } from './redis-settlement-script.js';
import { REDIS_SIGN_IN_THROTTLE_SCRIPT, REDIS_SIGN_IN_THROTTLE_SCRIPT_SHA1 } from './redis-sign-in-throttle-script.js';
import { REDIS_VERSION_SCRIPT, REDIS_VERSION_SCRIPT_SHA1 } from './redis-version-script.js';
import { type RedisScriptV1, runRedisScript } from './run-redis-script.js';

const ADMISSION: RedisScriptV1 = { source: REDIS_ADMISSION_SCRIPT, sha1: REDIS_ADMISSION_SCRIPT_SHA1 };
const SETTLEMENT: RedisScriptV1 = { source: REDIS_SETTLEMENT_SCRIPT, sha1: REDIS_SETTLEMENT_SCRIPT_SHA1 };
const ORPHAN_SWEEP: RedisScriptV1 = { source: REDIS_ORPHAN_SWEEP_SCRIPT, sha1: REDIS_ORPHAN_SWEEP_SCRIPT_SHA1 };
const LIMIT_USE: RedisScriptV1 = { source: REDIS_LIMIT_USE_SCRIPT, sha1: REDIS_LIMIT_USE_SCRIPT_SHA1 };
const VERSION: RedisScriptV1 = { source: REDIS_VERSION_SCRIPT, sha1: REDIS_VERSION_SCRIPT_SHA1 };
const SIGN_IN_THROTTLE: RedisScriptV1 = { source: REDIS_SIGN_IN_THROTTLE_SCRIPT, sha1: REDIS_SIGN_IN_THROTTLE_SCRIPT_SHA1 };

/** How the shared store reaches Redis and PostgreSQL, and its bounds. */
export interface SharedGovernanceStoreOptions {
  /**
   * `REDIS_URL`: one Redis primary (not Cluster: a settlement writes its tenant's keys and the global outbox in one
   * script), run with `appendonly yes` so a restart keeps reservations and the outbox, and `maxmemory-policy
   * noeviction` so memory pressure refuses writes (admission answers `unavailable`) instead of evicting money.
   */
  readonly redisUrl: string;
  /** `DATABASE_URL`: PostgreSQL 13 or newer. */
  readonly databaseUrl: string;
  /** Connections in this instance's PostgreSQL pool (default 5). */
  readonly poolSize?: number;
  /** A Redis command answered later than this counts as unreachable (default 1000 ms). */
  readonly redisCommandTimeoutMs?: number;
  /**
   * Above this many ledger rows waiting in the outbox (PostgreSQL down or slow), admission answers `unavailable`
   * (default 100 000). Why `unavailable` and not a refusal: no tenant is over a limit, so no refusal code would be
   * true, and a 429 `insufficient_quota` would stop clients that have done nothing wrong; `unavailable` is the
   * store's own condition and goes through the admit stage's fail-closed policy (a 503, nothing sent). Money is never
   * lost either way: every settlement is still accepted into the outbox.
   */
  readonly maxOutboxLength?: number;
  /** Ledger rows per PostgreSQL transaction (default 500). */
  readonly ledgerBatchSize?: number;
  /** A row pending this long at a dead instance's flusher is taken over (default 30 000 ms). */
  readonly ledgerClaimIdleMs?: number;
  /** Wait after a failed flush before the next (default 500 ms). */
  readonly ledgerRetryMs?: number;
  /**
   * Wait after a flush of a part-full batch before the next read (default 200 ms): at low rates rows then reach
   * PostgreSQL a few transactions a second instead of one transaction per settlement.
   */
  readonly ledgerLingerMs?: number;
  /** Request records older than this are deleted (default 30 days); the ledger is kept. */
  readonly requestRetentionMs?: number;
  /** How long a settled attempt id is remembered for `duplicate` answers (default 6 hours). */
  readonly settledMemoryMs?: number;
  /** Run the ledger flusher in this instance (default true). */
  readonly flushLedger?: boolean;
  /** This instance's consumer name in the outbox group (default host, pid and a random suffix). */
  readonly consumerName?: string;
  /**
   * Tests only: a clock that replaces Redis `TIME` in the scripts and the instance clock for admin timestamps, so the
   * contract suite can move time. Leave unset in production: limits then run on the one Redis clock.
   */
  readonly clock?: () => number;
}

/** The shared store's configuration is incomplete: `variable` is not set. Never carries a URL (it may hold a password). */
export class SharedGovernanceConfigError extends Error {
  readonly code = 'governance-store-config-missing';
  readonly variable: 'REDIS_URL' | 'DATABASE_URL';
  constructor(variable: 'REDIS_URL' | 'DATABASE_URL') {
    super(`The shared governance store needs ${variable}.`);
    this.name = 'SharedGovernanceConfigError';
    this.variable = variable;
  }
}

type AdmissionReply = [string, string, string, number, number, number, number, number, number, number];

/**
 * The shared governance store: Redis for everything hot (windows, slots, reservations, budget counters, the ledger
 * outbox), PostgreSQL for everything durable (tenants, keys, audit, versions, prices, ledger, request records, jobs).
 * One Redis round trip admits (one script), one settles (one script); PostgreSQL is never on a request's path.
 */
export class SharedGovernanceStore implements GovernanceStoreV1 {
  readonly admin: GovernanceAdminV1;
  readonly #redis: Redis;
  readonly #pool: pg.Pool;
  readonly #records: PostgresGovernanceRecords;
  readonly #jobs: PostgresTrackedJobs;
  readonly #flusher: LedgerOutboxFlusher | undefined;
  readonly #options: SharedGovernanceStoreOptions;
  readonly #now: () => number;
  #outboxLength = 0;
  #requestQueue: RequestRecordV1[] = [];
  #requestTimer: NodeJS.Timeout | undefined;
  #knownTenantIds: readonly string[] = [];
  #versionBehind = false;

  private constructor(options: SharedGovernanceStoreOptions, redis: Redis, flusherRedis: Redis | undefined, pool: pg.Pool) {
    this.#options = options;
    this.#redis = redis;
    this.#pool = pool;
    this.#now = options.clock ?? Date.now;
    this.#records = new PostgresGovernanceRecords(pool, this.#now);
    this.#jobs = new PostgresTrackedJobs(pool, options.clock);
    this.#flusher =
      flusherRedis === undefined
        ? undefined
        : new LedgerOutboxFlusher({
            redis: flusherRedis,
            pool,
            stream: names.outbox,
            deadLetterStream: names.deadLetter,
            group: names.outboxGroup,
            consumer: options.consumerName ?? `${hostname()}-${process.pid}-${randomUUID().slice(0, 8)}`,
            batchSize: options.ledgerBatchSize ?? 500,
            blockMs: 1000,
            claimIdleMs: options.ledgerClaimIdleMs ?? 30_000,
            retryMs: options.ledgerRetryMs ?? 500,
            lingerMs: options.ledgerLingerMs ?? 200,
            onOutboxLength: (length) => {
              this.#outboxLength = length;
              if (this.#versionBehind) void this.#publishVersion().catch(() => undefined);
            },
          });
    this.admin = this.#adminVerbs();
  }

  /**
   * Opens the store from `REDIS_URL` and `DATABASE_URL` (plus `options`); throws a {@link SharedGovernanceConfigError}
   * naming the variable when one is missing.
   */
  static async fromEnvironment(
    environment: Readonly<Record<string, string | undefined>> = process.env,
    options: Omit<SharedGovernanceStoreOptions, 'redisUrl' | 'databaseUrl'> = {},
  ): Promise<SharedGovernanceStore> {
    const redisUrl = environment.REDIS_URL;
    const databaseUrl = environment.DATABASE_URL;
    if (redisUrl === undefined || redisUrl === '') throw new SharedGovernanceConfigError('REDIS_URL');
    if (databaseUrl === undefined || databaseUrl === '') throw new SharedGovernanceConfigError('DATABASE_URL');
    return SharedGovernanceStore.open({ ...options, redisUrl, databaseUrl });
  }

  /** Connects to both servers, applies the migrations (under an advisory lock), and starts the ledger flusher. */
  static async open(options: SharedGovernanceStoreOptions): Promise<SharedGovernanceStore> {
    const redisOptions = {
      lazyConnect: true,
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      retryStrategy: (times: number) => Math.min(times * 50, 1000),
    } as const;
    // Loaded here, not at module load: a gateway on the embedded store never pays for either client at start-up.
    const [{ Redis }, { default: pg }] = await Promise.all([import('ioredis'), import('pg')]);
    // No auto-pipelining: it held each admission back to the next event-loop turn and ran it through a pipeline object
    // (about 20 µs more per script call, measured), and it saves no round trip (each script is one either way).
    const redis = new Redis(options.redisUrl, { ...redisOptions, commandTimeout: options.redisCommandTimeoutMs ?? 1000 });
    const flusherRedis = options.flushLedger === false ? undefined : new Redis(options.redisUrl, { ...redisOptions, enableOfflineQueue: true });
    const pool = new pg.Pool({ connectionString: options.databaseUrl, max: options.poolSize ?? 5, connectionTimeoutMillis: 5000 });
    pool.on('error', () => undefined);
    // A checked-out client whose server goes away (PostgreSQL stopped or restarted) emits 'error' on itself, not on
    // the pool: unheard, that ends the process. Its query still fails and the pool drops it when it is released.
    pool.on('connect', (client) => client.on('error', () => undefined));
    redis.on('error', () => undefined);
    flusherRedis?.on('error', () => undefined);
    try {
      await Promise.all([redis.connect(), flusherRedis?.connect(), applyGovernanceMigrations(pool)]);
      await redis.call('XGROUP', 'CREATE', names.outbox, names.outboxGroup, '0', 'MKSTREAM').catch((error: unknown) => {
        if (!(error instanceof Error && error.message.startsWith('BUSYGROUP'))) throw error;
      });
    } catch (error) {
      redis.disconnect();
      flusherRedis?.disconnect();
      await pool.end();
      throw error;
    }
    const store = new SharedGovernanceStore(options, redis, flusherRedis, pool);
    await store.#publishVersion().catch(() => undefined);
    store.#flusher?.start();
    store.#requestTimer = setInterval(() => void store.#flushRequests().catch(() => undefined), 1000);
    store.#requestTimer.unref();
    return store;
  }

  /** The outbox length last seen (by a settlement, a sweep or the flusher). */
  get outboxLength(): number {
    return this.#outboxLength;
  }

  #clockArgument(): string {
    return this.#options.clock === undefined ? '' : String(Math.floor(this.#options.clock()));
  }

  async loadSnapshot(): Promise<GovernanceSnapshotV1> {
    const snapshot = await this.#records.snapshot();
    this.#knownTenantIds = snapshot.tenants.map((tenant) => tenant.id);
    return snapshot;
  }

  /** Redis's counter (cheap to poll); PostgreSQL's version when Redis is unreachable or lost it. */
  async currentVersion(): Promise<number> {
    try {
      const value = await this.#redis.get(names.version);
      if (value !== null) return Number(value);
    } catch {
      return this.#records.version();
    }
    return this.#publishVersion();
  }

  async #publishVersion(version?: number): Promise<number> {
    const target = version ?? (await this.#records.version());
    try {
      const published = Number(await runRedisScript(this.#redis, VERSION, [names.version], [target]));
      this.#versionBehind = false;
      return published;
    } catch (error) {
      this.#versionBehind = true;
      throw error;
    }
  }

  async admit(request: AdmissionRequestV1): Promise<AdmissionResultV1> {
    if (this.#outboxLength > (this.#options.maxOutboxLength ?? 100_000)) return { kind: 'unavailable' };
    const tenant = names.tenantPrefix(request.tenantId);
    const key = names.keyPrefix(request.tenantId, request.keyId);
    const facts = reservationFactsV1(request);
    let reply: AdmissionReply;
    try {
      reply = (await runRedisScript(
        this.#redis,
        ADMISSION,
        [...holderKeys(tenant), ...holderKeys(key), `${tenant}res`, `${tenant}dl`],
        [
          this.#clockArgument(), request.attemptId, request.requestId, request.keyId, request.firstAttempt ? '1' : '0',
          integer(request.reservedTokens), integer(request.reservedMicros), request.currency, integer(request.deadlineMs),
          JSON.stringify(facts), ...limitArguments(request.tenantLimits), ...limitArguments(request.keyLimits),
        ],
      )) as AdmissionReply;
    } catch {
      return { kind: 'unavailable' };
    }
    const [kind, code, scope, retryAfterMs] = reply;
    const limits = limitStates(reply);
    if (kind === 'admitted') return { kind: 'admitted', limits };
    return {
      kind: 'refused',
      code: code as Extract<AdmissionResultV1, { kind: 'refused' }>['code'],
      scope: scope as 'tenant' | 'key',
      ...(retryAfterMs >= 0 ? { retryAfterMs } : {}),
      limits,
    };
  }

  async settle(settlement: SettlementV1): Promise<SettleResultV1> {
    const tenant = names.tenantPrefix(settlement.tenantId);
    const key = names.keyPrefix(settlement.tenantId, settlement.keyId);
    const [tk, tkn, sl, bg] = holderKeys(tenant).slice(1);
    const [ktk, ktkn, ksl, kbg] = holderKeys(key).slice(1);
    try {
      const [kind, length] = (await runRedisScript(
        this.#redis,
        SETTLEMENT,
        [tk!, tkn!, sl!, bg!, ktk!, ktkn!, ksl!, kbg!, `${tenant}res`, `${tenant}dl`, `${tenant}done`, names.outbox],
        [
          this.#clockArgument(), settlement.attemptId, settlement.requestId, integer(settlement.costMicros), integer(settlement.usedTokens),
          settlement.releaseSlot ? '1' : '0', encodeSettlementRow(settlement), settlement.currency,
          integer(this.#options.settledMemoryMs ?? 6 * 3_600_000),
        ],
      )) as [string, number];
      this.#outboxLength = length;
      return { kind: kind === 'settled' ? 'settled' : 'duplicate' };
    } catch {
      return { kind: 'unavailable' };
    }
  }

  async sweepOrphans(nowMs: number): Promise<number> {
    const tenantIds = await this.#records
      .tenants()
      .then((tenants) => (this.#knownTenantIds = tenants.map((tenant) => tenant.id)))
      .catch(() => this.#knownTenantIds);
    if (tenantIds.length === 0) return 0;
    const keyIds = new Map<string, string[]>();
    for (const key of await this.#records.keys().catch(() => [])) keyIds.set(key.tenantId, [...(keyIds.get(key.tenantId) ?? []), key.id]);
    const run = () => {
      const pipeline = this.#redis.pipeline();
      for (const tenantId of tenantIds) {
        const prefix = names.tenantPrefix(tenantId);
        pipeline.evalsha(ORPHAN_SWEEP.sha1, 4, `${prefix}res`, `${prefix}dl`, `${prefix}done`, names.outbox, '', integer(nowMs), 1000,
          prefix, integer(this.#options.settledMemoryMs ?? 6 * 3_600_000), ...(keyIds.get(tenantId) ?? []));
      }
      return pipeline.exec();
    };
    let answers = await run();
    if (answers?.some(([error]) => error?.message.startsWith('NOSCRIPT')) === true) {
      await this.#redis.script('LOAD', ORPHAN_SWEEP.source);
      answers = await run();
    }
    let settled = 0;
    for (const [error, reply] of answers ?? []) {
      if (error !== null) throw error;
      const [count, length] = reply as [number, number];
      settled += count;
      this.#outboxLength = length;
    }
    return settled;
  }

  recordRequest(record: RequestRecordV1): void {
    if (this.#requestQueue.length >= 10_000) this.#requestQueue.shift();
    this.#requestQueue.push(record);
  }

  async #flushRequests(): Promise<void> {
    const queued = this.#requestQueue;
    if (queued.length === 0) return;
    this.#requestQueue = [];
    try {
      await this.#records.insertRequests(queued);
    } catch (error) {
      this.#requestQueue = [...queued, ...this.#requestQueue].slice(-10_000);
      throw error;
    }
    await this.#records.deleteRequestsBefore(this.#now() - (this.#options.requestRetentionMs ?? 30 * 86_400_000));
  }

  async recordJob(job: TrackedJobV1): Promise<void> {
    await this.#jobs.upsert(job);
  }

  async findJob(tenantId: string, targetRef: string, providerJobId: string): Promise<TrackedJobV1 | undefined> {
    return this.#jobs.get({ tenantId, targetRef, providerJobId });
  }

  async listJobs(tenantId: string, query: TrackedJobQueryV1): Promise<readonly TrackedJobV1[]> {
    return this.#jobs.list(tenantId, query);
  }

  async createSession(session: ConsoleSessionV1): Promise<void> {
    await this.#pool.query('DELETE FROM governance_console_sessions WHERE expires_at_ms <= $1', [this.#now()]);
    await this.#pool.query(
      `INSERT INTO governance_console_sessions (id, csrf_token, created_at_ms, expires_at_ms) VALUES ($1, $2, $3, $4)
       ON CONFLICT (id) DO UPDATE SET csrf_token = excluded.csrf_token, created_at_ms = excluded.created_at_ms, expires_at_ms = excluded.expires_at_ms`,
      [session.id, session.csrfToken, session.createdAtMs, session.expiresAtMs],
    );
  }

  async findSession(id: string): Promise<ConsoleSessionV1 | undefined> {
    const { rows } = await this.#pool.query<{ id: string; csrf_token: string; created_at_ms: string; expires_at_ms: string }>(
      'SELECT id, csrf_token, created_at_ms, expires_at_ms FROM governance_console_sessions WHERE id = $1 AND expires_at_ms > $2',
      [id, this.#now()],
    );
    const row = rows[0];
    return row === undefined ? undefined : { id: row.id, csrfToken: row.csrf_token, createdAtMs: Number(row.created_at_ms), expiresAtMs: Number(row.expires_at_ms) };
  }

  async deleteSession(id: string): Promise<void> {
    await this.#pool.query('DELETE FROM governance_console_sessions WHERE id = $1', [id]);
  }

  async signInRetryAfterMs(address: string, policy: SignInThrottlePolicyV1): Promise<number> {
    return this.#signInThrottle(address, policy, 'check');
  }

  async recordSignInFailure(address: string, policy: SignInThrottlePolicyV1): Promise<number> {
    return this.#signInThrottle(address, policy, 'fail');
  }

  async clearSignInFailures(address: string): Promise<void> {
    await this.#redis.del(names.signInFailures(address));
  }

  async #signInThrottle(address: string, policy: SignInThrottlePolicyV1, action: 'check' | 'fail'): Promise<number> {
    const args = [this.#clockArgument(), action, policy.failuresAllowed, policy.windowMs, randomUUID()];
    return Math.max(0, Number(await runRedisScript(this.#redis, SIGN_IN_THROTTLE, [names.signInFailures(address)], args)));
  }

  async claimDueJobs(claim: TrackedJobClaimV1): Promise<readonly TrackedJobV1[]> {
    return this.#jobs.claim(claim);
  }

  async observeJob(observation: TrackedJobObservationV1): Promise<'recorded' | 'lease-lost' | 'not-found'> {
    return this.#jobs.observe(observation);
  }

  async extendJobLeases(owner: string, jobs: readonly TrackedJobKeyV1[], leaseMs: number): Promise<number> {
    return this.#jobs.extend(owner, jobs, leaseMs);
  }

  async releaseJobLeases(owner: string, jobs?: readonly TrackedJobKeyV1[]): Promise<number> {
    return this.#jobs.release(owner, jobs);
  }

  async appendJobDelivery(job: TrackedJobKeyV1, delivery: TrackedJobDeliveryV1): Promise<void> {
    await this.#jobs.appendDelivery(job, delivery);
  }


  /**
   * Waits until every outbox entry that existed when called is written to PostgreSQL (by any instance's flusher), at
   * most `timeoutMs`; answers whether it got there.
   */
  async drainOutbox(timeoutMs = 10_000): Promise<boolean> {
    const newest = (await this.#redis.xrevrange(names.outbox, '+', '-', 'COUNT', 1))[0]?.[0];
    if (newest === undefined) return true;
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      if ((await this.#redis.xrange(names.outbox, '-', newest, 'COUNT', 1)).length === 0) return true;
      this.#flusher?.hurry();
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    return false;
  }

  async close(): Promise<void> {
    if (this.#requestTimer !== undefined) clearInterval(this.#requestTimer);
    await this.#flushRequests().catch(() => undefined);
    if (this.#flusher !== undefined) await this.drainOutbox(5000).catch(() => false);
    await this.#flusher?.stop();
    this.#redis.disconnect();
    await this.#pool.end();
  }

  #adminVerbs(): GovernanceAdminV1 {
    const records = this.#records;
    const publish = async <T extends { version: number } | undefined>(change: T): Promise<T> => {
      if (change !== undefined) await this.#publishVersion(change.version).catch(() => undefined);
      return change;
    };
    return {
      createTenant: async (tenant, actor) => {
        const change = await records
          .change(actor, 'tenant.create', tenant.id, tenantDetail(tenant), (client, atMs) => records.insertTenant(client, { ...tenant, createdAtMs: atMs }))
          .catch(refuseConstraint('a tenant with this id exists', 'unreachable'));
        return publish(change!);
      },
      updateTenant: async (id, patch, actor) =>
        publish(
          await records.change(actor, 'tenant.update', id, patch, async (client) => {
            const current = await records.tenantForUpdate(client, id);
            return current === undefined ? undefined : records.writeTenant(client, { ...current, ...patch });
          }),
        ),
      listTenants: () => records.tenants(),
      createKey: async (key, actor) => {
        const { digest: _digest, ...detail } = key;
        const change = await records
          .change(actor, 'key.create', key.id, detail, (client, atMs) => records.insertKey(client, { ...key, createdAtMs: atMs }))
          .catch(refuseConstraint('a key with this id or digest exists', 'the key names an unknown tenant'));
        return publish(change!);
      },
      updateKey: async (id, patch, actor) =>
        publish(
          await records.change(actor, 'key.update', id, patch, async (client) => {
            const current = await records.keyForUpdate(client, id);
            return current === undefined ? undefined : records.writeKey(client, withoutUndefined({ ...current, ...patch }));
          }),
        ),
      revokeKey: async (id, actor) =>
        publish(
          await records.change(actor, 'key.revoke', id, {}, async (client, atMs) => {
            const current = await records.keyForUpdate(client, id);
            return current === undefined ? undefined : records.writeKey(client, { ...current, revokedAtMs: current.revokedAtMs ?? atMs });
          }),
        ),
      listKeys: (tenantId) => records.keys(tenantId),
      spend: async (query) => {
        await this.drainOutbox();
        return records.spend(query);
      },
      ledger: async (query) => {
        await this.drainOutbox();
        return records.ledger(query);
      },
      audit: (limit) => records.audit(limit),
      requests: async (query) => {
        await this.#flushRequests();
        return records.requests(query);
      },
      request: async (requestId) => {
        await this.#flushRequests();
        return records.request(requestId);
      },
      limitUse: (tenantId) => this.#limitUse(tenantId),
    };
  }

  async #limitUse(tenantId: string): Promise<LimitUseV1> {
    const [tenant, keys] = await Promise.all([this.#records.tenant(tenantId), this.#records.keys(tenantId)]);
    const budget: BudgetV1 | undefined = tenant?.limits.budget;
    const prefix = names.tenantPrefix(tenantId);
    const keyKeys = keys.flatMap((key) => holderKeys(names.keyPrefix(tenantId, key.id)).slice(0, 4));
    const reply = (await runRedisScript(this.#redis, LIMIT_USE, [...holderKeys(prefix), ...keyKeys], [
      this.#clockArgument(),
      budget?.currency ?? '',
      budget?.period ?? 'total',
    ])) as (number | string)[];
    return {
      tenantId,
      requestsLastMinute: Number(reply[0]),
      tokensLastMinute: Number(reply[1]),
      inFlight: Number(reply[2]),
      budgetSpentMicros: Number(reply[3]),
      budgetReservedMicros: Number(reply[4]),
      keys: keys.map((key, index) => ({
        keyId: key.id,
        requestsLastMinute: Number(reply[5 + index * 3]),
        tokensLastMinute: Number(reply[6 + index * 3]),
        inFlight: Number(reply[7 + index * 3]),
      })),
    };
  }
}

/**
 * Turns PostgreSQL's unique violation (23505) into a `conflict` and its foreign-key violation (23503) into a
 * `not-found`, as the embedded store answers them; the messages name no value.
 */
function refuseConstraint(conflict: string, notFound: string): (error: unknown) => never {
  return (error) => {
    const code = typeof error === 'object' && error !== null ? (error as { code?: unknown }).code : undefined;
    if (code === '23505') throw new GovernanceStoreErrorV1('conflict', conflict);
    if (code === '23503') throw new GovernanceStoreErrorV1('not-found', notFound);
    throw error;
  };
}

function integer(value: number): string {
  return String(Math.round(value));
}

function limitArguments(limits: GovernanceLimitsV1 | undefined): string[] {
  const optional = (value: number | undefined): string => (value === undefined ? '' : integer(value));
  return [
    optional(limits?.requestsPerMinute),
    optional(limits?.tokensPerMinute),
    optional(limits?.concurrentRequests),
    optional(limits?.budget?.amountMicros),
    limits?.budget?.currency ?? '',
    limits?.budget?.period ?? '',
  ];
}

function limitStates(reply: AdmissionReply): LimitStatesV1 {
  const [, , , , requestLimit, requestRemaining, requestReset, tokenLimit, tokenRemaining, tokenReset] = reply;
  return {
    ...(requestLimit >= 0 ? { requests: { limit: requestLimit, remaining: requestRemaining, resetMs: requestReset } } : {}),
    ...(tokenLimit >= 0 ? { tokens: { limit: tokenLimit, remaining: tokenRemaining, resetMs: tokenReset } } : {}),
  };
}

function tenantDetail(tenant: { readonly name: string; readonly modelAccess: readonly string[]; readonly limits: GovernanceLimitsV1; readonly disabled: boolean }) {
  return { name: tenant.name, modelAccess: tenant.modelAccess, limits: tenant.limits, disabled: tenant.disabled };
}

function withoutUndefined<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, entry]) => entry !== undefined)) as T;
}
