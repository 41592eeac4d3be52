import Database from 'better-sqlite3';
import type {
  AdmissionRequestV1,
  AuditEntryV1,
  ClientKeyRecordV1,
  ConsoleSessionV1,
  LedgerRowV1,
  RequestRecordV1,
  SpendGroupV1,
  SpendQueryV1,
  TenantRecordV1,
} from '../v1/governance-store-v1.js';
import { TRACKED_JOB_LEASE_MIGRATION, TrackedJobTable } from './tracked-job-table.js';

const MIGRATIONS: readonly string[] = [
  `CREATE TABLE meta (name TEXT PRIMARY KEY, value TEXT NOT NULL);
   INSERT INTO meta (name, value) VALUES ('version', '0');
   CREATE TABLE tenants (id TEXT PRIMARY KEY, body TEXT NOT NULL);
   CREATE TABLE client_keys (id TEXT PRIMARY KEY, tenant_id TEXT NOT NULL, body TEXT NOT NULL);
   CREATE TABLE audit (version INTEGER PRIMARY KEY, body TEXT NOT NULL);
   CREATE TABLE ledger (
     attempt_id TEXT PRIMARY KEY,
     tenant_id TEXT NOT NULL,
     key_id TEXT NOT NULL,
     public_model TEXT NOT NULL,
     day TEXT NOT NULL,
     settled_at_ms INTEGER NOT NULL,
     currency TEXT NOT NULL,
     cost_micros INTEGER NOT NULL,
     input_tokens INTEGER NOT NULL,
     output_tokens INTEGER NOT NULL,
     body TEXT NOT NULL
   );
   CREATE INDEX ledger_tenant ON ledger (tenant_id, settled_at_ms);
   CREATE INDEX ledger_key ON ledger (key_id, settled_at_ms);
   CREATE INDEX ledger_day ON ledger (day);
   CREATE INDEX ledger_settled ON ledger (settled_at_ms);
   CREATE TABLE spend_totals (
     holder TEXT NOT NULL, period TEXT NOT NULL, currency TEXT NOT NULL, micros INTEGER NOT NULL,
     PRIMARY KEY (holder, period, currency)
   ) WITHOUT ROWID;
   CREATE TABLE open_reservations (attempt_id TEXT PRIMARY KEY, body TEXT NOT NULL);
   CREATE TABLE request_records (seq INTEGER PRIMARY KEY, tenant_id TEXT, at_ms INTEGER NOT NULL, body TEXT NOT NULL);
   CREATE INDEX request_records_tenant ON request_records (tenant_id, at_ms);
   CREATE INDEX request_records_at ON request_records (at_ms);
   CREATE TABLE tracked_jobs (
     tenant_id TEXT NOT NULL, target_ref TEXT NOT NULL, provider_job_id TEXT NOT NULL, created_at_ms INTEGER NOT NULL,
     body TEXT NOT NULL, PRIMARY KEY (tenant_id, target_ref, provider_job_id)
   );
   CREATE INDEX tracked_jobs_created ON tracked_jobs (tenant_id, created_at_ms);`,
  `CREATE TABLE console_sessions (id TEXT PRIMARY KEY, expires_at_ms INTEGER NOT NULL, body TEXT NOT NULL);
   CREATE INDEX console_sessions_expiry ON console_sessions (expires_at_ms);`,
  TRACKED_JOB_LEASE_MIGRATION,
  `CREATE INDEX request_records_request_id ON request_records (json_extract(body, '$.requestId'));`,
];

/** A spend total change: `micros` added to a holder's period in a currency. */
export interface SpendDelta {
  readonly holder: string;
  readonly period: string;
  readonly currency: string;
  readonly micros: number;
}

/** One queued ledger write: the row, and the spend totals it adds once (only if the row is new). */
export interface QueuedLedgerWrite {
  readonly row: LedgerRowV1;
  readonly spend: readonly SpendDelta[];
}

