import type { ProviderReportedCostV3, UsageV1, UsageV3 } from '@tokenforge/model-protocol';

/**
 * The governance store port: tenants, keys, limits, reservations, settlement and the spend ledger behind one set of
 * domain verbs. Two implementations keep it: the embedded store (one process, nothing installed) and the shared store
 * (Redis for what is hot, PostgreSQL for what is durable). One contract suite runs against both.
 *
 * The request path touches the store at two points only: `admit` before an attempt is sent, `settle` after it
 * ended. Key lookup and limits come from an in-process {@link GovernanceSnapshotV1} that each instance reloads when
 * the governance version changes, so no database is on a request's critical path.
 */
export interface GovernanceStoreV1 {
  /** Everything a request needs to authenticate and be held to its limits, as of one governance version. */
  loadSnapshot(): Promise<GovernanceSnapshotV1>;
  /** The newest governance version (cheap: instances poll it to know when to reload the snapshot). */
  currentVersion(): Promise<number>;

  /**
   * Rate windows, the concurrency slot and the budget and token reservation of one attempt, in one atomic step on
   * the store's clock. A refusal holds nothing.
   */
  admit(request: AdmissionRequestV1): Promise<AdmissionResultV1>;
  /**
   * Commits an attempt's actual cost, releases the rest of its reservation (and the request's slot when asked), and
   * records its ledger row. Idempotent on `attemptId`: a second call for the same attempt changes nothing and
   * answers `duplicate`.
   */
  settle(settlement: SettlementV1): Promise<SettleResultV1>;
  /**
   * Settles every reservation whose deadline passed before `nowMs` (its instance died) as an `orphaned` row at its
   * reserved amount, exactly once even when several instances sweep at the same time, and frees the concurrency slot
   * of every request whose deadline passed with no reservation held (its last settlement never released it). Answers
   * how many reservations it settled.
   */
  sweepOrphans(nowMs: number): Promise<number>;

  /**
   * Queues one request record (facts only, as the operator log line has them) for durable storage, off the request
   * path; kept for the configured retention.
   */
  recordRequest(record: RequestRecordV1): void;
  /**
   * Records an accepted async job (durably, before the client gets its handle) with its reservation. Recording a job
   * again (same tenant, target and provider job id) replaces it: that is how its state and settlement are updated.
   */
  recordJob(job: TrackedJobV1): Promise<void>;
  /** The tenant's tracked job by its provider job id and target, if any. */
  findJob(tenantId: string, targetRef: string, providerJobId: string): Promise<TrackedJobV1 | undefined>;
  /** The tenant's tracked jobs, newest first, narrowed by the query's filters. */
  listJobs(tenantId: string, query: TrackedJobQueryV1): Promise<readonly TrackedJobV1[]>;
  /**
   * Leases up to `limit` due jobs (their `nextPollAtMs` reached on the store's clock, no live lease held) to `owner`
   * until the store's now plus `leaseMs`, oldest due first, in one atomic step: two claimers at once never get the
   * same job (PostgreSQL `FOR UPDATE SKIP LOCKED`; one immediate SQLite transaction in the embedded store). A lease
   * whose holder died expires and its job is claimable again.
   */
  claimDueJobs(claim: TrackedJobClaimV1): Promise<readonly TrackedJobV1[]>;
  /**
   * Records what a poll (or a client's read) saw, and releases the observer's lease. With `owner` set it applies only
   * while `owner` still holds the job (its lease may have lapsed, but nobody took it over); otherwise it answers
   * `lease-lost` and changes nothing. Terminal facts and `settledAtMs`, once recorded, are never cleared.
   */
  observeJob(observation: TrackedJobObservationV1): Promise<'recorded' | 'lease-lost' | 'not-found'>;
  /** Moves `owner`'s leases on these jobs to the store's now plus `leaseMs`; answers how many it still held. */
  extendJobLeases(owner: string, jobs: readonly TrackedJobKeyV1[], leaseMs: number): Promise<number>;
  /** Gives up `owner`'s leases on these jobs (all of its leases when `jobs` is absent) without an observation. */
  releaseJobLeases(owner: string, jobs?: readonly TrackedJobKeyV1[]): Promise<number>;
  /** Appends one webhook delivery attempt to the job's delivery log (the newest {@link JOB_DELIVERY_LOG_LIMIT_V1} kept). */
  appendJobDelivery(job: TrackedJobKeyV1, delivery: TrackedJobDeliveryV1): Promise<void>;

