import { randomBytes } from 'node:crypto';
import type { ProviderSimulator } from '@tokenforge/provider-simulator';
import { priceTableV1Schema } from '../governance/v1/price-table-v1.js';
import type { GatewayCatalogueV1, GatewayTargetV1 } from './gateway-catalogue-v1.js';

/**
 * The demo price of every simulator target, so that the embedded default meters something: USD 1 per million input
 * tokens (0.10 cached), 4 per million output tokens, 0.04 per image, 0.10 per second of video.
 */
export const EMBEDDED_DEMO_PRICE = priceTableV1Schema.parse({
  currency: 'USD',
  version: 'simulator-demo-1',
  inputPerMillion: '1',
  cachedInputReadPerMillion: '0.1',
  outputPerMillion: '4',
  perImage: '0.04',
  perVideoSecond: '0.1',
});

/** The environment variable names of the embedded default (values are generated at start, never written anywhere). */
export const EMBEDDED_CLIENT_KEY_ENV = 'TOKENFORGE_GATEWAY_CLIENT_KEY';
export const EMBEDDED_SIGNING_KEY_ENV = 'TOKENFORGE_GATEWAY_JOB_SIGNING_KEY';

interface EmbeddedModel {
  readonly name: string;
  readonly family: string;
  readonly providerModel: string;
  readonly taskKind: GatewayCatalogueV1['models'][number]['taskKind'];
  readonly capability?: GatewayTargetV1['capability'];
}

/** One public model per family of the simulator (all nine), the structured-output models, and a chat model that shows fallback. */
const EMBEDDED_MODELS: readonly EmbeddedModel[] = [
  // The simulated providers take the agent-era switches their real counterparts have: the parallel-tool-calls
  // switch (OpenAI chat, Responses, Anthropic), hosted web search (Responses, Anthropic, Gemini) and context
  // management (Anthropic), and the effort levels of current models, so an effort travels as a level (Anthropic's
  // `output_config.effort` with adaptive thinking, Gemini's `thinkingLevel`). The simulator answers the counting
  // endpoint of three families: they declare `token-count`.
  {
    name: 'sim-openai-chat',
    family: 'openai-chat/v1',
    providerModel: 'gpt-4.1-mini',
    taskKind: 'chat',
    capability: { parallelToolCalls: true, reasoningEfforts: ['none', 'minimal', 'low', 'medium', 'high', 'xhigh'] },
  },
  {
    name: 'sim-openai-responses',
    family: 'openai-responses/v1',
    providerModel: 'gpt-5-mini',
    taskKind: 'chat',
    capability: { taskKinds: ['chat', 'token-count'], parallelToolCalls: true, hostedTools: ['web-search'], reasoningEfforts: ['none', 'minimal', 'low', 'medium', 'high', 'xhigh'] },
  },
  {
    name: 'sim-anthropic',
    family: 'anthropic-messages/v1',
    providerModel: 'claude-sonnet-4-5',
    taskKind: 'chat',
    capability: {
      taskKinds: ['chat', 'token-count'],
      parallelToolCalls: true,
      hostedTools: ['web-search'],
      contextManagement: true,
      reasoningEfforts: ['low', 'medium', 'high', 'xhigh', 'max'],
    },
  },
  {
    name: 'sim-gemini',
    family: 'gemini-generate-content/v1',
    providerModel: 'gemini-2.5-flash',
    taskKind: 'chat',
    capability: { taskKinds: ['chat', 'token-count'], hostedTools: ['web-search'], reasoningEfforts: ['minimal', 'low', 'medium', 'high'] },
  },
  {
    name: 'sim-embeddings',
    family: 'openai-embeddings/v1',
    providerModel: 'text-embedding-3-small',
    taskKind: 'embedding',
    capability: { embedding: { spaceId: 'simulator-embedding-16', defaultDimensions: 16 } },
  },
  { name: 'sim-images', family: 'openai-images/v1', providerModel: 'gpt-image-1', taskKind: 'image-generation' },
  { name: 'sim-image-edits', family: 'openai-images/v1', providerModel: 'gpt-image-1', taskKind: 'image-edit' },
  { name: 'sim-rerank', family: 'cohere-rerank/v1', providerModel: 'rerank-v3.5', taskKind: 'rerank' },
  { name: 'sim-kling-video', family: 'kling-video/v1', providerModel: 'kling-v2-master', taskKind: 'video-generation' },
  { name: 'sim-dashscope-video', family: 'dashscope-tasks/v1', providerModel: 'wan2.2-t2v-plus', taskKind: 'video-generation' },
  // Structured output, one target of each strategy over the simulator's `structured` scenario; `-bad` answers JSON
  // that breaks the schema (the simulator's `structured.bad`), so the gateway's mismatch error can be seen.
  ...structuredModels('native', 'openai-chat/v1', 'native-json-schema'),
  ...structuredModels('json-object', 'openai-chat/v1', 'json-object'),
  ...structuredModels('forced-tool', 'anthropic-messages/v1', 'forced-tool'),
];

