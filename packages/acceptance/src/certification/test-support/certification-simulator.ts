import { createProtocolEngineV1 } from '@tokenforge/protocol-engine';
import { createBuiltinTokenForgeProtocolSuiteV1 } from '@tokenforge/provider-adapters';
import { startProviderSimulator, type ProviderSimulator } from '@tokenforge/provider-simulator';
import type { CertificationManifestV1, ManifestCaseV1 } from '../manifest/certification-manifest-v1.js';
import { createCertificationManifestTemplate, withExactCaps } from '../manifest/manifest-template.js';
import { registeredFamiliesOf } from '../manifest/registered-families.js';
import type { CertificationNetworkOverridesV1 } from '../run/certification-network.js';

/** Strings that must never appear in output or evidence. */
export const CANARY = Object.freeze({
  prompt: 'canary-prompt-7f3a91',
  provider: 'canary-provider-52bd',
  model: 'canary-model-c0ffee',
  key: 'canary-key-9e8d7c6b',
});

/** A simulator over TLS with a manifest whose cases all point at it through `localhost`. */
export interface CertificationSimulator {
  readonly simulator: ProviderSimulator;
  readonly manifest: CertificationManifestV1;
  readonly env: ReadonlyMap<string, string>;
  readonly network: CertificationNetworkOverridesV1;
  readonly registeredFamilies: readonly string[];
  close(): Promise<void>;
}

function withCanaryPrompt(task: ManifestCaseV1['task']): ManifestCaseV1['task'] {
  const text = `${CANARY.prompt} say ready`;
  switch (task.kind) {
    case 'chat':
      return { ...task, messages: [{ role: 'user', content: [{ type: 'text', text }] }] };
    case 'embedding':
      return { ...task, inputs: [text] };
    case 'image-generation':
    case 'image-edit':
    case 'video-generation':
      return { ...task, prompt: text };
    case 'rerank':
      return { ...task, query: text };
    default: {
      const unknownTask: never = task;
      return unknownTask;
    }
  }
}

/** Options of {@link startCertificationSimulator}. */
export interface StartCertificationSimulatorOptions {
  /** Rewrites each case after the simulator defaults were applied. */
  readonly editCase?: (manifestCase: ManifestCaseV1) => ManifestCaseV1;
  /** Resolver answer for `localhost` (default `127.0.0.1`). */
  readonly localhostAddress?: string;
}

/**
 * Starts the provider simulator over TLS and builds a manifest from the builtin template: every origin is
 * `https://localhost:<port>`, models and providers are canaries, prompts carry a canary, polling is fast. The network
 * overrides map `localhost` to loopback, allow loopback and trust the simulator's certificate (library API only).
 */
export async function startCertificationSimulator(options: StartCertificationSimulatorOptions = {}): Promise<CertificationSimulator> {
  const simulator = await startProviderSimulator({
    tls: true,
    jobTimings: { queuedMs: 30, runningMs: 30 },
    credentials: {
      openAiApiKey: `${CANARY.key}-openai`,
      anthropicApiKey: `${CANARY.key}-anthropic`,
      geminiApiKey: `${CANARY.key}-gemini`,
      cohereApiKey: `${CANARY.key}-cohere`,
      dashScopeApiKey: `${CANARY.key}-dashscope`,
      klingAccessKey: `${CANARY.key}-kling-access`,
      klingSecretKey: `${CANARY.key}-kling-secret`,
    },
  });
  const suite = createBuiltinTokenForgeProtocolSuiteV1();
  const engine = createProtocolEngineV1({ registry: suite.registry });
  const template = createCertificationManifestTemplate(registeredFamiliesOf(engine, suite)).manifest;
  const origin = `https://localhost:${simulator.port}`;
  const cases = template.cases.map((manifestCase) => {
    const family = manifestCase.target.capability.protocolFamily;
    const baseUrl = simulator.baseUrlFor(family) ?? simulator.url;
    const basePath = baseUrl.slice(simulator.url.length) || '/';
    const capability =
      manifestCase.target.capability.embedding === undefined
        ? manifestCase.target.capability
        : { ...manifestCase.target.capability, embedding: { spaceId: 'simulator-embedding-16', defaultDimensions: 16 } };
    const edited: ManifestCaseV1 = {
      ...manifestCase,
      target: { ...manifestCase.target, provider: CANARY.provider, providerModel: CANARY.model, capability },
      task: withCanaryPrompt(manifestCase.task),
      connection: { ...manifestCase.connection, origin, basePath },
      ...(manifestCase.async === undefined ? {} : { async: { maxPolls: 60, pollIntervalMs: 20, listAfterSuccess: true } }),
    };
    return options.editCase?.(edited) ?? edited;
  });
  const manifest = withExactCaps({ ...template, cases });
  const credentials = simulator.credentials;
  const env = new Map([
    ['OPENAI_API_KEY', credentials.openAiApiKey],
    ['ANTHROPIC_API_KEY', credentials.anthropicApiKey],
    ['GEMINI_API_KEY', credentials.geminiApiKey],
    ['COHERE_API_KEY', credentials.cohereApiKey],
    ['DASHSCOPE_API_KEY', credentials.dashScopeApiKey],
    ['KLING_ACCESS_KEY', credentials.klingAccessKey],
    ['KLING_SECRET_KEY', credentials.klingSecretKey],
  ]);
  const address = options.localhostAddress ?? '127.0.0.1';
  const network: CertificationNetworkOverridesV1 = {
    resolveHostname: async (hostname) => {
      if (hostname !== 'localhost') throw new Error('test resolver: unknown host');
      return [address];
    },
    allowedAddressCategories: ['loopback'],
    trustedCertificates: simulator.certificate?.cert ?? [],
  };
  return { simulator, manifest, env, network, registeredFamilies: engine.protocolFamilies, close: () => simulator.close() };
}
