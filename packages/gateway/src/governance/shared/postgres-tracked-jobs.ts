import type { Pool } from 'pg';
import {
  JOB_DELIVERY_LOG_LIMIT_V1,
  type TrackedJobClaimV1,
  type TrackedJobDeliveryV1,
  type TrackedJobKeyV1,
  type TrackedJobObservationV1,
  type TrackedJobQueryV1,
  type TrackedJobV1,
} from '../v1/governance-store-v1.js';

type Row = Record<string, unknown>;

const optionalNumber = (value: unknown): number | undefined => (value === null || value === undefined ? undefined : Number(value));

function jobFromRow(row: Row): TrackedJobV1 {
  const optional: [keyof TrackedJobV1, unknown][] = [
    ['idempotencyKey', row.idempotency_key ?? undefined],
    ['settledAtMs', optionalNumber(row.settled_at_ms)],
    ['progress', optionalNumber(row.progress)],
    ['lastObservedAtMs', optionalNumber(row.last_observed_at_ms)],
    ['nextPollAtMs', optionalNumber(row.next_poll_at_ms)],
    ['pollAttempts', optionalNumber(row.poll_attempts)],
    ['terminal', row.terminal ?? undefined],
    ['callbackUrl', row.callback_url ?? undefined],
    ['deliveries', row.deliveries ?? undefined],
  ];
  return {
    tenantId: row.tenant_id as string,
    keyId: row.key_id as string,
    publicModel: row.public_model as string,
    targetRef: row.target_ref as string,
    providerJobId: row.provider_job_id as string,
    attemptId: row.attempt_id as string,
    reservedMicros: Number(row.reserved_micros),
    currency: row.currency as string,
    createdAtMs: Number(row.created_at_ms),
    state: row.state as string,
    ...Object.fromEntries(optional.filter(([, value]) => value !== undefined)),
  };
}

/** The store's clock in SQL: the test clock when one is set, else PostgreSQL's own (one clock for every instance). */
const NOW = `COALESCE($1::bigint, (extract(epoch from clock_timestamp()) * 1000)::bigint)`;
const KEY_COLUMNS = '(tenant_id, target_ref, provider_job_id)';

/**
 * Tracked jobs in PostgreSQL (migration 2 adds the poll schedule, terminal facts, delivery log and lease columns).
 * Claims lock due rows with `FOR UPDATE SKIP LOCKED` and lease them in the same statement, so concurrent claimers
 * from any number of instances never get the same job; a lease is a `lease_until_ms` on the database clock, so a
 * dead instance's leases expire without anyone telling anyone.
 */
export class PostgresTrackedJobs {
  readonly #pool: Pool;
  readonly #clock: (() => number) | undefined;

  constructor(pool: Pool, clock: (() => number) | undefined) {
    this.#pool = pool;
    this.#clock = clock;
  }

