import type { Pool, PoolClient } from 'pg';
import type {
  AuditEntryV1,
  ClientKeyRecordV1,
  GovernanceChangeV1,
  GovernanceSnapshotV1,
  LedgerRowV1,
  RequestRecordV1,
  SpendGroupV1,
  SpendQueryV1,
  TenantRecordV1,
} from '../v1/governance-store-v1.js';

type Row = Record<string, unknown>;

/** A bigint column (text from pg) or null as a number or undefined. */
function optionalNumber(value: unknown): number | undefined {
  return value === null || value === undefined ? undefined : Number(value);
}

function tenantFromRow(row: Row): TenantRecordV1 {
  return {
    id: row.id as string,
    name: row.name as string,
    modelAccess: row.model_access as string[],
    limits: row.limits as TenantRecordV1['limits'],
    createdAtMs: Number(row.created_at_ms),
    disabled: row.disabled as boolean,
  };
}

function keyFromRow(row: Row): ClientKeyRecordV1 {
  const expiresAtMs = optionalNumber(row.expires_at_ms);
  const revokedAtMs = optionalNumber(row.revoked_at_ms);
  return {
    id: row.id as string,
    tenantId: row.tenant_id as string,
    digest: row.digest as string,
    displayPrefix: row.display_prefix as string,
    createdAtMs: Number(row.created_at_ms),
    ...(expiresAtMs === undefined ? {} : { expiresAtMs }),
    ...(revokedAtMs === undefined ? {} : { revokedAtMs }),
    ...(row.model_access === null ? {} : { modelAccess: row.model_access as string[] }),
    ...(row.limits === null ? {} : { limits: row.limits as NonNullable<ClientKeyRecordV1['limits']> }),
  };
}

function ledgerFromRow(row: Row): LedgerRowV1 {
  return {
    attemptId: row.attempt_id as string,
    requestId: row.request_id as string,
    attempt: Number(row.attempt),
    tenantId: row.tenant_id as string,
    keyId: row.key_id as string,
    publicModel: row.public_model as string,
    targetRef: row.target_ref as string,
    provider: row.provider as string,
    kind: row.kind as LedgerRowV1['kind'],
    ...(row.usage === null ? {} : { usage: row.usage as NonNullable<LedgerRowV1['usage']> }),
    costMicros: Number(row.cost_micros),
    currency: row.currency as string,
    ...(row.upstream_cost === null ? {} : { upstreamCost: row.upstream_cost as NonNullable<LedgerRowV1['upstreamCost']> }),
    priceVersion: row.price_version as string,
    reservedMicros: Number(row.reserved_micros),
    reservedTokens: Number(row.reserved_tokens),
    usedTokens: Number(row.used_tokens),
    overrun: row.overrun as boolean,
    outcome: row.outcome as string,
    startedAtMs: Number(row.started_at_ms),
    settledAtMs: Number(row.settled_at_ms),
    day: row.day as string,
  };
}

function requestFromRow(row: Row): RequestRecordV1 {
  const ttfb = row.time_to_first_byte_ms;
  return {
    requestId: row.request_id as string,
    ...(row.tenant_id === null ? {} : { tenantId: row.tenant_id as string }),
    ...(row.key_id === null ? {} : { keyId: row.key_id as string }),
    route: row.route as string,
    ...(row.public_model === null ? {} : { publicModel: row.public_model as string }),
    status: Number(row.status),
    outcome: row.outcome as string,
    attempts: row.attempts as RequestRecordV1['attempts'],
    totalMs: Number(row.total_ms),
    ...(ttfb === null ? {} : { timeToFirstByteMs: Number(ttfb) }),
    atMs: Number(row.at_ms),
  };
}

const LEDGER_COLUMNS = [
  'attempt_id', 'request_id', 'attempt', 'tenant_id', 'key_id', 'public_model', 'target_ref', 'provider', 'kind', 'usage',
  'cost_micros', 'currency', 'upstream_cost', 'price_version', 'reserved_micros', 'reserved_tokens', 'used_tokens',
  'overrun', 'outcome', 'started_at_ms', 'settled_at_ms', 'day',
] as const;

const LEDGER_SELECT = `${LEDGER_COLUMNS.filter((column) => column !== 'day').join(', ')}, to_char(day, 'YYYY-MM-DD') AS day`;

