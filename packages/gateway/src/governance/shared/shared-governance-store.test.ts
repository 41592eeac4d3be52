import { afterAll, beforeAll, describe } from 'vitest';
import { describeGovernanceStoreContract } from '../v1/test-support/governance-store-contract.js';
import { SharedGovernanceStore } from './shared-governance-store.js';
import { type RealServers, realServersAvailable, startRealServers } from './test-support/real-servers.js';
import { resetSharedGovernanceState } from './test-support/reset-shared-governance-state.js';

describe.skipIf(!realServersAvailable())('shared governance store on real Redis and PostgreSQL', () => {
  let servers: RealServers;
  beforeAll(async () => {
    servers = await startRealServers();
  }, 120_000);
  afterAll(async () => servers?.dispose());

  describeGovernanceStoreContract('shared (Redis + PostgreSQL)', async ({ clock }) => {
    await resetSharedGovernanceState(servers.redis.url, servers.postgres.url);
    const store = await SharedGovernanceStore.open({
      redisUrl: servers.redis.url,
      databaseUrl: servers.postgres.url,
      clock: () => clock.now(),
    });
    return { store, cleanup: () => store.close() };
  });
});
