export { CONTRACT_BOUNDS_V1 } from './bounds/v1/contract-bounds-v1.js';
export type { ContractBoundsV1 } from './bounds/v1/contract-bounds-v1.js';
export { PROTOCOL_FAMILY_PATTERN, protocolFamilySchema, isProtocolFamily } from './protocol-family/protocol-family.js';
export type { ProtocolFamily } from './protocol-family/protocol-family.js';

export {
  cacheControlV2Schema,
  mediaSourceV2Schema,
  textPartV2Schema,
  imagePartV2Schema,
  documentPartV2Schema,
  audioPartV2Schema,
  toolCallPartV2Schema,
  toolResultPartV2Schema,
  toolResultContentPartV2Schema,
  reasoningPartV2Schema,
  redactedReasoningPartV2Schema,
  chatContentPartV2Schema,
} from './task/v2/chat-content-part-v2.js';
export type {
  CacheControlV2,
  MediaSourceV2,
  ChatContentPartV2,
  TextPartV2,
  ImagePartV2,
  DocumentPartV2,
  AudioPartV2,
  ToolCallPartV2,
  ToolResultPartV2,
  ToolResultContentPartV2,
  ReasoningPartV2,
  RedactedReasoningPartV2,
} from './task/v2/chat-content-part-v2.js';
export { chatMessageV2Schema } from './task/v2/chat-message-v2.js';
export type { ChatMessageV2 } from './task/v2/chat-message-v2.js';
export {
  TASK_KINDS_V2,
  taskKindV2Schema,
  toolDefinitionV2Schema,
  toolChoiceV2Schema,
  responseFormatV2Schema,
  samplingV2Schema,
  reasoningControlV2Schema,
  cachingV2Schema,
  chatTaskV2Schema,
  embeddingTaskV2Schema,
  imageGenerationTaskV2Schema,
  imageEditTaskV2Schema,
  rerankTaskV2Schema,
  videoGenerationTaskV2Schema,
  taskEnvelopeV2Schema,
} from './task/v2/task-envelope-v2.js';
export type {
  TaskKindV2,
  ToolDefinitionV2,
  ToolChoiceV2,
  ResponseFormatV2,
  SamplingV2,
  ReasoningControlV2,
  ChatTaskV2,
  EmbeddingTaskV2,
  ImageGenerationTaskV2,
  ImageEditTaskV2,
  RerankTaskV2,
  VideoGenerationTaskV2,
  TaskEnvelopeV2,
} from './task/v2/task-envelope-v2.js';

export { EXECUTION_MODES_V2, embeddingSpaceV2Schema, protocolCapabilityV2Schema } from './capability/v2/protocol-capability-v2.js';
export type { ExecutionModeV2, EmbeddingSpaceV2, ProtocolCapabilityV2 } from './capability/v2/protocol-capability-v2.js';
export { providerDispatchTargetV2Schema } from './target/v2/provider-dispatch-target-v2.js';
export type { ProviderDispatchTargetV2 } from './target/v2/provider-dispatch-target-v2.js';

export { usageV1Schema, describeUsageInconsistency } from './usage/v1/usage-v1.js';
export type { UsageV1 } from './usage/v1/usage-v1.js';
export { PROVIDER_FAILURE_CODES_V1, normalizedProviderFailureV1Schema } from './outcome/v1/provider-failure-v1.js';
export type { ProviderFailureCodeV1, NormalizedProviderFailureV1 } from './outcome/v1/provider-failure-v1.js';
export { FINISH_REASONS_V1, finishReasonV1Schema, adapterTerminalOutcomeSchema } from './outcome/v1/adapter-terminal-outcome.js';
export type { UnifiedFinishReasonV1, FinishReasonV1, AdapterTerminalOutcome } from './outcome/v1/adapter-terminal-outcome.js';
export { providerAcceptanceFactsSchema, providerResponseMetadataSchema } from './outcome/v1/provider-acceptance-facts.js';
export type { ProviderAcceptanceFacts, ProviderResponseMetadata } from './outcome/v1/provider-acceptance-facts.js';

export {
  chatOutputPartV1Schema,
  chatResultV1Schema,
  embeddingResultV1Schema,
  generatedImageV1Schema,
  imageResultV1Schema,
  rerankItemV1Schema,
  rerankResultV1Schema,
  jobMediaV2Schema,
  taskResultV1Schema,
} from './result/v1/task-result-v1.js';
export type {
  ChatOutputPartV1,
  ChatResultV1,
  EmbeddingResultV1,
  ImageResultV1,
  RerankResultV1,
  JobMediaV2,
  TaskResultV1,
} from './result/v1/task-result-v1.js';

export { normalizedStreamEventV1Schema } from './stream/v1/normalized-stream-event-v1.js';
export type { NormalizedStreamEventV1, NormalizedStreamEventTypeV1 } from './stream/v1/normalized-stream-event-v1.js';