  /** Stores a console session (kept, on every instance, until `expiresAtMs` on the store's clock or deletion). */
  createSession(session: ConsoleSessionV1): Promise<void>;
  /** The session with this id, or `undefined` when there is none or it expired on the store's clock. */
  findSession(id: string): Promise<ConsoleSessionV1 | undefined>;
  /** Ends a session (sign-out); deleting an unknown id changes nothing. */
  deleteSession(id: string): Promise<void>;
  /**
   * How long `address` must wait before its next console sign-in (0: it may try now), on the store's clock: once it
   * has `policy.failuresAllowed` failures within `policy.windowMs`, until the oldest of those leaves the window. Every
   * instance sees the same failures.
   */
  signInRetryAfterMs(address: string, policy: SignInThrottlePolicyV1): Promise<number>;
  /** Counts one failed console sign-in from `address` (on the store's clock); answers the wait after it, as above. */
  recordSignInFailure(address: string, policy: SignInThrottlePolicyV1): Promise<number>;
  /** Forgets the failed sign-ins of `address` (a successful sign-in). */
  clearSignInFailures(address: string): Promise<void>;

  /** Admin verbs: each change bumps the governance version and appends an audit entry. */
  readonly admin: GovernanceAdminV1;

  /** Waits for queued ledger rows to be written (for shutdown and tests), then releases connections. */
  close(): Promise<void>;
}

/** A budget: at most `amountMicros` of `currency` per period. */
export interface BudgetV1 {
  /** The most that may be spent in one period, in millionths of the currency unit. */
  readonly amountMicros: number;
  /** ISO 4217 code (`USD`). Prices in another currency are never charged against it. */
  readonly currency: string;
  /** `day` and `month` reset at 00:00 UTC of the next day or month; `total` never resets. */
  readonly period: 'day' | 'month' | 'total';
}

/** Limits of a tenant or a key; an absent limit does not apply. */
export interface GovernanceLimitsV1 {
  /** Requests admitted per rolling minute. */
  readonly requestsPerMinute?: number;
  /** Input plus output tokens per rolling minute (reserved at admission, corrected at settlement). */
  readonly tokensPerMinute?: number;
  /** Requests in flight at once. */
  readonly concurrentRequests?: number;
  /** Spend per period. */
  readonly budget?: BudgetV1;
}

/** A tenant: the unit limits, budgets, model access and spend belong to. */
export interface TenantRecordV1 {
  /** Stable id (letters, digits, `.`, `_`, `-`). */
  readonly id: string;
  /** Display name. */
  readonly name: string;
  /** Public model names or `*` patterns the tenant may use; empty means none. */
  readonly modelAccess: readonly string[];
  readonly limits: GovernanceLimitsV1;
  /** Epoch milliseconds. */
  readonly createdAtMs: number;
  /** A disabled tenant's keys are refused like revoked ones. */
  readonly disabled: boolean;
}

/** A client key, as stored: never the key itself. */
export interface ClientKeyRecordV1 {
  /** Stable id, shown in the admin API and the operator log. */
  readonly id: string;
  readonly tenantId: string;
  /** HMAC-SHA256 of the key under the server secret, lowercase hex. */
  readonly digest: string;
  /** The first characters of the key, for people to recognise it (`tf-3a9c`). */
  readonly displayPrefix: string;
  readonly createdAtMs: number;
  /** After this instant the key is refused. */
  readonly expiresAtMs?: number;
  /** Set when revoked; a revoked key is refused from the version that revoked it on. */
  readonly revokedAtMs?: number;
  /** Narrows the tenant's model access (never widens it). */
  readonly modelAccess?: readonly string[];
  /** Limits of this key, held in addition to the tenant's. */
  readonly limits?: GovernanceLimitsV1;
}

/** What an instance keeps in memory to authenticate and admit without a database read. */
export interface GovernanceSnapshotV1 {
  /** The governance version this snapshot is. */
  readonly version: number;
  readonly tenants: readonly TenantRecordV1[];
  /** Active and revoked keys alike (a revoked key is refused, not unknown, in the operator log). */
  readonly keys: readonly ClientKeyRecordV1[];
}

