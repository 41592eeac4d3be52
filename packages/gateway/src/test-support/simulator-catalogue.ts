import type { ProviderSimulator } from '@tokenforge/provider-simulator';
import type { GatewayCatalogueV1, GatewayLimitsV1, GatewayTargetV1 } from '../catalogue/gateway-catalogue-v1.js';

export const TEST_CLIENT_KEY = 'tfg-test-client-key-0123456789';
export const OTHER_CLIENT_KEY = 'tfg-other-client-key-9876543210';
export const TEST_SIGNING_KEY = 'test-signing-key-0123456789abcdef0123456789';

/** A target of `family` on the simulator whose provider model is `model` (a scenario name picks a fault). */
export interface TestTarget {
  readonly family: string;
  readonly model: string;
  readonly baseUrl?: string;
  readonly timeouts?: GatewayTargetV1['timeouts'];
  readonly capability?: GatewayTargetV1['capability'];
  readonly passRateLimitHeaders?: boolean;
}

function envName(family: string, part: string): string {
  return `SIM_${(family.split('/')[0] ?? family).replace(/-/g, '_').toUpperCase()}_${part}`;
}

/** A catalogue over `simulator` with two client keys (`main`, `other`), and the environment holding its secrets. */
export function simulatorCatalogue(
  simulator: ProviderSimulator,
  models: readonly { readonly name: string; readonly taskKind: GatewayCatalogueV1['models'][number]['taskKind']; readonly targets: readonly TestTarget[] }[],
  limits: GatewayLimitsV1 = {},
): { catalogue: GatewayCatalogueV1; env: Record<string, string> } {
  const env: Record<string, string> = { TEST_CLIENT_KEY, OTHER_CLIENT_KEY, TEST_SIGNING_KEY };
  const target = (spec: TestTarget): GatewayTargetV1 => {
    const credentials = simulator.credentialsFor(spec.family);
    if (credentials?.type === 'access-key') {
      env[envName(spec.family, 'ACCESS')] = credentials.accessKey;
      env[envName(spec.family, 'SECRET')] = credentials.secretKey;
    } else if (credentials !== undefined) env[envName(spec.family, 'KEY')] = credentials.apiKey;
    return {
      provider: 'simulator',
      family: spec.family as GatewayTargetV1['family'],
      model: spec.model,
      baseUrl: spec.baseUrl ?? simulator.baseUrlFor(spec.family) ?? simulator.url,
      credentials: credentials?.type === 'access-key' ? { accessKeyEnv: envName(spec.family, 'ACCESS'), secretKeyEnv: envName(spec.family, 'SECRET') } : { apiKeyEnv: envName(spec.family, 'KEY') },
      network: { allowLoopback: true },
      ...(spec.timeouts === undefined ? {} : { timeouts: spec.timeouts }),
      ...(spec.capability === undefined ? {} : { capability: spec.capability }),
      ...(spec.passRateLimitHeaders === undefined ? {} : { passRateLimitHeaders: spec.passRateLimitHeaders }),
    };
  };
  return {
    catalogue: {
      version: 1,
      clientKeys: [
        { id: 'main', env: 'TEST_CLIENT_KEY' },
        { id: 'other', env: 'OTHER_CLIENT_KEY' },
      ],
      models: models.map((model) => ({ name: model.name, taskKind: model.taskKind, targets: model.targets.map(target) })),
      limits,
      jobs: { signingKeyEnv: 'TEST_SIGNING_KEY' },
    },
    env,
  };
}
