import { Redis } from 'ioredis';
import pg from 'pg';
import { applyGovernanceMigrations } from '../postgres-governance-migrations.js';

/** Empties both servers for the next test: every Redis key, every governance row, the version back to 0. */
export async function resetSharedGovernanceState(redisUrl: string, databaseUrl: string): Promise<void> {
  const redis = new Redis(redisUrl, { lazyConnect: true });
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 1 });
  try {
    await redis.connect();
    await Promise.all([redis.flushall(), applyGovernanceMigrations(pool)]);
    await pool.query(
      `TRUNCATE governance_keys, governance_tenants, governance_audit, governance_ledger, governance_request_records,
       governance_tracked_jobs, governance_price_versions, governance_console_sessions; UPDATE governance_version SET version = 0`,
    );
  } finally {
    redis.disconnect();
    await pool.end();
  }
}