export {
  ASYNC_JOB_STATES_V2,
  utcTimestampSchema,
  providerJobIdSchema,
  providerAsyncJobSnapshotV2Schema,
  providerAsyncJobListInputV2Schema,
  providerAsyncJobListPageV2Schema,
} from './job/v2/provider-async-job-v2.js';
export type {
  AsyncJobStateV2,
  ProviderAsyncJobSnapshotV2,
  ProviderAsyncJobListInputV2,
  ProviderAsyncJobListPageV2,
} from './job/v2/provider-async-job-v2.js';

export { preparedMediaExecutionInputV2Schema } from './media/v2/prepared-media-v2.js';
export type { PreparedMediaItemV2, PreparedMediaExecutionInputV2 } from './media/v2/prepared-media-v2.js';

export {
  PROVIDER_TRANSPORT_FAILURE_REASONS_V1,
  ProviderTransportFailureV1,
  isProviderTransportFailureV1,
  providerTransportSchema,
} from './transport/v1/provider-transport.js';
export type {
  ProviderTransport,
  ProviderTransportRequest,
  ProviderTransportResponse,
  ProviderTransportBody,
  ProviderMultipartPartV1,
  ProviderMultipartTextFieldV1,
  ProviderMultipartFileFieldV1,
  ProviderTransportFailureStageV1,
  ProviderTransportFailureReasonV1,
} from './transport/v1/provider-transport.js';
export {
  isProviderProcessRunsExhaustedV4,
  isProviderProcessTransportV4,
  PROVIDER_PROCESS_FAILURE_CODES_V4,
  PROVIDER_PROCESS_RUN_FILES_TOKEN_V4,
  ProviderProcessFailureV4,
} from './transport/v4/provider-process-transport-v4.js';
export type {
  ProviderProcessBuiltInToolsV4,
  ProviderProcessEndReasonV4,
  ProviderProcessExitV4,
  ProviderProcessFailureCodeV4,
  ProviderProcessRunRequestV4,
  ProviderProcessRunV4,
  ProviderProcessTransportV4,
} from './transport/v4/provider-process-transport-v4.js';
export { providerAuthSchemeV1Schema, providerTransportMetadataV1Schema } from './transport/v1/provider-transport-metadata.js';
export type { ProviderAuthSchemeV1, ProviderTransportMetadataV1 } from './transport/v1/provider-transport-metadata.js';

export { ADAPTER_STREAM_TAKE_BUFFERED_V1, ASYNC_JOB_OPERATIONS_V1 } from './adapter/v1/provider-adapter-factory.js';
export type {
  ProviderAdapterTargetV1,
  ProviderAdapterExecuteInputV1,
  AdapterStreamPartV1,
  AdapterStreamTakeBufferedV1,
  ProviderAdapterExecutionV1,
  ProviderAdapterV1,
  ProviderAdapterFactory,
  AsyncJobOperationV1,
  ProviderAsyncJobStartInputV1,
  ProviderAsyncJobStartOutcomeV1,
  ProviderAsyncJobOperationInputV1,
  ProviderAsyncJobListOperationInputV1,
  ProviderAsyncJobOperationResultV1,
  ProviderAsyncJobAdapterV1,
  ProviderAsyncJobAdapterFactory,
} from './adapter/v1/provider-adapter-factory.js';

export { CODEC_ERROR_CODES_V1, CodecErrorV1, isCodecErrorV1 } from './codec/v1/codec-error-v1.js';
export type { CodecErrorCodeV1 } from './codec/v1/codec-error-v1.js';
export { EGRESS_STREAM_EVENT_TEXT_V1 } from './codec/v1/codec-contracts-v1.js';
export type {
  ClientWireRequestV1,
  IngressDecodedRequestV1,
  IngressCodecV1,
  EgressContextV1,
  EgressHttpResponseV1,
  EgressStreamEncoderV1,
  EgressStreamEventTextV1,
  EgressFailureV1,
  EgressCodecV1,
} from './codec/v1/codec-contracts-v1.js';
export type { ClientWireRequestV2, IngressCodecV2 } from './codec/v2/client-wire-request-v2.js';

