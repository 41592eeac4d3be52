import type { ProtocolCapabilityV2, TaskEnvelopeV2 } from '@tokenforge/model-protocol';
import {
  CERTIFICATION_MANIFEST_VERSION_V1,
  type CertificationManifestV1,
  type ManifestAsyncPollingV1,
  type ManifestCaseV1,
  type ManifestConnectionV1,
} from './certification-manifest-v1.js';
import type { RegisteredFamilyV1 } from './registered-families.js';
import { worstCasePollingMs, worstCaseRequests } from './worst-case-requests.js';

interface FamilyTemplate {
  readonly provider: string;
  readonly providerModel: string;
  readonly connection: ManifestConnectionV1;
  readonly capability: Omit<ProtocolCapabilityV2, 'protocolFamily'>;
  readonly tasks: readonly { readonly suffix: string; readonly task: TaskEnvelopeV2 }[];
  readonly async?: ManifestAsyncPollingV1;
}

const apiKey = (apiKeyEnv: string) => ({ type: 'api-key' as const, apiKeyEnv });
const question = [{ role: 'user' as const, content: [{ type: 'text' as const, text: 'Reply with the single word: ready.' }] }];
const chatTasks = [
  { suffix: 'sync', task: { kind: 'chat', messages: question, stream: false, maxOutputTokens: 64 } },
  { suffix: 'stream', task: { kind: 'chat', messages: question, stream: true, maxOutputTokens: 64 } },
] as const satisfies FamilyTemplate['tasks'];
const chatCapability = { executionMode: 'stream-capable', taskKinds: ['chat'] } as const satisfies FamilyTemplate['capability'];
const polling: ManifestAsyncPollingV1 = { maxPolls: 60, pollIntervalMs: 10_000, listAfterSuccess: true };

/** Template cases of the builtin families. Targets and origins are examples to edit, not recommendations. */
const FAMILY_TEMPLATES: Readonly<Record<string, FamilyTemplate>> = {
  'openai-chat/v1': {
    provider: 'openai',
    providerModel: 'gpt-4.1-mini',
    connection: { origin: 'https://api.openai.com', basePath: '/v1', credentials: apiKey('OPENAI_API_KEY') },
    capability: chatCapability,
    tasks: chatTasks,
  },
  'openai-responses/v1': {
    provider: 'openai',
    providerModel: 'gpt-4.1-mini',
    connection: { origin: 'https://api.openai.com', basePath: '/v1', credentials: apiKey('OPENAI_API_KEY') },
    capability: chatCapability,
    tasks: chatTasks,
  },
  'anthropic-messages/v1': {
    provider: 'anthropic',
    providerModel: 'claude-haiku-4-5',
    connection: { origin: 'https://api.anthropic.com', basePath: '/', credentials: apiKey('ANTHROPIC_API_KEY') },
    capability: chatCapability,
    tasks: chatTasks,
  },
  'gemini-generate-content/v1': {
    provider: 'google',
    providerModel: 'gemini-2.5-flash',
    connection: { origin: 'https://generativelanguage.googleapis.com', basePath: '/', credentials: apiKey('GEMINI_API_KEY') },
    capability: chatCapability,
    tasks: chatTasks,
  },
  'openai-embeddings/v1': {
    provider: 'openai',
    providerModel: 'text-embedding-3-small',
    connection: { origin: 'https://api.openai.com', basePath: '/v1', credentials: apiKey('OPENAI_API_KEY') },
    capability: { executionMode: 'sync', taskKinds: ['embedding'], embedding: { spaceId: 'openai-text-embedding-3-small', defaultDimensions: 1536 } },
    tasks: [{ suffix: 'sync', task: { kind: 'embedding', inputs: ['certification probe'] } }],
  },
  'openai-images/v1': {
    provider: 'openai',
    providerModel: 'gpt-image-1',
    connection: { origin: 'https://api.openai.com', basePath: '/v1', credentials: apiKey('OPENAI_API_KEY') },
    capability: { executionMode: 'sync', taskKinds: ['image-generation'] },
    tasks: [{ suffix: 'sync', task: { kind: 'image-generation', prompt: 'a small blue square on white', size: '1024x1024', quality: 'low' } }],
  },
  'cohere-rerank/v1': {
    provider: 'cohere',
    providerModel: 'rerank-v3.5',
    connection: { origin: 'https://api.cohere.com', basePath: '/', credentials: apiKey('COHERE_API_KEY') },
    capability: { executionMode: 'sync', taskKinds: ['rerank'] },
    tasks: [{ suffix: 'sync', task: { kind: 'rerank', query: 'capital of France', documents: ['Paris is the capital of France.', 'Berlin is in Germany.'], topN: 1 } }],
  },
  'kling-video/v1': {
    provider: 'kling',
    providerModel: 'kling-v2-master',
    connection: { origin: 'https://api-singapore.klingai.com', basePath: '/', credentials: { type: 'access-key', accessKeyEnv: 'KLING_ACCESS_KEY', secretKeyEnv: 'KLING_SECRET_KEY' } },
    capability: { executionMode: 'async-job', taskKinds: ['video-generation'] },
    tasks: [{ suffix: 'async', task: { kind: 'video-generation', prompt: 'a paper boat on a calm lake', durationSeconds: 5 } }],
    async: polling,
  },
  'dashscope-tasks/v1': {
    provider: 'dashscope',
    providerModel: 'wan2.2-t2v-plus',
    connection: { origin: 'https://dashscope-intl.aliyuncs.com', basePath: '/', credentials: apiKey('DASHSCOPE_API_KEY') },
    capability: { executionMode: 'async-job', taskKinds: ['video-generation'] },
    tasks: [{ suffix: 'async', task: { kind: 'video-generation', prompt: 'a paper boat on a calm lake', durationSeconds: 5 } }],
    async: polling,
  },
};