  #now(): number | null {
    return this.#clock === undefined ? null : Math.floor(this.#clock());
  }

  async upsert(job: TrackedJobV1): Promise<void> {
    await this.#pool.query(
      `INSERT INTO governance_tracked_jobs (tenant_id, target_ref, provider_job_id, key_id, public_model, idempotency_key, attempt_id,
         reserved_micros, currency, created_at_ms, state, settled_at_ms, progress, last_observed_at_ms, next_poll_at_ms, poll_attempts,
         terminal, callback_url, deliveries)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19)
       ON CONFLICT ${KEY_COLUMNS} DO UPDATE SET key_id = EXCLUDED.key_id, public_model = EXCLUDED.public_model,
         idempotency_key = EXCLUDED.idempotency_key, attempt_id = EXCLUDED.attempt_id, reserved_micros = EXCLUDED.reserved_micros,
         currency = EXCLUDED.currency, created_at_ms = EXCLUDED.created_at_ms, state = EXCLUDED.state, settled_at_ms = EXCLUDED.settled_at_ms,
         progress = EXCLUDED.progress, last_observed_at_ms = EXCLUDED.last_observed_at_ms, next_poll_at_ms = EXCLUDED.next_poll_at_ms,
         poll_attempts = EXCLUDED.poll_attempts, terminal = EXCLUDED.terminal, callback_url = EXCLUDED.callback_url,
         deliveries = EXCLUDED.deliveries`,
      [
        job.tenantId, job.targetRef, job.providerJobId, job.keyId, job.publicModel, job.idempotencyKey ?? null, job.attemptId,
        job.reservedMicros, job.currency, job.createdAtMs, job.state, job.settledAtMs ?? null, job.progress ?? null,
        job.lastObservedAtMs ?? null, job.nextPollAtMs ?? null, job.pollAttempts ?? null,
        job.terminal === undefined ? null : JSON.stringify(job.terminal), job.callbackUrl ?? null,
        job.deliveries === undefined ? null : JSON.stringify(job.deliveries),
      ],
    );
  }

  async get(key: TrackedJobKeyV1): Promise<TrackedJobV1 | undefined> {
    const result = await this.#pool.query(`SELECT * FROM governance_tracked_jobs WHERE ${KEY_COLUMNS} = ($1, $2, $3)`, [
      key.tenantId,
      key.targetRef,
      key.providerJobId,
    ]);
    return result.rows[0] === undefined ? undefined : jobFromRow(result.rows[0]);
  }

  async list(tenantId: string, query: TrackedJobQueryV1): Promise<readonly TrackedJobV1[]> {
    const where = ['tenant_id = $1'];
    const values: unknown[] = [tenantId];
    const filters: [string | number | undefined, string][] = [
      [query.targetRef, 'target_ref ='],
      [query.publicModel, 'public_model ='],
      [query.state, 'state ='],
      [query.createdFromMs, 'created_at_ms >='],
      [query.createdBeforeMs, 'created_at_ms <'],
    ];
    for (const [value, clause] of filters) {
      if (value === undefined) continue;
      values.push(value);
      where.push(`${clause} $${values.length}`);
    }
    if (query.after !== undefined) {
      values.push(query.after.createdAtMs, query.after.targetRef, query.after.providerJobId);
      where.push(`(created_at_ms, target_ref, provider_job_id) < ($${values.length - 2}, $${values.length - 1}, $${values.length})`);
    }
    values.push(query.limit);
    const sql = `SELECT * FROM governance_tracked_jobs WHERE ${where.join(' AND ')} ORDER BY created_at_ms DESC, target_ref DESC, provider_job_id DESC LIMIT $${values.length}`;
    return (await this.#pool.query(sql, values)).rows.map(jobFromRow);
  }

  async claim(claim: TrackedJobClaimV1): Promise<readonly TrackedJobV1[]> {
    const result = await this.#pool.query(
      `WITH due AS (
         SELECT tenant_id, target_ref, provider_job_id FROM governance_tracked_jobs
         WHERE next_poll_at_ms IS NOT NULL AND next_poll_at_ms <= ${NOW} AND (lease_until_ms IS NULL OR lease_until_ms <= ${NOW})
         ORDER BY next_poll_at_ms LIMIT $2 FOR UPDATE SKIP LOCKED)
       UPDATE governance_tracked_jobs AS job SET lease_owner = $3, lease_until_ms = ${NOW} + $4
       FROM due WHERE ${KEY_COLUMNS.replace(/(\w+)/g, 'job.$1')} = (due.tenant_id, due.target_ref, due.provider_job_id)
       RETURNING job.*`,
      [this.#now(), claim.limit, claim.owner, claim.leaseMs],
    );
    return result.rows.map(jobFromRow).sort((a, b) => (a.nextPollAtMs ?? 0) - (b.nextPollAtMs ?? 0));
  }

  async observe(observation: TrackedJobObservationV1): Promise<'recorded' | 'lease-lost' | 'not-found'> {
    const released = observation.owner !== undefined;
    const result = await this.#pool.query(
      `UPDATE governance_tracked_jobs SET state = $5, progress = COALESCE($6, progress), last_observed_at_ms = $7,
         next_poll_at_ms = $8, poll_attempts = $9, terminal = COALESCE(terminal, $10::jsonb), settled_at_ms = COALESCE(settled_at_ms, $11),
         lease_owner = CASE WHEN $12 THEN NULL ELSE lease_owner END, lease_until_ms = CASE WHEN $12 THEN NULL ELSE lease_until_ms END
       WHERE ${KEY_COLUMNS} = ($1, $2, $3) AND ($4::text IS NULL OR lease_owner = $4)`,
      [
        observation.tenantId, observation.targetRef, observation.providerJobId, observation.owner ?? null, observation.state,
        observation.progress ?? null, observation.observedAtMs, observation.nextPollAtMs ?? null, observation.pollAttempts,
        observation.terminal === undefined ? null : JSON.stringify(observation.terminal), observation.settledAtMs ?? null, released,
      ],
    );
    if (result.rowCount === 1) return 'recorded';
    return (await this.get(observation)) === undefined ? 'not-found' : 'lease-lost';
  }

  async extend(owner: string, jobs: readonly TrackedJobKeyV1[], leaseMs: number): Promise<number> {
    if (jobs.length === 0) return 0;
    const result = await this.#pool.query(
      `UPDATE governance_tracked_jobs SET lease_until_ms = ${NOW} + $3
       WHERE lease_owner = $2 AND ${KEY_COLUMNS} IN (SELECT * FROM jsonb_to_recordset($4::jsonb) AS k(tenant_id text, target_ref text, provider_job_id text))`,
      [this.#now(), owner, leaseMs, JSON.stringify(jobs.map(keyRecord))],
    );
    return result.rowCount ?? 0;
  }

  async release(owner: string, jobs: readonly TrackedJobKeyV1[] | undefined): Promise<number> {
    const result =
      jobs === undefined
        ? await this.#pool.query('UPDATE governance_tracked_jobs SET lease_owner = NULL, lease_until_ms = NULL WHERE lease_owner = $1', [owner])
        : await this.#pool.query(
            `UPDATE governance_tracked_jobs SET lease_owner = NULL, lease_until_ms = NULL
             WHERE lease_owner = $1 AND ${KEY_COLUMNS} IN (SELECT * FROM jsonb_to_recordset($2::jsonb) AS k(tenant_id text, target_ref text, provider_job_id text))`,
            [owner, JSON.stringify(jobs.map(keyRecord))],
          );
    return result.rowCount ?? 0;
  }

  async appendDelivery(key: TrackedJobKeyV1, delivery: TrackedJobDeliveryV1): Promise<void> {
    // One statement: appends, then keeps the newest entries (jsonb arrays index from 0; a negative start counts from the end).
    await this.#pool.query(
      `UPDATE governance_tracked_jobs SET deliveries = (
         SELECT jsonb_agg(entry ORDER BY position) FROM (
           SELECT entry, position FROM jsonb_array_elements(COALESCE(deliveries, '[]'::jsonb) || jsonb_build_array($4::jsonb))
             WITH ORDINALITY AS item(entry, position)
           ORDER BY position DESC LIMIT $5) AS newest)
       WHERE ${KEY_COLUMNS} = ($1, $2, $3)`,
      [key.tenantId, key.targetRef, key.providerJobId, JSON.stringify(delivery), JOB_DELIVERY_LOG_LIMIT_V1],
    );
  }
}

const keyRecord = (job: TrackedJobKeyV1) => ({ tenant_id: job.tenantId, target_ref: job.targetRef, provider_job_id: job.providerJobId });