function structuredModels(label: string, family: string, structuredOutput: 'native-json-schema' | 'json-object' | 'forced-tool'): EmbeddedModel[] {
  return [
    { name: `sim-structured-${label}`, family, providerModel: 'structured', taskKind: 'chat', capability: { structuredOutput } },
    { name: `sim-structured-${label}-bad`, family, providerModel: 'structured.bad', taskKind: 'chat', capability: { structuredOutput } },
  ];
}

function envPrefix(family: string): string {
  return `TOKENFORGE_SIMULATOR_${(family.split('/')[0] ?? family).replace(/-/g, '_').toUpperCase()}`;
}

function targetFor(simulator: ProviderSimulator, family: string, providerModel: string, capability?: GatewayTargetV1['capability']): GatewayTargetV1 {
  const credentials = simulator.credentialsFor(family);
  return {
    provider: 'provider-simulator',
    family: family as GatewayTargetV1['family'],
    model: providerModel,
    baseUrl: simulator.baseUrlFor(family) ?? simulator.url,
    credentials:
      credentials?.type === 'access-key'
        ? { accessKeyEnv: `${envPrefix(family)}_ACCESS_KEY`, secretKeyEnv: `${envPrefix(family)}_SECRET_KEY` }
        : { apiKeyEnv: `${envPrefix(family)}_API_KEY` },
    network: { allowLoopback: true },
    price: EMBEDDED_DEMO_PRICE,
    ...(capability === undefined ? {} : { capability }),
  };
}

/** The embedded default: a catalogue over a running simulator and the environment (generated secrets) it needs. */
export function createEmbeddedCatalogue(simulator: ProviderSimulator): { catalogue: GatewayCatalogueV1; env: Record<string, string>; clientKey: string } {
  const clientKey = `tfg-local-${randomBytes(18).toString('base64url')}`;
  const env: Record<string, string> = {
    [EMBEDDED_CLIENT_KEY_ENV]: clientKey,
    [EMBEDDED_SIGNING_KEY_ENV]: randomBytes(32).toString('base64url'),
  };
  for (const model of EMBEDDED_MODELS) {
    const credentials = simulator.credentialsFor(model.family);
    if (credentials?.type === 'access-key') {
      env[`${envPrefix(model.family)}_ACCESS_KEY`] = credentials.accessKey;
      env[`${envPrefix(model.family)}_SECRET_KEY`] = credentials.secretKey;
    } else if (credentials !== undefined) {
      env[`${envPrefix(model.family)}_API_KEY`] = credentials.apiKey;
    }
  }
  const models: GatewayCatalogueV1['models'] = EMBEDDED_MODELS.map((model) => ({
    name: model.name,
    taskKind: model.taskKind,
    targets: [targetFor(simulator, model.family, model.providerModel, model.capability)],
  }));
  // First target always answers 503 (the simulator's `error.503` scenario), so every request falls back.
  models.push({
    name: 'sim-chat-fallback',
    taskKind: 'chat',
    targets: [targetFor(simulator, 'openai-chat/v1', 'error.503'), targetFor(simulator, 'anthropic-messages/v1', 'claude-sonnet-4-5')],
  });
  return {
    catalogue: { version: 1, clientKeys: [{ id: 'local', env: EMBEDDED_CLIENT_KEY_ENV }], models, jobs: { signingKeyEnv: EMBEDDED_SIGNING_KEY_ENV } },
    env,
    clientKey,
  };
}