/** One attempt asking to be admitted. */
export interface AdmissionRequestV1 {
  /** `<requestId>:<attempt>`: the idempotency key of the reservation and of its ledger row. */
  readonly attemptId: string;
  readonly requestId: string;
  /** 1 for the first attempt, then 2, 3... for retries and fallbacks. */
  readonly attempt: number;
  readonly tenantId: string;
  readonly keyId: string;
  /** The public model name the client asked for (named by the `orphaned` row if the reservation is swept). */
  readonly publicModel: string;
  /** The catalogue target (`<model>#<index>`) this attempt goes to, and its provider label (for the orphaned row). */
  readonly targetRef: string;
  readonly provider: string;
  /** The price table version the reservation was computed with (for the orphaned row). */
  readonly priceVersion: string;
  /** The limits in force (from the snapshot): the store holds to these, it does not look them up. */
  readonly tenantLimits: GovernanceLimitsV1;
  readonly keyLimits?: GovernanceLimitsV1;
  /**
   * The first attempt of a request counts one request in the rate windows and takes a concurrency slot; later
   * attempts of the same request only reserve.
   */
  readonly firstAttempt: boolean;
  /** Tokens reserved in the token windows: input bound plus output ceiling. */
  readonly reservedTokens: number;
  /** Money reserved against the budget, in micro-units of `currency`. */
  readonly reservedMicros: number;
  readonly currency: string;
  /** Epoch milliseconds after which a reservation still held is settled as orphaned. */
  readonly deadlineMs: number;
}

/** The limit a refusal names. */
export type GovernanceRefusalCodeV1 = 'tenant-rate-limit' | 'tenant-token-limit' | 'tenant-concurrency-limit' | 'tenant-budget-exhausted';

/** A limit's state, for the dialect's rate-limit headers. */
export interface LimitStateV1 {
  readonly limit: number;
  readonly remaining: number;
  /** Milliseconds until the window frees what it holds (0 when nothing is held). */
  readonly resetMs: number;
}

/** The request and token windows after an admission (the tighter of tenant and key). */
export interface LimitStatesV1 {
  readonly requests?: LimitStateV1;
  readonly tokens?: LimitStateV1;
}

/** The answer to {@link GovernanceStoreV1.admit}. */
export type AdmissionResultV1 =
  | { readonly kind: 'admitted'; readonly limits: LimitStatesV1 }
  | {
      readonly kind: 'refused';
      readonly code: GovernanceRefusalCodeV1;
      /** Which holder's limit refused. */
      readonly scope: 'tenant' | 'key';
      /** When waiting helps (never for an exhausted `total` budget). */
      readonly retryAfterMs?: number;
      readonly limits: LimitStatesV1;
    }
  /** The store could not be reached: the admit stage's fail-open or fail-closed policy decides. */
  | { readonly kind: 'unavailable' };

/** How a settled amount was arrived at. */
export type SettlementKindV1 =
  /** The actual cost from the usage the provider reported. */
  | 'actual'
  /** Usage never arrived (a stream cut before it): charged at the reservation. */
  | 'estimated'
  /** Nothing was sent or the provider refused before serving: the reservation is released, nothing charged. */
  | 'released'
  /** The instance holding the reservation died: charged at the reservation by a sweeping instance. */
  | 'orphaned';

/** One attempt's settlement and its ledger row. Never a prompt, an output or a key. */
export interface SettlementV1 {
  readonly attemptId: string;
  readonly requestId: string;
  readonly attempt: number;
  readonly tenantId: string;
  readonly keyId: string;
  /** The public model name the client asked for. */
  readonly publicModel: string;
  /** The catalogue target (`<model>#<index>`) and its provider label. */
  readonly targetRef: string;
  readonly provider: string;
  readonly kind: SettlementKindV1;
  /** The usage facts the cost was computed from (absent when none were reported). */
  readonly usage?: UsageV3;
  /** The charged amount in micro-units of `currency` (the reservation for `estimated`, 0 for `released`). */
  readonly costMicros: number;
  readonly currency: string;
  /** The provider-reported cost, kept beside ours. */
  readonly upstreamCost?: ProviderReportedCostV3;
  /** The price table version the cost was computed with. */
  readonly priceVersion: string;
  readonly reservedMicros: number;
  readonly reservedTokens: number;
  /** Tokens actually used (input plus output) where reported; the reservation where `estimated`. */
  readonly usedTokens: number;
  /** The cost exceeded the reservation (still charged in full). */
  readonly overrun: boolean;
  /** `completed`, `failed:<code>`, `cancelled`, ... as in the operator log. */
  readonly outcome: string;
  /** Release the request's concurrency slot with this settlement (its last attempt). */
  readonly releaseSlot: boolean;
  readonly startedAtMs: number;
  readonly settledAtMs: number;
}

