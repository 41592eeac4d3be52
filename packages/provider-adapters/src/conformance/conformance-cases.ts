import { anthropicMessagesConformanceCases } from '../protocols/anthropic-messages/conformance-cases.js';
import { openAiChatConformanceCases } from '../protocols/openai-chat/conformance-cases.js';
import { geminiGenerateContentConformanceCases } from '../protocols/gemini-generate-content/conformance-cases.js';
import { openAiEmbeddingsConformanceCases } from '../protocols/openai-embeddings/conformance-cases.js';
import { openAiImagesConformanceCases } from '../protocols/openai-images/conformance-cases.js';
import { openAiResponsesConformanceCases } from '../protocols/openai-responses/conformance-cases.js';
import { klingVideoConformanceCases } from '../protocols/kling-video/conformance-cases.js';
import { dashScopeTasksConformanceCases } from '../protocols/dashscope-tasks/conformance-cases.js';
import { cohereRerankConformanceCases } from '../protocols/cohere-rerank/conformance-cases.js';
import type { ConformanceCaseMapV1 } from './conformance-case-v1.js';

/**
 * The conformance cases of the builtin families, keyed by family. A family folder adds its import above and one
 * line below (`'openai-chat/v1': openAiChatConformanceCases,`). `runtime-conformance.test.ts` fails for any
 * registered family without cases and for cases of a family the builtin suite does not register.
 */
export const builtinConformanceCasesV1: ConformanceCaseMapV1 = {
  'anthropic-messages/v1': anthropicMessagesConformanceCases,
  'openai-chat/v1': openAiChatConformanceCases,
  'gemini-generate-content/v1': geminiGenerateContentConformanceCases,
  'openai-embeddings/v1': openAiEmbeddingsConformanceCases,
  'openai-images/v1': openAiImagesConformanceCases,
  'openai-responses/v1': openAiResponsesConformanceCases,
  'kling-video/v1': klingVideoConformanceCases,
  'dashscope-tasks/v1': dashScopeTasksConformanceCases,
  'cohere-rerank/v1': cohereRerankConformanceCases,
};
