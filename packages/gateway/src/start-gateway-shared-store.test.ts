import { startProviderSimulator, type ProviderSimulator } from '@tokenforge/provider-simulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GatewayCatalogueV1 } from './catalogue/gateway-catalogue-v1.js';
import { startGateway } from './start-gateway.js';
import { simulatorCatalogue } from './test-support/simulator-catalogue.js';

let simulator: ProviderSimulator;
beforeAll(async () => {
  simulator = await startProviderSimulator();
});
afterAll(async () => {
  await simulator.close();
});

const SECRETS = { TOKENFORGE_KEY_HASHING_SECRET: 'k'.repeat(40), TOKENFORGE_ADMIN_KEY: 'admin-key-0123456789' };

describe('REDIS_URL and DATABASE_URL select the shared governance store', () => {
  it('one without the other is a configuration error naming the missing one, never a URL', async () => {
    const { catalogue, env } = simulatorCatalogue(simulator, [{ name: 'chat', taskKind: 'chat', targets: [{ family: 'openai-chat/v1', model: 'text' }] }]);
    const redisOnly = startGateway({ catalogue: catalogue as GatewayCatalogueV1, env: { ...env, ...SECRETS, REDIS_URL: 'redis://:hunter2-password@127.0.0.1:1/0' } });
    await expect(redisOnly).rejects.toMatchObject({ code: 'GATEWAY_CONFIGURATION_INVALID', problems: [expect.stringContaining('DATABASE_URL must be set')] });
    await expect(redisOnly).rejects.not.toThrow(/hunter2/);
    const databaseOnly = startGateway({ catalogue: catalogue as GatewayCatalogueV1, env: { ...env, ...SECRETS, DATABASE_URL: 'postgres://tf:hunter2-password@127.0.0.1:1/tf' } });
    await expect(databaseOnly).rejects.toMatchObject({ problems: [expect.stringContaining('REDIS_URL must be set')] });
  });

  it('an unreachable server is a configuration error that names the variables, not their values', async () => {
    const { catalogue, env } = simulatorCatalogue(simulator, [{ name: 'chat', taskKind: 'chat', targets: [{ family: 'openai-chat/v1', model: 'text' }] }]);
    const started = startGateway({
      catalogue: catalogue as GatewayCatalogueV1,
      env: { ...env, ...SECRETS, REDIS_URL: 'redis://:hunter2-password@127.0.0.1:1/0', DATABASE_URL: 'postgres://tf:hunter2-password@127.0.0.1:1/tf' },
    });
    await expect(started).rejects.toMatchObject({ code: 'GATEWAY_CONFIGURATION_INVALID', problems: [expect.stringMatching(/REDIS_URL.*DATABASE_URL/)] });
    await expect(started).rejects.not.toThrow(/hunter2/);
  }, 30_000);

  it('governance.store: off wins over both', async () => {
    const { catalogue, env } = simulatorCatalogue(simulator, [{ name: 'chat', taskKind: 'chat', targets: [{ family: 'openai-chat/v1', model: 'text' }] }]);
    const gateway = await startGateway({
      catalogue: { ...(catalogue as GatewayCatalogueV1), governance: { store: 'off' } },
      env: { ...env, ...SECRETS, REDIS_URL: 'redis://127.0.0.1:1/0', DATABASE_URL: 'postgres://tf@127.0.0.1:1/tf' },
    });
    try {
      expect(gateway.governance).toBeUndefined();
    } finally {
      await gateway.close();
    }
  });
});
