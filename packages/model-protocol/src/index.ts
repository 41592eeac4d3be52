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
export type {
  ClientWireRequestV1,
  IngressDecodedRequestV1,
  IngressCodecV1,
  EgressContextV1,
  EgressHttpResponseV1,
  EgressStreamEncoderV1,
  EgressFailureV1,
  EgressCodecV1,
} from './codec/v1/codec-contracts-v1.js';
export type { ClientWireRequestV2, IngressCodecV2 } from './codec/v2/client-wire-request-v2.js';