/** Inserts ledger rows in one statement; a row whose attempt id is already there is skipped (written once). */
export async function insertLedgerRows(client: Pool | PoolClient, rows: readonly LedgerRowV1[]): Promise<number> {
  if (rows.length === 0) return 0;
  const values: unknown[] = [];
  const tuples = rows.map((row) => {
    const start = values.length;
    values.push(
      row.attemptId, row.requestId, row.attempt, row.tenantId, row.keyId, row.publicModel, row.targetRef, row.provider,
      row.kind, row.usage === undefined ? null : JSON.stringify(row.usage), row.costMicros, row.currency,
      row.upstreamCost === undefined ? null : JSON.stringify(row.upstreamCost), row.priceVersion, row.reservedMicros,
      row.reservedTokens, row.usedTokens, row.overrun, row.outcome, row.startedAtMs, row.settledAtMs, row.day,
    );
    return `(${LEDGER_COLUMNS.map((_, index) => `$${start + index + 1}`).join(', ')})`;
  });
  const result = await client.query(
    `INSERT INTO governance_ledger (${LEDGER_COLUMNS.join(', ')}) VALUES ${tuples.join(', ')} ON CONFLICT (attempt_id) DO NOTHING`,
    values,
  );
  return result.rowCount ?? 0;
}

/**
 * Everything durable of the shared store, in PostgreSQL: tenants, keys, the audit trail and the governance version
 * (changed together in one transaction), the ledger, and request records (tracked jobs: `PostgresTrackedJobs`).
 */
export class PostgresGovernanceRecords {
  readonly #pool: Pool;
  readonly #now: () => number;

  constructor(pool: Pool, now: () => number) {
    this.#pool = pool;
    this.#now = now;
  }

  async version(): Promise<number> {
    const result = await this.#pool.query('SELECT version FROM governance_version WHERE id = 1');
    return Number(result.rows[0]?.version ?? 0);
  }

  /** Version, tenants and keys read in one repeatable-read transaction, so the snapshot is one version's state. */
  async snapshot(): Promise<GovernanceSnapshotV1> {
    const client = await this.#pool.connect();
    try {
      await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
      const version = await client.query('SELECT version FROM governance_version WHERE id = 1');
      const tenants = await client.query('SELECT * FROM governance_tenants ORDER BY id');
      const keys = await client.query('SELECT * FROM governance_keys ORDER BY id');
      await client.query('COMMIT');
      return { version: Number(version.rows[0]?.version ?? 0), tenants: tenants.rows.map(tenantFromRow), keys: keys.rows.map(keyFromRow) };
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw error;
    } finally {
      client.release();
    }
  }

  /**
   * One admin change: `work` reads and writes in a transaction; when it answers a value, the version row is raised
   * (its row lock orders concurrent changes) and the audit entry written, all committed together.
   */
  async change<T>(
    actor: string,
    action: string,
    subject: string,
    detail: Readonly<Record<string, unknown>>,
    work: (client: PoolClient, atMs: number) => Promise<T | undefined>,
  ): Promise<GovernanceChangeV1<T> | undefined> {
    const client = await this.#pool.connect();
    try {
      await client.query('BEGIN');
      const atMs = this.#now();
      const value = await work(client, atMs);
      if (value === undefined) {
        await client.query('ROLLBACK');
        return undefined;
      }
      const bumped = await client.query('UPDATE governance_version SET version = version + 1 WHERE id = 1 RETURNING version');
      const version = Number(bumped.rows[0].version);
      await client.query('INSERT INTO governance_audit (version, at_ms, actor, action, subject, detail) VALUES ($1, $2, $3, $4, $5, $6)', [
        version, atMs, actor, action, subject, JSON.stringify(detail),
      ]);
      await client.query('COMMIT');
      return { version, value };
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw error;
    } finally {
      client.release();
    }
  }

  async insertTenant(client: PoolClient, tenant: TenantRecordV1): Promise<TenantRecordV1> {
    await client.query(
      'INSERT INTO governance_tenants (id, name, model_access, limits, created_at_ms, disabled) VALUES ($1, $2, $3, $4, $5, $6)',
      [tenant.id, tenant.name, JSON.stringify(tenant.modelAccess), JSON.stringify(tenant.limits), tenant.createdAtMs, tenant.disabled],
    );
    return tenant;
  }

