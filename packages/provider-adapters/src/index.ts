// The public surface of @tokenforge/provider-adapters. Every name is listed explicitly.

// Codec kit: the shared implementation every family uses; exported for embedders adding their own families.
export {
  DEFAULT_SAFE_JSON_MAX_BYTES,
  DEFAULT_SAFE_JSON_MAX_DEPTH,
  parseSafeJson,
  parseSafeJsonBytes,
} from './codec-kit/safe-json.js';
export type { SafeJsonLimits } from './codec-kit/safe-json.js';

export { DEFAULT_MAX_BODY_BYTES, readBodyBytes, readJsonBody, releaseBody } from './codec-kit/read-body.js';
export type { ReadBodyOptions, ReadJsonBodyOptions } from './codec-kit/read-body.js';

export { DEFAULT_MAX_SSE_EVENT_BYTES, createSseParser, decodeSseStream } from './codec-kit/sse-decoder.js';
export type { SseBareJson, SseComment, SseDecoderOptions, SseEvent, SseItem, SseParser } from './codec-kit/sse-decoder.js';

export { DEFAULT_MAX_NDJSON_LINE_BYTES, decodeNdjsonLines, decodeNdjsonValues } from './codec-kit/ndjson-decoder.js';
export type { NdjsonDecoderOptions, NdjsonValuesOptions } from './codec-kit/ndjson-decoder.js';

export { SSE_DONE_DATA, encodeSseComment, encodeSseDone, encodeSseEvent, formatSseEvent } from './codec-kit/sse-encoder.js';
export type { SseEncodableEvent } from './codec-kit/sse-encoder.js';

export { DEFAULT_MAX_FLOAT32_BYTES, decodeBase64Float32 } from './codec-kit/base64-float32.js';
export type { DecodeBase64Float32Options } from './codec-kit/base64-float32.js';

export { DEFAULT_MAX_TOOL_ARGUMENTS_LENGTH, createToolCallAccumulator } from './codec-kit/tool-call-accumulator.js';
export type {
  AccumulatedToolCall,
  ToolCallAccumulator,
  ToolCallAccumulatorOptions,
  ToolCallIdentity,
} from './codec-kit/tool-call-accumulator.js';

export { assertUsageConsistent, mergeUsageSnapshot, usageEquals } from './codec-kit/usage-reconciliation.js';

export {
  DEFAULT_RETRY_AFTER_MS_HEADERS,
  MAX_RETRY_AFTER_MS,
  parseRetryAfterMs,
  parseRetryAfterMsHint,
  readRetryAfterMs,
} from './codec-kit/retry-after.js';

export { readRateLimitHeaders, sameRateLimitHeaderDialect, writeRateLimitHeaders } from './codec-kit/rate-limit-headers.js';
export type { RateLimitHeaderDialectV1, RateLimitWindowHeadersV1 } from './codec-kit/rate-limit-headers.js';

export { boundProviderCode, createHttpFailure, mapHttpStatusToFailure } from './codec-kit/http-failure.js';
export type { CreateHttpFailureInput, HttpStatusFailure } from './codec-kit/http-failure.js';

export { PROTOCOL_VIOLATION_REASONS, ProtocolViolationError, isProtocolViolationError } from './codec-kit/protocol-violation-error.js';
export type { ProtocolViolationReason } from './codec-kit/protocol-violation-error.js';

export { terminalForError } from './codec-kit/terminal-for-error.js';
export { diagnosticForError, reportDiagnostic } from './codec-kit/diagnostic-for-error.js';
export type { DiagnosticReport } from './codec-kit/diagnostic-for-error.js';
export type { TerminalForErrorOptions } from './codec-kit/terminal-for-error.js';

export { createAdapterStreamParts } from './codec-kit/adapter-stream.js';
export type { AdapterStreamMachine, AdapterStreamStep, CreateAdapterStreamPartsOptions } from './codec-kit/adapter-stream.js';

export { DEFAULT_MAX_ERROR_BODY_BYTES, readJsonResponse } from './codec-kit/json-response.js';
export type { JsonResponseOutcome, ReadJsonResponseOptions } from './codec-kit/json-response.js';

