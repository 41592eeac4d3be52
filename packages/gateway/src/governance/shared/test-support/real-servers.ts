import { type PostgresServerHandle, postgresServerInstalled, startPostgresServer } from './start-postgres-server.js';
import { type RedisServerHandle, redisServerInstalled, startRedisServer, type StartRedisServerOptions } from './start-redis-server.js';

/** One real Redis and one real PostgreSQL, for one test file. */
export interface RealServers {
  readonly redis: RedisServerHandle;
  readonly postgres: PostgresServerHandle;
  /** Stops both and removes their folders. */
  dispose(): Promise<void>;
}

/**
 * Whether the test file can run: both servers installed. Under `CI=true` a missing server throws here, so the test
 * file fails instead of being skipped; elsewhere the caller skips its suite (`describe.skipIf(!available)`), which
 * vitest counts as skipped in its summary.
 */
export function realServersAvailable(): boolean {
  const missing = [
    ...(redisServerInstalled() ? [] : ['redis-server (Debian package redis-server)']),
    ...(postgresServerInstalled() ? [] : ['PostgreSQL 15 initdb/pg_ctl (Debian package postgresql)']),
  ];
  if (missing.length === 0) return true;
  if (process.env.CI === 'true') throw new Error(`CI=true and not installed: ${missing.join(', ')}`);
  return false;
}

/** Starts Redis and PostgreSQL in parallel; if one fails, the other is stopped again. */
export async function startRealServers(options: { readonly redis?: StartRedisServerOptions } = {}): Promise<RealServers> {
  const [redis, postgres] = await Promise.allSettled([startRedisServer(options.redis), startPostgresServer()]);
  if (redis.status === 'rejected' || postgres.status === 'rejected') {
    if (redis.status === 'fulfilled') await redis.value.dispose();
    if (postgres.status === 'fulfilled') await postgres.value.dispose();
    throw redis.status === 'rejected' ? redis.reason : (postgres as PromiseRejectedResult).reason;
  }
  return {
    redis: redis.value,
    postgres: postgres.value,
    async dispose() {
      await Promise.all([redis.value.dispose(), postgres.value.dispose()]);
    },
  };
}
