import type Database from 'better-sqlite3';
import {
  JOB_DELIVERY_LOG_LIMIT_V1,
  type TrackedJobClaimV1,
  type TrackedJobDeliveryV1,
  type TrackedJobKeyV1,
  type TrackedJobObservationV1,
  type TrackedJobQueryV1,
  type TrackedJobV1,
} from '../v1/governance-store-v1.js';

/**
 * The embedded store's second migration: the poll schedule and the lease of each tracked job as columns beside its
 * JSON body, so claims are an indexed range read. The lease lives only in the columns: recording a job again never
 * touches who holds it.
 */
export const TRACKED_JOB_LEASE_MIGRATION = `
  ALTER TABLE tracked_jobs ADD COLUMN next_poll_at_ms INTEGER;
  ALTER TABLE tracked_jobs ADD COLUMN lease_owner TEXT;
  ALTER TABLE tracked_jobs ADD COLUMN lease_until_ms INTEGER;
  CREATE INDEX tracked_jobs_due ON tracked_jobs (next_poll_at_ms) WHERE next_poll_at_ms IS NOT NULL;`;

type KeyArguments = [string, string, string];
const keyOf = (job: TrackedJobKeyV1): KeyArguments => [job.tenantId, job.targetRef, job.providerJobId];
const WHERE_KEY = 'tenant_id = ? AND target_ref = ? AND provider_job_id = ?';

/**
 * Tracked jobs in the embedded SQLite database: rows, filters, leases and observations. Every read-modify-write runs
 * in one `BEGIN IMMEDIATE` transaction, so even two processes on one data directory never lease one job twice.
 */
export class TrackedJobTable {
  readonly #db: Database.Database;
  readonly #statements;