export { classifyAsyncStartError } from './codec-kit/classify-async-start-error.js';
export { isHttpsMediaUrl } from './codec-kit/https-media-url.js';
export { finishedExecution } from './codec-kit/finished-execution.js';
export { createOpaqueStateSeal } from './codec-kit/opaque-state-seal.js';
export type { OpaqueStateSeal, OpenedOpaqueState } from './codec-kit/opaque-state-seal.js';
export { fitOpaqueStateToTarget } from './codec-kit/fit-opaque-state.js';
export type { FittedOpaqueState, OpaqueStateRoute } from './codec-kit/fit-opaque-state.js';
export { sealEgressOpaqueState } from './codec-kit/seal-egress-opaque-state.js';
export type { OpaqueStateSource } from './codec-kit/seal-egress-opaque-state.js';
export { createToolNameCheck } from './codec-kit/tool-name-check.js';
export type { ToolNameCheck } from './codec-kit/tool-name-check.js';
export { resolveReasoningEffortV3 } from './codec-kit/reasoning-effort.js';
export { ENGINE_CAPABILITY_REFUSAL_CODES, forEngineCapabilityRefusals } from './codec-kit/engine-refusal-codes.js';
export { GATEWAY_REFUSALS, forGatewayRefusals } from './codec-kit/gateway-refusal-codes.js';
export type { GatewayRefusalCode, GatewayRefusalKind, GatewayRefusalMeaning } from './codec-kit/gateway-refusal-codes.js';

// Suites.
export { createTokenForgeProtocolSuiteV1 } from './suite/create-protocol-suite-v1.js';
export type {
  CreateTokenForgeProtocolSuiteInputV1,
  ProtocolSuiteRegistryV1,
  TokenForgeProtocolSuiteV1,
} from './suite/create-protocol-suite-v1.js';
export { createBuiltinTokenForgeProtocolSuiteV1 } from './suite/builtin-suite.js';
export { PROTOCOL_SUITE_ERROR_CODES_V1, ProtocolSuiteErrorV1, isProtocolSuiteErrorV1 } from './suite/protocol-suite-error-v1.js';
export type { ProtocolSuiteErrorCodeV1, ProtocolSuiteErrorLocationV1 } from './suite/protocol-suite-error-v1.js';
export type {
  ProtocolSuiteEntryV1,
  SyncProtocolSuiteEntryV1,
  AsyncProtocolSuiteEntryV1,
  ProtocolSuiteCodecsV1,
} from './suite/protocol-suite-entry-v1.js';

// Fixture transport, for embedders' own tests.
export { createFixtureTransportV1 } from './testing/fixture-transport.js';
export type {
  CreateFixtureTransportOptionsV1,
  FixtureResponseV1,
  FixtureResponseBodyV1,
  FixtureFailureV1,
  FixtureBodyStateV1,
  FixtureTransportV1,
} from './testing/fixture-transport.js';
export { FIXTURE_TRANSPORT_ERROR_CODES_V1, FixtureTransportErrorV1, isFixtureTransportErrorV1 } from './testing/fixture-transport-error.js';
export type { FixtureTransportErrorCodeV1 } from './testing/fixture-transport-error.js';
export { frameRecordedChunksV1 } from './testing/frame-recorded-chunks.js';
export type { FixtureChunkFramingV1, FrameRecordedChunksOptionsV1 } from './testing/frame-recorded-chunks.js';
export type {
  RecordedTransportRequestV1,
  RecordedRequestBodyV1,
  RecordedMultipartPartV1,
} from './testing/record-transport-request.js';

