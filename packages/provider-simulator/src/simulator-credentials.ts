import { randomBytes } from 'node:crypto';

/** The test credentials a simulator accepts, one per provider surface. */
export interface SimulatorCredentials {
  /** Bearer key of the OpenAI surfaces (chat, responses, embeddings, images). */
  readonly openAiApiKey: string;
  /** `x-api-key` of the Anthropic surface. */
  readonly anthropicApiKey: string;
  /** `x-goog-api-key` of the Gemini surface. */
  readonly geminiApiKey: string;
  /** Bearer key of the Cohere surface. */
  readonly cohereApiKey: string;
  /** Bearer key of the DashScope surface. */
  readonly dashScopeApiKey: string;
  /** Kling access key: the `iss` claim of the HS256 JWT. */
  readonly klingAccessKey: string;
  /** Kling secret key: verifies the JWT signature. */
  readonly klingSecretKey: string;
}

/** Credentials as `@tokenforge/http-transport` takes them (structurally `HttpTransportCredentials`). */
export type SimulatorTransportCredentials =
  | { readonly type: 'api-key'; readonly apiKey: string }
  | { readonly type: 'access-key'; readonly accessKey: string; readonly secretKey: string };

/** The nine protocol families the simulator speaks, in a stable order. */
export const SIMULATOR_PROTOCOL_FAMILIES = [
  'openai-chat/v1',
  'openai-responses/v1',
  'anthropic-messages/v1',
  'gemini-generate-content/v1',
  'openai-embeddings/v1',
  'openai-images/v1',
  'cohere-rerank/v1',
  'kling-video/v1',
  'dashscope-tasks/v1',
] as const;

function token(prefix: string): string {
  return `${prefix}${randomBytes(18).toString('base64url')}`;
}

/** Fresh random credentials; `overrides` pins some of them (for example to print stable ones). */
export function createSimulatorCredentials(overrides: Partial<SimulatorCredentials> = {}): SimulatorCredentials {
  return Object.freeze({
    openAiApiKey: overrides.openAiApiKey ?? token('sk-sim-'),
    anthropicApiKey: overrides.anthropicApiKey ?? token('sk-ant-sim-'),
    geminiApiKey: overrides.geminiApiKey ?? token('AIzaSim'),
    cohereApiKey: overrides.cohereApiKey ?? token('co-sim-'),
    dashScopeApiKey: overrides.dashScopeApiKey ?? token('sk-ds-sim-'),
    klingAccessKey: overrides.klingAccessKey ?? token('ak-sim-'),
    klingSecretKey: overrides.klingSecretKey ?? token('sk-kl-sim-'),
  });
}

/** The simulator's credential for a protocol family, in the shape a host transport takes; `undefined` for unknown families. */
export function simulatorCredentialsFor(credentials: SimulatorCredentials, protocolFamily: string): SimulatorTransportCredentials | undefined {
  switch (protocolFamily.split('/')[0]) {
    case 'openai-chat':
    case 'openai-responses':
    case 'openai-embeddings':
    case 'openai-images':
      return { type: 'api-key', apiKey: credentials.openAiApiKey };
    case 'anthropic-messages':
      return { type: 'api-key', apiKey: credentials.anthropicApiKey };
    case 'gemini-generate-content':
      return { type: 'api-key', apiKey: credentials.geminiApiKey };
    case 'cohere-rerank':
      return { type: 'api-key', apiKey: credentials.cohereApiKey };
    case 'dashscope-tasks':
      return { type: 'api-key', apiKey: credentials.dashScopeApiKey };
    case 'kling-video':
      return { type: 'access-key', accessKey: credentials.klingAccessKey, secretKey: credentials.klingSecretKey };
    default:
      return undefined;
  }
}

/**
 * The base URL a host configures for a family's connection to the simulator at `url`. Each family's adapter sends
 * paths relative to its provider's usual base: the OpenAI families `/chat/completions` under `/v1`, the others
 * their full path (`/v1/messages`, `/v1beta/models/...`, `/v2/rerank`, `/v1/videos/...`, `/api/v1/...`).
 */
export function simulatorBaseUrlFor(url: string, protocolFamily: string): string | undefined {
  switch (protocolFamily.split('/')[0]) {
    case 'openai-chat':
    case 'openai-responses':
    case 'openai-embeddings':
    case 'openai-images':
      return `${url}/v1`;
    case 'anthropic-messages':
    case 'gemini-generate-content':
    case 'cohere-rerank':
    case 'dashscope-tasks':
    case 'kling-video':
      return url;
    default:
      return undefined;
  }
}