/** What one batched write carries. */
export interface GovernanceWriteBatch {
  readonly ledger: readonly QueuedLedgerWrite[];
  readonly reservationsOpened: readonly AdmissionRequestV1[];
  readonly reservationsClosed: readonly string[];
  readonly requests: readonly RequestRecordV1[];
  /** Request records older than this are deleted (retention), when set. */
  readonly pruneRequestsBeforeMs?: number;
}

const GROUP_COLUMNS = { tenant: ['tenant_id', 'tenantId'], key: ['key_id', 'keyId'], model: ['public_model', 'publicModel'], day: ['day', 'day'] } as const;

function parse<T>(rows: readonly { body: string }[]): T[] {
  return rows.map((row) => JSON.parse(row.body) as T);
}

/**
 * The embedded store's durable state in one SQLite file (better-sqlite3: synchronous, in process, WAL journal):
 * tenants, keys, the governance version and audit trail, the ledger (one row per attempt id, its primary key), spend
 * totals per holder and period, open reservations, request records and tracked jobs. Migrations are numbered by
 * `PRAGMA user_version`. Only the embedded store uses it.
 */
export class GovernanceDatabase {
  readonly #db: Database.Database;
  readonly #statements;
  /** Tracked jobs: rows, filters, leases, observations and delivery logs. */
  readonly trackedJobs: TrackedJobTable;

