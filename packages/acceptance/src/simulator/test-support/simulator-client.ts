import { createHttpProviderTransport } from '@tokenforge/http-transport';
import type { ProtocolCapabilityV2, ProtocolFamily } from '@tokenforge/model-protocol';
import { createProtocolEngineTargetBindingV1, createProtocolEngineV1, type ProtocolEngineTargetBindingV1 } from '@tokenforge/protocol-engine';
import { createBuiltinTokenForgeProtocolSuiteV1 } from '@tokenforge/provider-adapters';
import type { ProviderSimulator } from '@tokenforge/provider-simulator';

export const suite = createBuiltinTokenForgeProtocolSuiteV1();
export const engine = createProtocolEngineV1({ registry: suite.registry });

/** A binding of `family` with `providerModel` over a fresh http-transport to the simulator. */
export function bindSimulator(
  simulator: ProviderSimulator,
  family: ProtocolFamily,
  providerModel: string,
  capability: Omit<ProtocolCapabilityV2, 'protocolFamily'>,
  policy: { bodyIdleTimeoutMs?: number } = {},
  credentials = simulator.credentialsFor(family),
): ProtocolEngineTargetBindingV1 {
  const baseUrl = simulator.baseUrlFor(family);
  if (baseUrl === undefined || credentials === undefined) throw new Error('unknown family');
  const transport = createHttpProviderTransport({
    baseUrl,
    credentials,
    metadata: suite.transportMetadataFor(family),
    policy: {
      allowedAddressCategories: ['loopback'],
      allowInsecureHttpToLoopback: true,
      ...(simulator.certificate === undefined ? {} : { trustedCertificates: simulator.certificate.cert }),
      ...policy,
    },
  });
  return createProtocolEngineTargetBindingV1({
    target: { provider: 'simulator', providerModel, connectionRef: 'simulator', capability: { ...capability, protocolFamily: family } },
    bindTransport: () => transport,
  });
}