  constructor(db: Database.Database) {
    this.#db = db;
    this.#statements = {
      put: db.prepare<[string, string, string, number, number | null, string]>(
        `INSERT INTO tracked_jobs (tenant_id, target_ref, provider_job_id, created_at_ms, next_poll_at_ms, body) VALUES (?, ?, ?, ?, ?, ?)
         ON CONFLICT (tenant_id, target_ref, provider_job_id) DO UPDATE SET body = excluded.body, created_at_ms = excluded.created_at_ms,
           next_poll_at_ms = excluded.next_poll_at_ms`,
      ),
      get: db.prepare<KeyArguments, { body: string; lease_owner: string | null }>(`SELECT body, lease_owner FROM tracked_jobs WHERE ${WHERE_KEY}`),
      due: db.prepare<[number, number, number], { tenant_id: string; target_ref: string; provider_job_id: string; body: string }>(
        `SELECT tenant_id, target_ref, provider_job_id, body FROM tracked_jobs
         WHERE next_poll_at_ms IS NOT NULL AND next_poll_at_ms <= ? AND (lease_until_ms IS NULL OR lease_until_ms <= ?)
         ORDER BY next_poll_at_ms LIMIT ?`,
      ),
      lease: db.prepare<[string, number, ...KeyArguments]>(`UPDATE tracked_jobs SET lease_owner = ?, lease_until_ms = ? WHERE ${WHERE_KEY}`),
      extend: db.prepare<[number, string, ...KeyArguments]>(`UPDATE tracked_jobs SET lease_until_ms = ? WHERE lease_owner = ? AND ${WHERE_KEY}`),
      release: db.prepare<[string, ...KeyArguments]>(`UPDATE tracked_jobs SET lease_owner = NULL, lease_until_ms = NULL WHERE lease_owner = ? AND ${WHERE_KEY}`),
      releaseAll: db.prepare<[string]>('UPDATE tracked_jobs SET lease_owner = NULL, lease_until_ms = NULL WHERE lease_owner = ?'),
      observe: db.prepare<[string, number | null, number, number, ...KeyArguments]>(
        `UPDATE tracked_jobs SET body = ?, next_poll_at_ms = ?,
           lease_owner = CASE WHEN ? THEN NULL ELSE lease_owner END, lease_until_ms = CASE WHEN ? THEN NULL ELSE lease_until_ms END
         WHERE ${WHERE_KEY}`,
      ),
      setBody: db.prepare<[string, ...KeyArguments]>(`UPDATE tracked_jobs SET body = ? WHERE ${WHERE_KEY}`),
    };
  }

  put(job: TrackedJobV1): void {
    this.#statements.put.run(job.tenantId, job.targetRef, job.providerJobId, job.createdAtMs, job.nextPollAtMs ?? null, JSON.stringify(job));
  }

  get(key: TrackedJobKeyV1): TrackedJobV1 | undefined {
    const row = this.#statements.get.get(...keyOf(key));
    return row === undefined ? undefined : (JSON.parse(row.body) as TrackedJobV1);
  }

  list(tenantId: string, query: TrackedJobQueryV1): TrackedJobV1[] {
    const where = ['tenant_id = ?'];
    const values: (string | number)[] = [tenantId];
    const filters: [string | number | undefined, string][] = [
      [query.targetRef, 'target_ref = ?'],
      [query.publicModel, "json_extract(body, '$.publicModel') = ?"],
      [query.state, "json_extract(body, '$.state') = ?"],
      [query.createdFromMs, 'created_at_ms >= ?'],
      [query.createdBeforeMs, 'created_at_ms < ?'],
    ];
    for (const [value, clause] of filters) {
      if (value === undefined) continue;
      where.push(clause);
      values.push(value);
    }
    if (query.after !== undefined) {
      where.push('(created_at_ms, target_ref, provider_job_id) < (?, ?, ?)');
      values.push(query.after.createdAtMs, query.after.targetRef, query.after.providerJobId);
    }
    const sql = `SELECT body FROM tracked_jobs WHERE ${where.join(' AND ')} ORDER BY created_at_ms DESC, target_ref DESC, provider_job_id DESC LIMIT ?`;
    return this.#db
      .prepare<(string | number)[], { body: string }>(sql)
      .all(...values, query.limit)
      .map((row) => JSON.parse(row.body) as TrackedJobV1);
  }

  claim(claim: TrackedJobClaimV1, nowMs: number): TrackedJobV1[] {
    return this.#db
      .transaction(() => {
        const rows = this.#statements.due.all(nowMs, nowMs, claim.limit);
        for (const row of rows) this.#statements.lease.run(claim.owner, nowMs + claim.leaseMs, row.tenant_id, row.target_ref, row.provider_job_id);
        return rows.map((row) => JSON.parse(row.body) as TrackedJobV1);
      })
      .immediate();
  }

  observe(observation: TrackedJobObservationV1): 'recorded' | 'lease-lost' | 'not-found' {
    return this.#db
      .transaction(() => {
        const row = this.#statements.get.get(...keyOf(observation));
        if (row === undefined) return 'not-found' as const;
        if (observation.owner !== undefined && row.lease_owner !== observation.owner) return 'lease-lost' as const;
        const job = JSON.parse(row.body) as TrackedJobV1;
        const { nextPollAtMs: _previousPoll, ...rest } = job;
        const terminal = job.terminal ?? observation.terminal;
        const settledAtMs = job.settledAtMs ?? observation.settledAtMs;
        const progress = observation.progress ?? job.progress;
        const next: TrackedJobV1 = {
          ...rest,
          state: observation.state,
          lastObservedAtMs: observation.observedAtMs,
          pollAttempts: observation.pollAttempts,
          ...(progress === undefined ? {} : { progress }),
          ...(observation.nextPollAtMs === undefined ? {} : { nextPollAtMs: observation.nextPollAtMs }),
          ...(terminal === undefined ? {} : { terminal }),
          ...(settledAtMs === undefined ? {} : { settledAtMs }),
        };
        this.#statements.observe.run(JSON.stringify(next), observation.nextPollAtMs ?? null, observation.owner === undefined ? 0 : 1, observation.owner === undefined ? 0 : 1, ...keyOf(observation));
        return 'recorded' as const;
      })
      .immediate();
  }

  extend(owner: string, jobs: readonly TrackedJobKeyV1[], untilMs: number): number {
    return this.#db.transaction(() => jobs.reduce((held, job) => held + this.#statements.extend.run(untilMs, owner, ...keyOf(job)).changes, 0)).immediate();
  }

  release(owner: string, jobs: readonly TrackedJobKeyV1[] | undefined): number {
    if (jobs === undefined) return this.#statements.releaseAll.run(owner).changes;
    return this.#db.transaction(() => jobs.reduce((held, job) => held + this.#statements.release.run(owner, ...keyOf(job)).changes, 0)).immediate();
  }

  appendDelivery(key: TrackedJobKeyV1, delivery: TrackedJobDeliveryV1): void {
    this.#db
      .transaction(() => {
        const job = this.get(key);
        if (job === undefined) return;
        const deliveries = [...(job.deliveries ?? []), delivery].slice(-JOB_DELIVERY_LOG_LIMIT_V1);
        this.#statements.setBody.run(JSON.stringify({ ...job, deliveries }), ...keyOf(key));
      })
      .immediate();
  }
}