  constructor(path: string) {
    this.#db = new Database(path);
    this.#db.pragma('journal_mode = WAL');
    this.#db.pragma('synchronous = NORMAL');
    this.#db.pragma('busy_timeout = 5000');
    const applied = Number(this.#db.pragma('user_version', { simple: true }));
    for (let index = applied; index < MIGRATIONS.length; index += 1) {
      this.#db.transaction(() => {
        this.#db.exec(MIGRATIONS[index] ?? '');
        this.#db.pragma(`user_version = ${index + 1}`);
      })();
    }
    const db = this.#db;
    this.trackedJobs = new TrackedJobTable(db);
    this.#statements = {
      version: db.prepare<[], { value: string }>(`SELECT value FROM meta WHERE name = 'version'`),
      setVersion: db.prepare<[string]>(`UPDATE meta SET value = ? WHERE name = 'version'`),
      tenants: db.prepare<[], { body: string }>('SELECT body FROM tenants ORDER BY id'),
      putTenant: db.prepare<[string, string]>('INSERT INTO tenants (id, body) VALUES (?, ?) ON CONFLICT (id) DO UPDATE SET body = excluded.body'),
      keys: db.prepare<[], { body: string }>('SELECT body FROM client_keys ORDER BY id'),
      putKey: db.prepare<[string, string, string]>(
        'INSERT INTO client_keys (id, tenant_id, body) VALUES (?, ?, ?) ON CONFLICT (id) DO UPDATE SET body = excluded.body',
      ),
      addAudit: db.prepare<[number, string]>('INSERT INTO audit (version, body) VALUES (?, ?)'),
      audit: db.prepare<[number], { body: string }>('SELECT body FROM audit ORDER BY version DESC LIMIT ?'),
      insertLedger: db.prepare<[string, string, string, string, string, number, string, number, number, number, string]>(
        `INSERT OR IGNORE INTO ledger (attempt_id, tenant_id, key_id, public_model, day, settled_at_ms, currency, cost_micros,
           input_tokens, output_tokens, body) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      ),
      ledgerHas: db.prepare<[string], { one: number }>('SELECT 1 AS one FROM ledger WHERE attempt_id = ?'),
      addSpend: db.prepare<[string, string, string, number]>(
        `INSERT INTO spend_totals (holder, period, currency, micros) VALUES (?, ?, ?, ?)
         ON CONFLICT (holder, period, currency) DO UPDATE SET micros = micros + excluded.micros`,
      ),
      spendOfPeriods: db.prepare<[string, string, string], { holder: string; period: string; currency: string; micros: number }>(
        'SELECT holder, period, currency, micros FROM spend_totals WHERE period IN (?, ?, ?)',
      ),
      openReservation: db.prepare<[string, string]>('INSERT OR REPLACE INTO open_reservations (attempt_id, body) VALUES (?, ?)'),
      closeReservation: db.prepare<[string]>('DELETE FROM open_reservations WHERE attempt_id = ?'),
      openReservations: db.prepare<[], { body: string }>('SELECT body FROM open_reservations'),
      addRequest: db.prepare<[string | null, number, string]>('INSERT INTO request_records (tenant_id, at_ms, body) VALUES (?, ?, ?)'),
      pruneRequests: db.prepare<[number]>('DELETE FROM request_records WHERE at_ms < ?'),
      requests: db.prepare<[number], { body: string }>('SELECT body FROM request_records ORDER BY at_ms DESC, seq DESC LIMIT ?'),
      request: db.prepare<[string], { body: string }>("SELECT body FROM request_records WHERE json_extract(body, '$.requestId') = ? ORDER BY seq DESC LIMIT 1"),
      tenantRequests: db.prepare<[string, number], { body: string }>(
        'SELECT body FROM request_records WHERE tenant_id = ? ORDER BY at_ms DESC, seq DESC LIMIT ?',
      ),
      putSession: db.prepare<[string, number, string]>('INSERT OR REPLACE INTO console_sessions (id, expires_at_ms, body) VALUES (?, ?, ?)'),
      session: db.prepare<[string, number], { body: string }>('SELECT body FROM console_sessions WHERE id = ? AND expires_at_ms > ?'),
      deleteSession: db.prepare<[string]>('DELETE FROM console_sessions WHERE id = ?'),
      pruneSessions: db.prepare<[number]>('DELETE FROM console_sessions WHERE expires_at_ms <= ?'),
    };
  }

  version(): number {
    return Number(this.#statements.version.get()?.value ?? '0');
  }

  tenants(): TenantRecordV1[] {
    return parse<TenantRecordV1>(this.#statements.tenants.all());
  }

  keys(): ClientKeyRecordV1[] {
    return parse<ClientKeyRecordV1>(this.#statements.keys.all());
  }

  /** Writes one admin change, its new version and its audit entry in one transaction. */
  applyChange(change: { readonly tenant?: TenantRecordV1; readonly key?: ClientKeyRecordV1; readonly audit: AuditEntryV1 }): void {
    this.#db.transaction(() => {
      if (change.tenant !== undefined) this.#statements.putTenant.run(change.tenant.id, JSON.stringify(change.tenant));
      if (change.key !== undefined) this.#statements.putKey.run(change.key.id, change.key.tenantId, JSON.stringify(change.key));
      this.#statements.addAudit.run(change.audit.version, JSON.stringify(change.audit));
      this.#statements.setVersion.run(String(change.audit.version));
    })();
  }

  audit(limit: number): AuditEntryV1[] {
    return parse<AuditEntryV1>(this.#statements.audit.all(limit));
  }

  hasLedgerRow(attemptId: string): boolean {
    return this.#statements.ledgerHas.get(attemptId) !== undefined;
  }

  /** Spend totals of the given period keys, for every holder. */
  spendOfPeriods(periods: readonly [string, string, string]): { holder: string; period: string; currency: string; micros: number }[] {
    return this.#statements.spendOfPeriods.all(...periods);
  }

  openReservations(): AdmissionRequestV1[] {
    return parse<AdmissionRequestV1>(this.#statements.openReservations.all());
  }

  /** Writes a batch in one transaction; a ledger row already present is skipped with its spend. */
  write(batch: GovernanceWriteBatch): void {
    const statements = this.#statements;
    // Spend totals are summed per holder, period and currency first: one upsert each per batch, not six per row.
    const totals = new Map<string, number>();
    this.#db.transaction(() => {
      for (const request of batch.reservationsOpened) statements.openReservation.run(request.attemptId, JSON.stringify(request));
      for (const attemptId of batch.reservationsClosed) statements.closeReservation.run(attemptId);
      for (const { row, spend } of batch.ledger) {
        const inserted = statements.insertLedger.run(
          row.attemptId,
          row.tenantId,
          row.keyId,
          row.publicModel,
          row.day,
          row.settledAtMs,
          row.currency,
          row.costMicros,
          row.usage?.inputTokens ?? 0,
          row.usage?.outputTokens ?? 0,
          JSON.stringify(row),
        );
        if (inserted.changes === 1) {
          for (const delta of spend) {
            const name = `${delta.holder}\u0000${delta.period}\u0000${delta.currency}`;
            totals.set(name, (totals.get(name) ?? 0) + delta.micros);
          }
        }
      }
      for (const [name, micros] of totals) {
        const [holder = '', period = '', currency = ''] = name.split('\u0000');
        statements.addSpend.run(holder, period, currency, micros);
      }
      for (const record of batch.requests) statements.addRequest.run(record.tenantId ?? null, record.atMs, JSON.stringify(record));
      if (batch.pruneRequestsBeforeMs !== undefined) statements.pruneRequests.run(batch.pruneRequestsBeforeMs);
    })();
  }

  ledger(query: { readonly tenantId?: string; readonly keyId?: string; readonly limit: number }): LedgerRowV1[] {
    const where: string[] = [];
    const values: (string | number)[] = [];
    if (query.tenantId !== undefined) {
      where.push('tenant_id = ?');
      values.push(query.tenantId);
    }
    if (query.keyId !== undefined) {
      where.push('key_id = ?');
      values.push(query.keyId);
    }
    const sql = `SELECT body FROM ledger ${where.length === 0 ? '' : `WHERE ${where.join(' AND ')}`} ORDER BY settled_at_ms DESC, rowid DESC LIMIT ?`;
    return parse<LedgerRowV1>(this.#db.prepare<(string | number)[], { body: string }>(sql).all(...values, query.limit));
  }

  spend(query: SpendQueryV1): SpendGroupV1[] {
    const where: string[] = [];
    const values: string[] = [];
    const filters: [string | undefined, string][] = [
      [query.tenantId, 'tenant_id = ?'],
      [query.keyId, 'key_id = ?'],
      [query.publicModel, 'public_model = ?'],
      [query.fromDay, 'day >= ?'],
      [query.toDay, 'day <= ?'],
    ];
    for (const [value, clause] of filters) {
      if (value === undefined) continue;
      where.push(clause);
      values.push(value);
    }
    const groups = [...new Set(query.groupBy)].map((dimension) => GROUP_COLUMNS[dimension]);
    const selected = groups.map(([column, field]) => `${column} AS ${field}`);
    const grouped = [...groups.map(([column]) => column), 'currency'];
    const sql = `SELECT ${[...selected, 'currency'].join(', ')}, SUM(cost_micros) AS costMicros, COUNT(*) AS attempts,
      SUM(input_tokens) AS inputTokens, SUM(output_tokens) AS outputTokens FROM ledger
      ${where.length === 0 ? '' : `WHERE ${where.join(' AND ')}`} GROUP BY ${grouped.join(', ')} ORDER BY ${grouped.join(', ')}`;
    return this.#db.prepare<string[], SpendGroupV1>(sql).all(...values);
  }

  requests(query: { readonly tenantId?: string; readonly limit: number }): RequestRecordV1[] {
    const rows =
      query.tenantId === undefined ? this.#statements.requests.all(query.limit) : this.#statements.tenantRequests.all(query.tenantId, query.limit);
    return parse<RequestRecordV1>(rows);
  }

  request(requestId: string): RequestRecordV1 | undefined {
    const row = this.#statements.request.get(requestId);
    return row === undefined ? undefined : (JSON.parse(row.body) as RequestRecordV1);
  }

  putSession(session: ConsoleSessionV1, nowMs: number): void {
    this.#statements.pruneSessions.run(nowMs);
    this.#statements.putSession.run(session.id, session.expiresAtMs, JSON.stringify(session));
  }

  session(id: string, nowMs: number): ConsoleSessionV1 | undefined {
    const row = this.#statements.session.get(id, nowMs);
    return row === undefined ? undefined : (JSON.parse(row.body) as ConsoleSessionV1);
  }

  deleteSession(id: string): void {
    this.#statements.deleteSession.run(id);
  }

  close(): void {
    this.#db.close();
  }
}