/** The answer to {@link GovernanceStoreV1.settle}. */
export type SettleResultV1 =
  | { readonly kind: 'settled' }
  /** This attempt was settled before (by this call's twin or by an orphan sweep). */
  | { readonly kind: 'duplicate' }
  /** The store could not be reached; the caller keeps the settlement and retries it. */
  | { readonly kind: 'unavailable' };

/** One ledger row as read back. */
export interface LedgerRowV1 extends Omit<SettlementV1, 'releaseSlot'> {
  /** Day of `settledAtMs`, UTC, `YYYY-MM-DD`. */
  readonly day: string;
}

/** Spend grouped by the requested dimensions. */
export interface SpendQueryV1 {
  readonly tenantId?: string;
  readonly keyId?: string;
  readonly publicModel?: string;
  /** Inclusive UTC days `YYYY-MM-DD`. */
  readonly fromDay?: string;
  readonly toDay?: string;
  readonly groupBy: readonly ('tenant' | 'key' | 'model' | 'day')[];
}

/** One group of a spend answer. */
export interface SpendGroupV1 {
  readonly tenantId?: string;
  readonly keyId?: string;
  readonly publicModel?: string;
  readonly day?: string;
  readonly currency: string;
  readonly costMicros: number;
  readonly attempts: number;
  readonly inputTokens: number;
  readonly outputTokens: number;
}

/** One audit entry: who changed what, when; never a key. */
export interface AuditEntryV1 {
  readonly version: number;
  readonly atMs: number;
  /** The admin identity (`admin` for the admin key). */
  readonly actor: string;
  /** `tenant.create`, `key.revoke`, ... */
  readonly action: string;
  readonly subject: string;
  /** The changed fields (no secret ever). */
  readonly detail: Readonly<Record<string, unknown>>;
}

/** What a change created. */
export interface GovernanceChangeV1<T> {
  readonly version: number;
  readonly value: T;
}

/**
 * The admin verbs. A create whose id exists is refused with a `GovernanceStoreErrorV1` of code `conflict`, a key of
 * an unknown tenant with `not-found`; a refused verb changes nothing.
 */
export interface GovernanceAdminV1 {
  createTenant(tenant: Omit<TenantRecordV1, 'createdAtMs'>, actor: string): Promise<GovernanceChangeV1<TenantRecordV1>>;
  updateTenant(
    id: string,
    patch: Partial<Pick<TenantRecordV1, 'name' | 'modelAccess' | 'limits' | 'disabled'>>,
    actor: string,
  ): Promise<GovernanceChangeV1<TenantRecordV1> | undefined>;
  listTenants(): Promise<readonly TenantRecordV1[]>;
  /** The key's digest and prefix are computed by the caller; the store never sees the key. */
  createKey(key: Omit<ClientKeyRecordV1, 'createdAtMs' | 'revokedAtMs'>, actor: string): Promise<GovernanceChangeV1<ClientKeyRecordV1>>;
  updateKey(
    id: string,
    patch: Partial<Pick<ClientKeyRecordV1, 'modelAccess' | 'limits' | 'expiresAtMs'>>,
    actor: string,
  ): Promise<GovernanceChangeV1<ClientKeyRecordV1> | undefined>;
  revokeKey(id: string, actor: string): Promise<GovernanceChangeV1<ClientKeyRecordV1> | undefined>;
  listKeys(tenantId?: string): Promise<readonly ClientKeyRecordV1[]>;
  /** Spend from the ledger; every settlement answered before the call is included. */
  spend(query: SpendQueryV1): Promise<readonly SpendGroupV1[]>;
  /** Ledger rows, newest `settledAtMs` first; every settlement answered before the call is included. */
  ledger(query: { readonly tenantId?: string; readonly keyId?: string; readonly limit: number }): Promise<readonly LedgerRowV1[]>;
  audit(limit: number): Promise<readonly AuditEntryV1[]>;
  /** Recent request records (within their retention), newest first; every record queued before the call included. */
  requests(query: { readonly tenantId?: string; readonly limit: number }): Promise<readonly RequestRecordV1[]>;
  /** One request record by its request id (within its retention), or `undefined`; a record queued before the call is found. */
  request(requestId: string): Promise<RequestRecordV1 | undefined>;
  /** Current use of each limit of a tenant and its keys (for the console). */
  limitUse(tenantId: string): Promise<LimitUseV1>;
}

