import { createBuiltinTokenForgeProtocolSuiteV1 } from '@tokenforge/provider-adapters';
import { describe, expect, it } from 'vitest';
import { parseGatewayCatalogue } from '../catalogue/load-catalogue.js';
import { GatewayConfigurationError } from './gateway-configuration-error.js';
import { resolveCatalogue } from './resolve-catalogue.js';

const target = (price?: unknown) => ({
  provider: 'p',
  family: 'openai-chat/v1',
  model: 'm',
  baseUrl: 'https://api.example.com/v1',
  credentials: { apiKeyEnv: 'KEY' },
  ...(price === undefined ? {} : { price }),
});
const catalogue = (targets: unknown[]) => parseGatewayCatalogue({ version: 1, clientKeys: [{ id: 'main', env: 'CLIENT' }], models: [{ name: 'chat', taskKind: 'chat', targets }] });
const env = { KEY: 'provider-key', CLIENT: 'client-key-0123' };

describe('target prices in the catalogue', () => {
  it('are read into exact micro-units with their version, and the governance section parses', async () => {
    const resolved = resolveCatalogue(catalogue([target({ currency: 'USD', version: 'v1', inputPerMillion: '2.5', outputPerMillion: 10 })]), createBuiltinTokenForgeProtocolSuiteV1(), env);
    expect(resolved.targets.get('chat#0')?.price).toEqual(expect.objectContaining({ currency: 'USD', version: 'v1', inputPerMillion: 2_500_000, outputPerMillion: 10_000_000, cachedInputReadPerMillion: 2_500_000 }));
    await resolved.close();
    expect(
      parseGatewayCatalogue({ version: 1, clientKeys: [{ id: 'main', env: 'CLIENT' }], models: [{ name: 'chat', taskKind: 'chat', targets: [target()] }], governance: { store: 'embedded', failOpen: { budget: true } } }).governance,
    ).toEqual({ store: 'embedded', failOpen: { budget: true } });
  });

  it('refuses a price with more than 6 decimals, and the targets of one model in two currencies', () => {
    expect(() => catalogue([target({ currency: 'USD', inputPerMillion: '0.0000001', outputPerMillion: 1 })])).toThrow(/price/);
    const mixed = catalogue([target({ currency: 'USD', inputPerMillion: 1, outputPerMillion: 1 }), target({ currency: 'EUR', inputPerMillion: 1, outputPerMillion: 1 })]);
    expect(() => resolveCatalogue(mixed, createBuiltinTokenForgeProtocolSuiteV1(), env)).toThrow(GatewayConfigurationError);
    expect(() => resolveCatalogue(mixed, createBuiltinTokenForgeProtocolSuiteV1(), env)).toThrow(/share one currency/);
  });
});
