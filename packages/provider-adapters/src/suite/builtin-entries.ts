import { createAnthropicMessagesSuiteEntryV1 } from '../protocols/anthropic-messages/suite-entry.js';
import { createOpenAiChatSuiteEntryV1 } from '../protocols/openai-chat/suite-entry.js';
import { createGeminiGenerateContentSuiteEntryV1 } from '../protocols/gemini-generate-content/suite-entry.js';
import { createOpenAiEmbeddingsSuiteEntryV1 } from '../protocols/openai-embeddings/suite-entry.js';
import { createOpenAiImagesSuiteEntryV1 } from '../protocols/openai-images/suite-entry.js';
import { createOpenAiResponsesSuiteEntryV1 } from '../protocols/openai-responses/suite-entry.js';
import { createKlingVideoSuiteEntryV1 } from '../protocols/kling-video/suite-entry.js';
import { createDashScopeTasksSuiteEntryV1 } from '../protocols/dashscope-tasks/suite-entry.js';
import { createCohereRerankSuiteEntryV1 } from '../protocols/cohere-rerank/suite-entry.js';
import type { ProtocolSuiteEntryV1 } from './protocol-suite-entry-v1.js';

/**
 * The families TokenForge ships, one entry each. A family folder adds its import above and its entry below;
 * `createBuiltinTokenForgeProtocolSuiteV1()` validates the list, and the conformance harness requires cases for
 * every family listed here.
 */
export const builtinProtocolSuiteEntriesV1: readonly ProtocolSuiteEntryV1[] = [
  createAnthropicMessagesSuiteEntryV1(),
  createOpenAiChatSuiteEntryV1(),
  createGeminiGenerateContentSuiteEntryV1(),
  createOpenAiEmbeddingsSuiteEntryV1(),
  createOpenAiImagesSuiteEntryV1(),
  createOpenAiResponsesSuiteEntryV1(),
  createKlingVideoSuiteEntryV1(),
  createDashScopeTasksSuiteEntryV1(),
  createCohereRerankSuiteEntryV1(),
];
