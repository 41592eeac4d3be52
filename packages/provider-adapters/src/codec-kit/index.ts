/**
 * The codec kit: the one implementation of body reading, safe JSON, SSE and NDJSON framing, base64
 * vectors, tool-call accumulation, usage reconciliation, retry hints, HTTP failure defaults and the adapter
 * stream driver that every protocol family in this package uses. Web-standard APIs only.
 */
export {
  DEFAULT_SAFE_JSON_MAX_BYTES,
  DEFAULT_SAFE_JSON_MAX_DEPTH,
  parseSafeJson,
  parseSafeJsonBytes,
} from './safe-json.js';
export type { SafeJsonLimits } from './safe-json.js';

export { DEFAULT_MAX_BODY_BYTES, readBodyBytes, readJsonBody, releaseBody } from './read-body.js';
export type { ReadBodyOptions, ReadJsonBodyOptions } from './read-body.js';

export { DEFAULT_MAX_SSE_EVENT_BYTES, createSseParser, decodeSseStream } from './sse-decoder.js';
export type { SseBareJson, SseComment, SseDecoderOptions, SseEvent, SseItem, SseParser } from './sse-decoder.js';

export { DEFAULT_MAX_NDJSON_LINE_BYTES, decodeNdjsonLines, decodeNdjsonValues } from './ndjson-decoder.js';
export type { NdjsonDecoderOptions, NdjsonValuesOptions } from './ndjson-decoder.js';

export { SSE_DONE_DATA, encodeSseComment, encodeSseDone, encodeSseEvent, formatSseEvent } from './sse-encoder.js';
export type { SseEncodableEvent } from './sse-encoder.js';

export { DEFAULT_MAX_FLOAT32_BYTES, decodeBase64Float32 } from './base64-float32.js';
export type { DecodeBase64Float32Options } from './base64-float32.js';

export { DEFAULT_MAX_TOOL_ARGUMENTS_LENGTH, createToolCallAccumulator } from './tool-call-accumulator.js';
export type {
  AccumulatedToolCall,
  ToolCallAccumulator,
  ToolCallAccumulatorOptions,
  ToolCallIdentity,
} from './tool-call-accumulator.js';

export {
  assertUsageConsistent,
  dropInconsistentUsageDetails,
  mergeUsageSnapshot,
  reconcileCacheWrite,
  usageEquals,
  type CacheWriteReconciliation,
} from './usage-reconciliation.js';

export { presentFigures, readDetailCount, readDetailRecord, readModalityTokenCounts, readServiceTier } from './usage-detail-readers.js';

export {
  DEFAULT_RETRY_AFTER_MS_HEADERS,
  MAX_RETRY_AFTER_MS,
  parseRetryAfterMs,
  parseRetryAfterMsHint,
  readRetryAfterMs,
} from './retry-after.js';

export { parseRateLimitResetMs, rateLimitWindowHeaders, readRateLimitHeaders, sameRateLimitHeaderDialect, writeRateLimitHeaders } from './rate-limit-headers.js';
export type { RateLimitHeaderDialectV1, RateLimitWindowHeadersV1 } from './rate-limit-headers.js';

export { boundProviderCode, createHttpFailure, mapHttpStatusToFailure } from './http-failure.js';
export type { CreateHttpFailureInput, HttpStatusFailure } from './http-failure.js';

export { PROTOCOL_VIOLATION_REASONS, ProtocolViolationError, isProtocolViolationError } from './protocol-violation-error.js';
export type { ProtocolViolationReason } from './protocol-violation-error.js';

export { terminalForError } from './terminal-for-error.js';
export { diagnosticForError, reportDiagnostic } from './diagnostic-for-error.js';
export type { DiagnosticReport } from './diagnostic-for-error.js';
export type { TerminalForErrorOptions } from './terminal-for-error.js';

export { createAdapterStreamParts } from './adapter-stream.js';
export type { AdapterStreamMachine, AdapterStreamStep, CreateAdapterStreamPartsOptions } from './adapter-stream.js';

export { DEFAULT_MAX_ERROR_BODY_BYTES, readJsonResponse } from './json-response.js';
export type { JsonResponseOutcome, ReadJsonResponseOptions } from './json-response.js';

export { classifyAsyncStartError } from './classify-async-start-error.js';

export { isHttpsMediaUrl } from './https-media-url.js';

export { finishedExecution } from './finished-execution.js';

export { resolveReasoningEffortV3 } from './reasoning-effort.js';

export { ENGINE_CAPABILITY_REFUSAL_CODES, forEngineCapabilityRefusals } from './engine-refusal-codes.js';
export { GATEWAY_REFUSALS, forGatewayRefusals } from './gateway-refusal-codes.js';
export { clientFieldPath, SNAKE_CASE_SAMPLING_NAMES } from './client-field-path.js';
export type { ClientFieldNames } from './client-field-path.js';
export type { GatewayRefusalCode, GatewayRefusalKind, GatewayRefusalMeaning } from './gateway-refusal-codes.js';

export {
  applyStructuredOutputStrategy,
  structuredOutputInstruction,
  structuredOutputParts,
  structuredOutputTerminal,
} from './structured-output-emulation.js';
export type { StructuredOutputEmulationV1 } from './structured-output-emulation.js';

export { defineHttpFamily } from './define-http-family.js';
export { tokenCountChatTask, tokenCountOfChatTask, tokenCountTerminal } from './token-count-chat-task.js';
export type {
  HttpFamilyDecodedV1,
  HttpFamilyDefinitionV1,
  HttpFamilyErrorAnswerV1,
  HttpFamilyOptionsV1,
  HttpFamilyResponseContextV1,
  HttpFamilyV1,
} from './define-http-family.js';

export { defineAsyncJobFamily } from './define-async-job-family.js';
export type {
  AsyncJobAnswerV1,
  AsyncJobFamilyDefinitionV1,
  AsyncJobFamilyOptionsV1,
  AsyncJobFamilyV1,
  AsyncJobOperationKitV1,
  AsyncJobReadingV1,
  AsyncJobRequestV1,
} from './define-async-job-family.js';

export { createWireReaders, isWireCount, isWireRecord } from './wire-readers.js';
export type { WireReaders, WireReadersOptions, WireRecord } from './wire-readers.js';
export { isStreamContentTypeAccepted, mediaTypeOf, SSE_OR_JSON_STREAM_MEDIA_TYPES, SSE_STREAM_MEDIA_TYPES } from './stream-content-type.js';
export { clientCountJsonResponse } from './client-count-json-response.js';
export { acceptEndUserId, readDomainList } from './agent-fields.js';

export { createToolNameCheck } from './tool-name-check.js';
export type { ToolNameCheck } from './tool-name-check.js';