// Protocol families: the family id, adapter factory, codecs, suite entry and transport metadata of each.
export {
  ANTHROPIC_MESSAGES_PROTOCOL_FAMILY,
  createAnthropicMessagesAdapterFactory,
  createAnthropicMessagesIngressCodec,
  createAnthropicMessagesEgressCodec,
  createAnthropicMessagesSuiteEntry,
  createAnthropicMessagesSuiteEntryV1,
  ANTHROPIC_MESSAGES_TRANSPORT_METADATA,
  anthropicMessagesTransportMetadata,
  ANTHROPIC_VERSION,
} from './protocols/anthropic-messages/index.js';
export type {
  AnthropicMessagesAdapterOptionsV1,
  AnthropicMessagesDecodedRequestV1,
  AnthropicMessagesIngressOptionsV1,
} from './protocols/anthropic-messages/index.js';
export {
  OPENAI_CHAT_PROTOCOL_FAMILY,
  createOpenAiChatAdapterFactory,
  createOpenAiChatIngressCodec,
  createOpenAiChatEgressCodec,
  createOpenAiChatSuiteEntryV1,
  OPENAI_CHAT_TRANSPORT_METADATA,
} from './protocols/openai-chat/index.js';
export type { OpenAiChatAdapterOptionsV1, OpenAiChatProtocolOptionsV1, OpenAiChatIngressOptionsV1 } from './protocols/openai-chat/index.js';
export {
  GEMINI_GENERATE_CONTENT_PROTOCOL_FAMILY,
  createGeminiGenerateContentAdapterFactory,
  createGeminiGenerateContentIngressCodec,
  createGeminiGenerateContentEgressCodec,
  createGeminiGenerateContentSuiteEntry,
  createGeminiGenerateContentSuiteEntryV1,
  GEMINI_GENERATE_CONTENT_TRANSPORT_METADATA,
} from './protocols/gemini-generate-content/index.js';
export type {
  GeminiDecodedRequestV1,
  GeminiEgressOptionsV1,
  GeminiGenerateContentAdapterOptionsV1,
  GeminiIngressOptionsV1,
  GeminiStreamFramingV1,
} from './protocols/gemini-generate-content/index.js';
export {
  OPENAI_RESPONSES_PROTOCOL_FAMILY,
  createOpenAiResponsesAdapterFactory,
  createOpenAiResponsesIngressCodec,
  createOpenAiResponsesEgressCodec,
  createOpenAiResponsesSuiteEntryV1,
  OPENAI_RESPONSES_TRANSPORT_METADATA,
} from './protocols/openai-responses/index.js';
export type {
  OpenAiResponsesAdapterOptionsV1,
  OpenAiResponsesDecodedRequestV1,
  OpenAiResponsesEgressOptionsV1,
  OpenAiResponsesIngressOptionsV1,
} from './protocols/openai-responses/index.js';
export {
  OPENAI_EMBEDDINGS_PROTOCOL_FAMILY,
  createOpenAiEmbeddingsAdapterFactory,
  createOpenAiEmbeddingsIngressCodec,
  createOpenAiEmbeddingsEgressCodec,
  createOpenAiEmbeddingsSuiteEntryV1,
  OPENAI_EMBEDDINGS_TRANSPORT_METADATA,
} from './protocols/openai-embeddings/index.js';
export type {
  OpenAiEmbeddingsAdapterOptionsV1,
  OpenAiEmbeddingsIngressOptionsV1,
  OpenAiEmbeddingsEgressOptionsV1,
} from './protocols/openai-embeddings/index.js';
export {
  OPENAI_IMAGES_PROTOCOL_FAMILY,
  createOpenAiImagesAdapterFactory,
  createOpenAiImagesIngressCodec,
  createOpenAiImagesEgressCodec,
  createOpenAiImagesSuiteEntryV1,
  OPENAI_IMAGES_TRANSPORT_METADATA,
} from './protocols/openai-images/index.js';
export type { OpenAiImagesAdapterOptionsV1, OpenAiImagesIngressOptionsV1 } from './protocols/openai-images/index.js';
export {
  KLING_VIDEO_PROTOCOL_FAMILY,
  createKlingVideoAdapterFactory,
  createKlingVideoSuiteEntryV1,
  KLING_VIDEO_TRANSPORT_METADATA,
  encodeKlingJobId,
  decodeKlingJobId,
} from './protocols/kling-video/index.js';
export type { KlingVideoAdapterOptionsV1, KlingJobAddress } from './protocols/kling-video/index.js';
export {
  DASHSCOPE_TASKS_PROTOCOL_FAMILY,
  createDashScopeTasksAdapterFactory,
  createDashScopeTasksSuiteEntryV1,
  DASHSCOPE_TASKS_TRANSPORT_METADATA,
} from './protocols/dashscope-tasks/index.js';
export type { DashScopeTasksAdapterOptionsV1 } from './protocols/dashscope-tasks/index.js';
export {
  COHERE_RERANK_PROTOCOL_FAMILY,
  createCohereRerankAdapterFactory,
  createCohereRerankIngressCodec,
  createCohereRerankEgressCodec,
  createCohereRerankSuiteEntryV1,
  COHERE_RERANK_TRANSPORT_METADATA,
} from './protocols/cohere-rerank/index.js';
export type {
  CohereRerankAdapterOptionsV1,
  CohereRerankProtocolOptionsV1,
  CohereRerankIngressOptionsV1,
} from './protocols/cohere-rerank/index.js';

// Client counting endpoints (`count_tokens`, `input_tokens`, `countTokens`): ingress decode and egress encode.
export { decodeAnthropicClientCountRequest, encodeAnthropicClientCountResponse } from './protocols/anthropic-messages/index.js';
export { decodeOpenAiResponsesClientCountRequest, encodeOpenAiResponsesClientCountResponse } from './protocols/openai-responses/index.js';
export { decodeGeminiClientCountRequest, encodeGeminiClientCountResponse } from './protocols/gemini-generate-content/index.js';
export {
  AGENT_CLI_PROTOCOL_FAMILY,
  AGENT_CLI_CAPABILITY,
  AGENT_CLI_NAMES,
  agentCliMapping,
  createAgentCliAdapterFactory,
  createAgentCliSuiteEntryV1,
} from './protocols/agent-cli/index.js';
export type { AgentCliAdapterOptionsV1, AgentCliName, CliFrame, CliMapping, CliRunPlan, RenderedPrompt } from './protocols/agent-cli/index.js';