/** A generated template and the registered families it has no template case for. */
export interface ManifestTemplateV1 {
  readonly manifest: CertificationManifestV1;
  /** Registered families without a builtin template case: add cases for them by hand. */
  readonly familiesWithoutTemplate: readonly string[];
}

/**
 * Builds a manifest template for the registered families, with `caps.maxRequests` set to the exact worst case of its
 * cases and `caps.maxDurationMs` to the polling bound plus two minutes per case.
 */
export function createCertificationManifestTemplate(registered: readonly RegisteredFamilyV1[]): ManifestTemplateV1 {
  const cases: ManifestCaseV1[] = [];
  const familiesWithoutTemplate: string[] = [];
  for (const { protocolFamily } of registered) {
    const template = FAMILY_TEMPLATES[protocolFamily];
    if (template === undefined) {
      familiesWithoutTemplate.push(protocolFamily);
      continue;
    }
    const name = protocolFamily.replace('/', '-');
    for (const { suffix, task } of template.tasks) {
      cases.push({
        caseId: `${name}-${suffix}`,
        target: { provider: template.provider, providerModel: template.providerModel, connectionRef: `certification/${name}`, capability: { ...template.capability, protocolFamily } },
        task,
        connection: template.connection,
        ...(template.async === undefined ? {} : { async: template.async }),
      });
    }
  }
  return { manifest: withExactCaps({ manifestVersion: CERTIFICATION_MANIFEST_VERSION_V1, caps: { maxRequests: 1, maxDurationMs: 1000 }, cases }), familiesWithoutTemplate };
}

/** The manifest with `caps` recomputed from its cases (request cap exact; duration cap polling + 2 min per case). */
export function withExactCaps(manifest: CertificationManifestV1): CertificationManifestV1 {
  const maxDurationMs = Math.max(1000, worstCasePollingMs(manifest) + manifest.cases.length * 120_000);
  return { ...manifest, caps: { maxRequests: Math.max(1, worstCaseRequests(manifest).total), maxDurationMs } };
}