/**
 * Current use of a tenant's limits. A window is counted only while its limit applies: a holder without a requests
 * (tokens) limit reports 0 requests (tokens) in the last minute.
 */
export interface LimitUseV1 {
  readonly tenantId: string;
  readonly requestsLastMinute: number;
  readonly tokensLastMinute: number;
  readonly inFlight: number;
  /** Spent plus reserved in the current budget period. */
  readonly budgetSpentMicros: number;
  readonly budgetReservedMicros: number;
  readonly keys: readonly { readonly keyId: string; readonly requestsLastMinute: number; readonly tokensLastMinute: number; readonly inFlight: number }[];
}

/** One request as the store keeps it: the operator log line's facts, never a prompt, an output or a key. */
export interface RequestRecordV1 {
  readonly requestId: string;
  readonly tenantId?: string;
  readonly keyId?: string;
  readonly route: string;
  readonly publicModel?: string;
  readonly status: number;
  /** `completed`, `failed:<code>`, `refused:<code>`, `cancelled`, ... */
  readonly outcome: string;
  /** The attempts, in the order they were made (none for a request refused before routing). */
  readonly attempts: readonly RequestAttemptRecordV1[];
  readonly totalMs: number;
  readonly timeToFirstByteMs?: number;
  readonly atMs: number;
}

/**
 * One attempt of a request at one target. Never a prompt, an output, a key or a provider's error body. The fields
 * after `outcome` are absent in records written before they existed.
 */
export interface RequestAttemptRecordV1 {
  /** The catalogue target (`<model>#<index>`). */
  readonly targetRef: string;
  /** The target's provider label. */
  readonly provider: string;
  /** `ok`, a normalized failure code (`rate-limited`, `overloaded`, ...), or an engine error code. */
  readonly outcome: string;
  /** 1 for the first attempt, then 2, 3... */
  readonly attempt?: number;
  /** The target's protocol family (`openai-chat/v1`). */
  readonly family?: string;
  /**
   * Why a failed attempt failed, for operators: the codec rule that refused and where (a JSON path or an SSE line),
   * the transport stage and reason, the wait the provider asked for, the provider's request id. Built only from
   * closed codes and the engine's host-private diagnostics, which never carry the offending value.
   */
  readonly diagnostic?: string;
  /** When the attempt started (epoch milliseconds). */
  readonly startedAtMs?: number;
  /** From the attempt's start to the first byte sent to the client; absent when the attempt sent none. */
  readonly timeToFirstByteMs?: number;
  /** From the attempt's start to its end (the stream's end for a streamed answer). */
  readonly durationMs?: number;
}

/** An async job the gateway accepted (or found by unknown-create recovery), owned by one tenant. */
export interface TrackedJobV1 {
  readonly tenantId: string;
  readonly keyId: string;
  readonly publicModel: string;
  readonly targetRef: string;
  readonly providerJobId: string;
  /** The owner-tagged idempotency key sent with the create. */
  readonly idempotencyKey?: string;
  /** The reservation's attempt id: the job settles once, under this id. */
  readonly attemptId: string;
  readonly reservedMicros: number;
  readonly currency: string;
  readonly createdAtMs: number;
  /** `queued`, `running`, `succeeded`, `failed`, `cancelled`, `unknown`: the last observed state. */
  readonly state: string;
  /** Set once the terminal state was settled. */
  readonly settledAtMs?: number;
  /** Progress from 0 to 1 at the last observation, when the provider reports it. */
  readonly progress?: number;
  /** When the gateway last heard the provider about this job (store clock, epoch milliseconds). */
  readonly lastObservedAtMs?: number;
  /** When the poller should next ask the provider; absent when nobody polls it any more (terminal, or retention over). */
  readonly nextPollAtMs?: number;
  /** Polls made so far (by the poller and by clients' reads). */
  readonly pollAttempts?: number;
  /** What the terminal observation said (set once, never cleared). */
  readonly terminal?: TrackedJobTerminalV1;
  /** Where state changes are delivered as signed webhook events (checked by the address policy at create). */
  readonly callbackUrl?: string;
  /** The newest webhook delivery attempts, oldest first (at most {@link JOB_DELIVERY_LOG_LIMIT_V1}). */
  readonly deliveries?: readonly TrackedJobDeliveryV1[];
}

/** How many delivery attempts a job's log keeps. */
export const JOB_DELIVERY_LOG_LIMIT_V1 = 20;