  async tenantForUpdate(client: PoolClient, id: string): Promise<TenantRecordV1 | undefined> {
    const result = await client.query('SELECT * FROM governance_tenants WHERE id = $1 FOR UPDATE', [id]);
    return result.rows[0] === undefined ? undefined : tenantFromRow(result.rows[0]);
  }

  async writeTenant(client: PoolClient, tenant: TenantRecordV1): Promise<TenantRecordV1> {
    await client.query('UPDATE governance_tenants SET name = $2, model_access = $3, limits = $4, disabled = $5 WHERE id = $1', [
      tenant.id, tenant.name, JSON.stringify(tenant.modelAccess), JSON.stringify(tenant.limits), tenant.disabled,
    ]);
    return tenant;
  }

  async insertKey(client: PoolClient, key: ClientKeyRecordV1): Promise<ClientKeyRecordV1> {
    await client.query(
      `INSERT INTO governance_keys (id, tenant_id, digest, display_prefix, created_at_ms, expires_at_ms, revoked_at_ms, model_access, limits)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
      keyValues(key),
    );
    return key;
  }

  async keyForUpdate(client: PoolClient, id: string): Promise<ClientKeyRecordV1 | undefined> {
    const result = await client.query('SELECT * FROM governance_keys WHERE id = $1 FOR UPDATE', [id]);
    return result.rows[0] === undefined ? undefined : keyFromRow(result.rows[0]);
  }

  async writeKey(client: PoolClient, key: ClientKeyRecordV1): Promise<ClientKeyRecordV1> {
    await client.query(
      `UPDATE governance_keys SET tenant_id = $2, digest = $3, display_prefix = $4, created_at_ms = $5, expires_at_ms = $6,
       revoked_at_ms = $7, model_access = $8, limits = $9 WHERE id = $1`,
      keyValues(key),
    );
    return key;
  }

  async tenants(): Promise<readonly TenantRecordV1[]> {
    return (await this.#pool.query('SELECT * FROM governance_tenants ORDER BY id')).rows.map(tenantFromRow);
  }

  async tenant(id: string): Promise<TenantRecordV1 | undefined> {
    const result = await this.#pool.query('SELECT * FROM governance_tenants WHERE id = $1', [id]);
    return result.rows[0] === undefined ? undefined : tenantFromRow(result.rows[0]);
  }

  async keys(tenantId?: string): Promise<readonly ClientKeyRecordV1[]> {
    const result =
      tenantId === undefined
        ? await this.#pool.query('SELECT * FROM governance_keys ORDER BY id')
        : await this.#pool.query('SELECT * FROM governance_keys WHERE tenant_id = $1 ORDER BY id', [tenantId]);
    return result.rows.map(keyFromRow);
  }

  async audit(limit: number): Promise<readonly AuditEntryV1[]> {
    const result = await this.#pool.query('SELECT * FROM governance_audit ORDER BY version DESC LIMIT $1', [limit]);
    return result.rows.map((row: Row) => ({
      version: Number(row.version),
      atMs: Number(row.at_ms),
      actor: row.actor as string,
      action: row.action as string,
      subject: row.subject as string,
      detail: row.detail as Record<string, unknown>,
    }));
  }

  async ledger(query: { readonly tenantId?: string; readonly keyId?: string; readonly limit: number }): Promise<readonly LedgerRowV1[]> {
    const where: string[] = [];
    const values: unknown[] = [];
    if (query.tenantId !== undefined) where.push(`tenant_id = $${values.push(query.tenantId)}`);
    if (query.keyId !== undefined) where.push(`key_id = $${values.push(query.keyId)}`);
    const result = await this.#pool.query(
      `SELECT ${LEDGER_SELECT} FROM governance_ledger ${where.length === 0 ? '' : `WHERE ${where.join(' AND ')}`}
       ORDER BY settled_at_ms DESC, attempt_id DESC LIMIT $${values.push(query.limit)}`,
      values,
    );
    return result.rows.map(ledgerFromRow);
  }

  async spend(query: SpendQueryV1): Promise<readonly SpendGroupV1[]> {
    const dimensions = { tenant: ['tenant_id', 'tenantId'], key: ['key_id', 'keyId'], model: ['public_model', 'publicModel'], day: ["to_char(day, 'YYYY-MM-DD')", 'day'] } as const;
    const where: string[] = [];
    const values: unknown[] = [];
    if (query.tenantId !== undefined) where.push(`tenant_id = $${values.push(query.tenantId)}`);
    if (query.keyId !== undefined) where.push(`key_id = $${values.push(query.keyId)}`);
    if (query.publicModel !== undefined) where.push(`public_model = $${values.push(query.publicModel)}`);
    if (query.fromDay !== undefined) where.push(`day >= $${values.push(query.fromDay)}::date`);
    if (query.toDay !== undefined) where.push(`day <= $${values.push(query.toDay)}::date`);
    const groups = [...new Set(query.groupBy)].map((dimension) => dimensions[dimension]);
    const selected = groups.map(([expression, alias]) => `${expression} AS "${alias}"`);
    const result = await this.#pool.query(
      `SELECT ${[...selected, 'currency'].join(', ')}, sum(cost_micros) AS cost, count(*) AS attempts,
         sum(coalesce((usage->>'inputTokens')::bigint, 0)) AS input, sum(coalesce((usage->>'outputTokens')::bigint, 0)) AS output
       FROM governance_ledger ${where.length === 0 ? '' : `WHERE ${where.join(' AND ')}`}
       GROUP BY ${[...groups.map(([expression]) => expression), 'currency'].join(', ')}`,
      values,
    );
    return result.rows.map((row: Row) => ({
      ...Object.fromEntries(groups.map(([, alias]) => [alias, row[alias] as string])),
      currency: row.currency as string,
      costMicros: Number(row.cost),
      attempts: Number(row.attempts),
      inputTokens: Number(row.input),
      outputTokens: Number(row.output),
    }));
  }

  async insertRequests(records: readonly RequestRecordV1[]): Promise<void> {
    if (records.length === 0) return;
    const values: unknown[] = [];
    const tuples = records.map((record) => {
      const start = values.length;
      values.push(
        record.requestId, record.tenantId ?? null, record.keyId ?? null, record.route, record.publicModel ?? null, record.status,
        record.outcome, JSON.stringify(record.attempts), record.totalMs, record.timeToFirstByteMs ?? null, record.atMs,
      );
      return `(${Array.from({ length: 11 }, (_, index) => `$${start + index + 1}`).join(', ')})`;
    });
    await this.#pool.query(
      `INSERT INTO governance_request_records (request_id, tenant_id, key_id, route, public_model, status, outcome, attempts, total_ms,
       time_to_first_byte_ms, at_ms) VALUES ${tuples.join(', ')} ON CONFLICT (request_id) DO NOTHING`,
      values,
    );
  }

  async requests(query: { readonly tenantId?: string; readonly limit: number }): Promise<readonly RequestRecordV1[]> {
    const result =
      query.tenantId === undefined
        ? await this.#pool.query('SELECT * FROM governance_request_records ORDER BY at_ms DESC, request_id DESC LIMIT $1', [query.limit])
        : await this.#pool.query('SELECT * FROM governance_request_records WHERE tenant_id = $1 ORDER BY at_ms DESC, request_id DESC LIMIT $2', [
            query.tenantId,
            query.limit,
          ]);
    return result.rows.map(requestFromRow);
  }

  async request(requestId: string): Promise<RequestRecordV1 | undefined> {
    const result = await this.#pool.query('SELECT * FROM governance_request_records WHERE request_id = $1', [requestId]);
    return result.rows[0] === undefined ? undefined : requestFromRow(result.rows[0]);
  }

  /** Deletes request records older than `beforeMs` (their retention); the ledger is kept. */
  async deleteRequestsBefore(beforeMs: number): Promise<number> {
    return (await this.#pool.query('DELETE FROM governance_request_records WHERE at_ms < $1', [beforeMs])).rowCount ?? 0;
  }
}

function keyValues(key: ClientKeyRecordV1): unknown[] {
  return [
    key.id, key.tenantId, key.digest, key.displayPrefix, key.createdAtMs, key.expiresAtMs ?? null, key.revokedAtMs ?? null,
    key.modelAccess === undefined ? null : JSON.stringify(key.modelAccess), key.limits === undefined ? null : JSON.stringify(key.limits),
  ];
}
