import type { Pool } from 'pg';

/** One numbered schema change; applied once, in order, never edited after release (a change is a new number). */
export interface GovernanceMigrationV1 {
  readonly version: number;
  readonly name: string;
  readonly sql: string;
}

/** The durable governance schema in PostgreSQL. */
export const GOVERNANCE_MIGRATIONS: readonly GovernanceMigrationV1[] = [
  {
    version: 1,
    name: 'tenants, keys, audit, governance version, price versions, ledger, request records, tracked jobs',
    sql: `
CREATE TABLE governance_version (id smallint PRIMARY KEY CHECK (id = 1), version bigint NOT NULL);
INSERT INTO governance_version (id, version) VALUES (1, 0);
CREATE TABLE governance_tenants (
  id text PRIMARY KEY, name text NOT NULL, model_access jsonb NOT NULL, limits jsonb NOT NULL,
  created_at_ms bigint NOT NULL, disabled boolean NOT NULL);
CREATE TABLE governance_keys (
  id text PRIMARY KEY, tenant_id text NOT NULL REFERENCES governance_tenants (id), digest text NOT NULL UNIQUE,
  display_prefix text NOT NULL, created_at_ms bigint NOT NULL, expires_at_ms bigint, revoked_at_ms bigint,
  model_access jsonb, limits jsonb);
CREATE INDEX governance_keys_tenant ON governance_keys (tenant_id);
CREATE TABLE governance_audit (
  version bigint PRIMARY KEY, at_ms bigint NOT NULL, actor text NOT NULL, action text NOT NULL, subject text NOT NULL,
  detail jsonb NOT NULL);
CREATE TABLE governance_price_versions (
  id text PRIMARY KEY, target_ref text NOT NULL, currency text NOT NULL, prices jsonb NOT NULL,
  created_at_ms bigint NOT NULL);
CREATE TABLE governance_ledger (
  attempt_id text PRIMARY KEY, request_id text NOT NULL, attempt integer NOT NULL, tenant_id text NOT NULL,
  key_id text NOT NULL, public_model text NOT NULL, target_ref text NOT NULL, provider text NOT NULL, kind text NOT NULL,
  usage jsonb, cost_micros bigint NOT NULL, currency text NOT NULL, upstream_cost jsonb, price_version text NOT NULL,
  reserved_micros bigint NOT NULL, reserved_tokens bigint NOT NULL, used_tokens bigint NOT NULL, overrun boolean NOT NULL,
  outcome text NOT NULL, started_at_ms bigint NOT NULL, settled_at_ms bigint NOT NULL, day date NOT NULL);
CREATE INDEX governance_ledger_tenant_day ON governance_ledger (tenant_id, day);
CREATE INDEX governance_ledger_key_day ON governance_ledger (key_id, day);
CREATE INDEX governance_ledger_model_day ON governance_ledger (public_model, day);
CREATE INDEX governance_ledger_settled ON governance_ledger (settled_at_ms DESC);
CREATE TABLE governance_request_records (
  request_id text PRIMARY KEY, tenant_id text, key_id text, route text NOT NULL, public_model text,
  status integer NOT NULL, outcome text NOT NULL, attempts jsonb NOT NULL, total_ms double precision NOT NULL,
  time_to_first_byte_ms double precision, at_ms bigint NOT NULL);
CREATE INDEX governance_request_records_at ON governance_request_records (at_ms);
CREATE INDEX governance_request_records_tenant_at ON governance_request_records (tenant_id, at_ms);
CREATE TABLE governance_tracked_jobs (
  tenant_id text NOT NULL, target_ref text NOT NULL, provider_job_id text NOT NULL, key_id text NOT NULL,
  public_model text NOT NULL, idempotency_key text, attempt_id text NOT NULL, reserved_micros bigint NOT NULL,
  currency text NOT NULL, created_at_ms bigint NOT NULL, state text NOT NULL, settled_at_ms bigint,
  PRIMARY KEY (tenant_id, target_ref, provider_job_id));
CREATE INDEX governance_tracked_jobs_tenant_created ON governance_tracked_jobs (tenant_id, created_at_ms DESC);
`,
  },
  {
    version: 2,
    name: 'operator console sessions',
    sql: `
CREATE TABLE governance_console_sessions (
  id text PRIMARY KEY, csrf_token text NOT NULL, created_at_ms bigint NOT NULL, expires_at_ms bigint NOT NULL);
CREATE INDEX governance_console_sessions_expiry ON governance_console_sessions (expires_at_ms);
`,
  },
  {
    version: 3,
    name: 'tracked jobs: poll schedule, terminal facts, callback, delivery log, leases',
    sql: `
ALTER TABLE governance_tracked_jobs
  ADD COLUMN progress double precision, ADD COLUMN last_observed_at_ms bigint, ADD COLUMN next_poll_at_ms bigint,
  ADD COLUMN poll_attempts integer, ADD COLUMN terminal jsonb, ADD COLUMN callback_url text, ADD COLUMN deliveries jsonb,
  ADD COLUMN lease_owner text, ADD COLUMN lease_until_ms bigint;
CREATE INDEX governance_tracked_jobs_due ON governance_tracked_jobs (next_poll_at_ms) WHERE next_poll_at_ms IS NOT NULL;
CREATE INDEX governance_tracked_jobs_tenant_state ON governance_tracked_jobs (tenant_id, state, created_at_ms DESC);
`,
  },
];

/** The advisory lock every instance takes to migrate (an arbitrary constant, the same in every instance). */
export const GOVERNANCE_MIGRATION_LOCK = '7406551223';

/**
 * Applies the migrations this database lacks, in order, each in its own transaction, under a session-level
 * `pg_advisory_lock`: when several instances start at once one migrates and the others wait, then find nothing to do.
 * Answers the versions this call applied.
 */
export async function applyGovernanceMigrations(
  pool: Pool,
  migrations: readonly GovernanceMigrationV1[] = GOVERNANCE_MIGRATIONS,
): Promise<readonly number[]> {
  const client = await pool.connect();
  try {
    await client.query('SELECT pg_advisory_lock($1)', [GOVERNANCE_MIGRATION_LOCK]);
    try {
      await client.query(
        'CREATE TABLE IF NOT EXISTS governance_migrations (version integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())',
      );
      const done = new Set((await client.query<{ version: number }>('SELECT version FROM governance_migrations')).rows.map((row) => row.version));
      const applied: number[] = [];
      for (const migration of [...migrations].sort((a, b) => a.version - b.version)) {
        if (done.has(migration.version)) continue;
        await client.query('BEGIN');
        try {
          await client.query(migration.sql);
          await client.query('INSERT INTO governance_migrations (version, name) VALUES ($1, $2)', [migration.version, migration.name]);
          await client.query('COMMIT');
        } catch (error) {
          await client.query('ROLLBACK');
          throw error;
        }
        applied.push(migration.version);
      }
      return applied;
    } finally {
      await client.query('SELECT pg_advisory_unlock($1)', [GOVERNANCE_MIGRATION_LOCK]);
    }
  } finally {
    client.release();
  }
}
