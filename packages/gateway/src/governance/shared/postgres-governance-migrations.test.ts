import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyGovernanceMigrations, GOVERNANCE_MIGRATION_LOCK, GOVERNANCE_MIGRATIONS } from './postgres-governance-migrations.js';
import { realServersAvailable } from './test-support/real-servers.js';
import { type PostgresServerHandle, startPostgresServer } from './test-support/start-postgres-server.js';

describe.skipIf(!realServersAvailable())('governance migrations on a real PostgreSQL', () => {
  let postgres: PostgresServerHandle;
  beforeAll(async () => {
    postgres = await startPostgresServer();
  }, 120_000);
  afterAll(async () => postgres?.dispose());

  it('three instances starting at once: one applies each migration, the others wait on the advisory lock and find it done', async () => {
    const database = `migrations_${Date.now()}`;
    const admin = new pg.Client({ connectionString: postgres.url });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${database}`);
    await admin.end();
    const url = postgres.url.replace(/\/postgres$/, `/${database}`);
    const pools = Array.from({ length: 3 }, () => new pg.Pool({ connectionString: url, max: 2 }));
    try {
      const applied = await Promise.all(pools.map((pool) => applyGovernanceMigrations(pool)));
      const all = GOVERNANCE_MIGRATIONS.map((migration) => migration.version);
      expect(applied.filter((versions) => versions.length > 0)).toEqual([all]);
      expect(applied.flat().sort()).toEqual(all);
      const rows = await pools[0]!.query('SELECT version FROM governance_migrations ORDER BY version');
      expect(rows.rows.map((row) => row.version)).toEqual(all);
      expect((await pools[0]!.query('SELECT version FROM governance_version')).rows).toEqual([{ version: '0' }]);
      expect(await applyGovernanceMigrations(pools[1]!)).toEqual([]);
    } finally {
      await Promise.all(pools.map((pool) => pool.end()));
    }
  });

  it('a failing migration is rolled back whole and not recorded, and the lock is released', async () => {
    const pool = new pg.Pool({ connectionString: postgres.url, max: 1 });
    try {
      const broken = [{ version: 1, name: 'half', sql: 'CREATE TABLE half_done (id int); SELECT no_such_function()' }];
      await expect(applyGovernanceMigrations(pool, broken)).rejects.toThrow(/no_such_function/);
      expect((await pool.query("SELECT to_regclass('half_done') AS found")).rows[0].found).toBeNull();
      expect((await pool.query('SELECT count(*)::int AS n FROM governance_migrations')).rows[0].n).toBe(0);
      const other = new pg.Client({ connectionString: postgres.url });
      await other.connect();
      const lock = await other.query('SELECT pg_try_advisory_lock($1) AS got', [GOVERNANCE_MIGRATION_LOCK]);
      await other.end();
      expect(lock.rows[0].got).toBe(true);
    } finally {
      await pool.end();
    }
  });
});
