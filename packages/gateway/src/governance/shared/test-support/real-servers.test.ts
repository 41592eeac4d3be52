import { Client } from 'pg';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RealServers, realServersAvailable, startRealServers } from './real-servers.js';

describe.skipIf(!realServersAvailable())('real Redis and PostgreSQL for tests', () => {
  let servers: RealServers;
  beforeAll(async () => {
    servers = await startRealServers();
  }, 120_000);
  afterAll(async () => servers?.dispose());

  it('serves Redis with the append-only file on, keeping writes over a restart', async () => {
    const redis = new Redis(servers.redis.url, { lazyConnect: true });
    await redis.connect();
    expect(await redis.config('GET', 'appendonly')).toEqual(['appendonly', 'yes']);
    await redis.set('kept', 'yes');
    redis.disconnect();
    await servers.redis.stop();
    await servers.redis.start();
    const again = new Redis(servers.redis.url, { lazyConnect: true });
    await again.connect();
    expect(await again.get('kept')).toBe('yes');
    again.disconnect();
  });

  it('serves PostgreSQL 15 on loopback, stopped and started again', async () => {
    const query = async (): Promise<string> => {
      const client = new Client({ connectionString: servers.postgres.url });
      await client.connect();
      const result = await client.query<{ server_version: string }>('SHOW server_version');
      await client.end();
      return result.rows[0]!.server_version;
    };
    expect(await query()).toMatch(/^15\./);
    await servers.postgres.stop();
    await expect(query()).rejects.toThrow();
    await servers.postgres.start();
    expect(await query()).toMatch(/^15\./);
  });
});
