import type { ProtocolCapabilityV2, TaskEnvelopeV2 } from '@tokenforge/model-protocol';

/** What the demo runs for one protocol family against the simulator. */
export interface DemoFamilyPlan {
  /** The wire model name (a plain one: the simulator answers it with its default scenario). */
  readonly providerModel: string;
  /** The target's capability, without the family (the demo adds it). */
  readonly capability: Omit<ProtocolCapabilityV2, 'protocolFamily'>;
  /** A task run as a sync execution, when the family runs sync tasks. */
  readonly sync?: TaskEnvelopeV2;
  /** A task run as a stream, when the family streams. */
  readonly stream?: TaskEnvelopeV2;
  /** A task started as an async job, when the family is async. */
  readonly async?: TaskEnvelopeV2;
}

const QUESTION = [{ role: 'user' as const, content: [{ type: 'text' as const, text: 'Say hello to the simulator.' }] }];

function chatPlan(providerModel: string): DemoFamilyPlan {
  return {
    providerModel,
    capability: { executionMode: 'stream-capable', taskKinds: ['chat'], tools: true },
    sync: { kind: 'chat', messages: QUESTION, stream: false, maxOutputTokens: 256 },
    stream: { kind: 'chat', messages: QUESTION, stream: true, maxOutputTokens: 256 },
  };
}

/**
 * One plan per family the simulator speaks. A family the engine lists but this table does not know shows up in
 * the matrix as a failed row, so a newly registered family cannot be skipped silently.
 */
export const DEMO_FAMILY_PLANS: Readonly<Record<string, DemoFamilyPlan>> = {
  'openai-chat/v1': chatPlan('gpt-4.1-mini'),
  'openai-responses/v1': chatPlan('gpt-5-mini'),
  'anthropic-messages/v1': chatPlan('claude-sonnet-4-5'),
  'gemini-generate-content/v1': chatPlan('gemini-2.5-flash'),
  'openai-embeddings/v1': {
    providerModel: 'text-embedding-3-small',
    capability: { executionMode: 'sync', taskKinds: ['embedding'], embedding: { spaceId: 'simulator-embedding-16', defaultDimensions: 16 } },
    sync: { kind: 'embedding', inputs: ['first document', 'second document'] },
  },
  'openai-images/v1': {
    providerModel: 'gpt-image-1',
    capability: { executionMode: 'sync', taskKinds: ['image-generation', 'image-edit'] },
    sync: { kind: 'image-generation', prompt: 'a lighthouse at dusk', size: '1024x1024' },
  },
  'cohere-rerank/v1': {
    providerModel: 'rerank-v3.5',
    capability: { executionMode: 'sync', taskKinds: ['rerank'] },
    sync: { kind: 'rerank', query: 'capital of france', documents: ['Berlin is in Germany.', 'Paris is the capital of France.', 'Rome is old.'], topN: 2 },
  },
  'kling-video/v1': {
    providerModel: 'kling-v2-master',
    capability: { executionMode: 'async-job', taskKinds: ['video-generation'] },
    async: { kind: 'video-generation', prompt: 'a red fox running through snow', durationSeconds: 5 },
  },
  'dashscope-tasks/v1': {
    providerModel: 'wan2.2-t2v-plus',
    capability: { executionMode: 'async-job', taskKinds: ['video-generation', 'image-generation'] },
    async: { kind: 'video-generation', prompt: 'waves at dusk', durationSeconds: 5 },
  },
};