/** Names one tracked job: its tenant, target and provider job id. */
export interface TrackedJobKeyV1 {
  readonly tenantId: string;
  readonly targetRef: string;
  readonly providerJobId: string;
}

/** One result asset of a finished job. */
export interface TrackedJobMediaV1 {
  readonly type: 'video' | 'image';
  /** The provider's URL (https, no userinfo). */
  readonly url: string;
  readonly durationSeconds?: number;
  /** When the provider's URL stops working, where the provider states it (epoch milliseconds). */
  readonly expiresAtMs?: number;
  /** The key of the gateway's copy in its media store (`jobs.media`), when one was made. */
  readonly storedKey?: string;
}

/** What the terminal observation of a job said. */
export interface TrackedJobTerminalV1 {
  /** When the provider says the job finished, else when the gateway saw it finished (epoch milliseconds). */
  readonly finishedAtMs: number;
  readonly media?: readonly TrackedJobMediaV1[];
  /** The normalized failure code of a `failed` job. */
  readonly failureCode?: string;
  /** Usage the provider reported. */
  readonly usage?: UsageV1;
}

/** Filters of {@link GovernanceStoreV1.listJobs}; each absent filter does not apply. */
export interface TrackedJobQueryV1 {
  readonly targetRef?: string;
  readonly publicModel?: string;
  readonly state?: string;
  /** Jobs created at or after this instant (epoch milliseconds). */
  readonly createdFromMs?: number;
  /** Jobs created before this instant (epoch milliseconds). */
  readonly createdBeforeMs?: number;
  /**
   * Paging: only jobs after this one in the list's order (newest first; ties by target, then provider job id, both
   * descending). Pass the last job of the previous page.
   */
  readonly after?: Omit<TrackedJobKeyV1, 'tenantId'> & { readonly createdAtMs: number };
  readonly limit: number;
}

/** A poller asking for due jobs. */
export interface TrackedJobClaimV1 {
  /** The claiming poller (one id per gateway process), written on each leased row. */
  readonly owner: string;
  /** How long the lease lasts on the store's clock. */
  readonly leaseMs: number;
  /** At most this many jobs. */
  readonly limit: number;
}

/** What one poll saw. */
export interface TrackedJobObservationV1 extends TrackedJobKeyV1 {
  /** The lease holder that polled; absent for a read outside the poller (a client's GET), which always applies. */
  readonly owner?: string;
  /** The state the gateway now holds (`unknown` for a job past its polling plan). */
  readonly state: string;
  readonly progress?: number;
  readonly observedAtMs: number;
  /** The next poll; absent stops polling. */
  readonly nextPollAtMs?: number;
  /** The job's poll count after this poll. */
  readonly pollAttempts: number;
  /** Set by the terminal observation. */
  readonly terminal?: TrackedJobTerminalV1;
  /** Set once the terminal state was settled. */
  readonly settledAtMs?: number;
}

/** One webhook delivery attempt, as the delivery log keeps it (never the secret or the body). */
export interface TrackedJobDeliveryV1 {
  /** The event id (`webhook-id`): the same for every retry of one event. */
  readonly eventId: string;
  /** The job state the event announced. */
  readonly state: string;
  /** 1 for the first try of an event, then 2, 3... */
  readonly attempt: number;
  readonly atMs: number;
  /** `delivered` (a 2xx answer), `failed` (another answer or no answer; retried), `abandoned` (retries exhausted). */
  readonly outcome: 'delivered' | 'failed' | 'abandoned';
  /** The receiver's HTTP status, when it answered. */
  readonly status?: number;
  /** Why it failed without an answer (`timeout`, `connection`, `redirect`, `address-policy`). */
  readonly reason?: string;
}

/** How failed console sign-ins are throttled per client address. */
export interface SignInThrottlePolicyV1 {
  /** Failures allowed within `windowMs` before the address must wait. */
  readonly failuresAllowed: number;
  /** The window failures are counted in, in milliseconds. */
  readonly windowMs: number;
}

/** An operator console session, created by a sign-in with the admin key. */
export interface ConsoleSessionV1 {
  /** The SHA-256 digest (hex) of the session cookie's value: the cookie itself is never stored. */
  readonly id: string;
  /** The token every change must carry in the `X-CSRF-Token` header (random, 32 bytes as base64url). */
  readonly csrfToken: string;
  /** When the session was created (epoch milliseconds, the store's clock). */
  readonly createdAtMs: number;
  /** When the session stops being found (epoch milliseconds, the store's clock). */
  readonly expiresAtMs: number;
}