// The V3 revision: new names beside the old ones; every V1/V2 value is accepted where a V3 one is.
export { CONTRACT_BOUNDS_V3 } from './bounds/v3/contract-bounds-v3.js';
export type { ContractBoundsV3 } from './bounds/v3/contract-bounds-v3.js';
export {
  TASK_KINDS_V3,
  taskKindV3Schema,
  REASONING_EFFORTS_V3,
  reasoningEffortV3Schema,
  reasoningControlV3Schema,
  toolCallPartV3Schema,
  toolResultPartV3Schema,
  chatContentPartV3Schema,
  chatMessageV3Schema,
  toolDefinitionV3Schema,
  HOSTED_TOOL_KINDS_V3,
  hostedToolV3Schema,
  contextManagementV3Schema,
  chatTaskV3Schema,
  tokenCountTaskV3Schema,
  taskEnvelopeV3Schema,
} from './task/v3/task-envelope-v3.js';
export type {
  TaskKindV3,
  ReasoningEffortV3,
  ReasoningControlV3,
  ChatContentPartV3,
  ChatMessageV3,
  ToolDefinitionV3,
  HostedToolKindV3,
  HostedToolV3,
  ContextManagementV3,
  ChatTaskV3,
  TokenCountTaskV3,
  TaskEnvelopeV3,
} from './task/v3/task-envelope-v3.js';
export {
  compactionPartV4Schema,
  compactionControlV4Schema,
  reasoningPartV4Schema,
  chatContentPartV4Schema,
  chatMessageV4Schema,
  chatTaskV4Schema,
  tokenCountTaskV4Schema,
  taskEnvelopeV4Schema,
} from './task/v4/task-envelope-v4.js';
export type {
  CompactionPartV4,
  CompactionControlV4,
  ReasoningPartV4,
  ChatContentPartV4,
  ChatMessageV4,
  ChatTaskV4,
  TokenCountTaskV4,
  TaskEnvelopeV4,
} from './task/v4/task-envelope-v4.js';
export {
  STRUCTURED_OUTPUT_SUPPORT_V3,
  structuredOutputSupportV3Schema,
  protocolCapabilityV3Schema,
  protocolCapabilityFromV2,
  isProtocolCapabilityV2,
} from './capability/v3/protocol-capability-v3.js';
export type { StructuredOutputSupportV3, ProtocolCapabilityV3 } from './capability/v3/protocol-capability-v3.js';
export { mapReasoningEffortV3, DEFAULT_REASONING_EFFORTS_V3 } from './capability/v3/map-reasoning-effort-v3.js';
export { providerDispatchTargetV3Schema } from './target/v3/provider-dispatch-target-v3.js';
export type { ProviderDispatchTargetV3 } from './target/v3/provider-dispatch-target-v3.js';
export {
  tokensByModalityV3Schema,
  serverToolRequestsV3Schema,
  usageV3Schema,
  describeUsageV3Inconsistency,
} from './usage/v3/usage-v3.js';
export type { TokensByModalityV3, ServerToolRequestsV3, UsageV3 } from './usage/v3/usage-v3.js';
export { tokenCountResultV3Schema, taskResultV3Schema } from './result/v3/task-result-v3.js';
export type { TokenCountResultV3, TaskResultV3 } from './result/v3/task-result-v3.js';
export {
  PROVIDER_FAILURE_CODES_V3,
  normalizedProviderFailureV3Schema,
  providerReportedCostV3Schema,
  adapterTerminalOutcomeV3Schema,
  providerDiagnosticV3Schema,
} from './outcome/v3/adapter-terminal-outcome-v3.js';
export type {
  ProviderFailureCodeV3,
  NormalizedProviderFailureV3,
  ProviderReportedCostV3,
  AdapterTerminalOutcomeV3,
  ProviderDiagnosticV3,
} from './outcome/v3/adapter-terminal-outcome-v3.js';
export {
  rateLimitWindowV3Schema,
  providerRateLimitsV3Schema,
  providerResponseMetadataV3Schema,
} from './outcome/v3/provider-response-metadata-v3.js';
export type {
  RateLimitWindowV3,
  ProviderRateLimitsV3,
  ProviderResponseMetadataV3,
} from './outcome/v3/provider-response-metadata-v3.js';
export { normalizedStreamEventV3Schema } from './stream/v3/normalized-stream-event-v3.js';
export type { NormalizedStreamEventV3 } from './stream/v3/normalized-stream-event-v3.js';
export { normalizedStreamEventV4Schema } from './stream/v4/normalized-stream-event-v4.js';
export type { NormalizedStreamEventV4 } from './stream/v4/normalized-stream-event-v4.js';
export { outputCompactionPartV4Schema, chatOutputPartV4Schema, chatResultV4Schema, taskResultV4Schema } from './result/v4/task-result-v4.js';
export type { OutputCompactionPartV4, ChatOutputPartV4, ChatResultV4, TaskResultV4 } from './result/v4/task-result-v4.js';
export { adapterTerminalOutcomeV4Schema } from './outcome/v4/adapter-terminal-outcome-v4.js';
export type { AdapterTerminalOutcomeV4 } from './outcome/v4/adapter-terminal-outcome-v4.js';
export type { EgressFailureV3 } from './codec/v3/egress-failure-v3.js';
export { JSON_OUTPUT_SCHEMA_KEYWORDS_V3, validateJsonOutputTextV3, validateJsonOutputV3 } from './output-schema/v3/validate-json-output-v3.js';
export type { JsonOutputVerdictV3 } from './output-schema/v3/validate-json-output-v3.js';
export { STRUCTURED_OUTPUT_STRATEGIES_V3, STRUCTURED_OUTPUT_TOOL_NAME_V3, planStructuredOutputV3 } from './output-schema/v3/plan-structured-output-v3.js';
export type {
  StructuredOutputPlanV3,
  StructuredOutputRefusalV3,
  StructuredOutputStrategyV3,
  StructuredOutputTaskV3,
} from './output-schema/v3/plan-structured-output-v3.js';
