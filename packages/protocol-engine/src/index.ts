export { PROTOCOL_ENGINE_API_VERSION } from './contracts/v1/api-version.js';
export type { ProtocolEngineApiVersion } from './contracts/v1/api-version.js';
export type {
  CreateProtocolEngineTargetBindingInputV1,
  ProtocolEngineAcceptedJobV1,
  ProtocolEngineAdapterRegistryPortV1,
  ProtocolEngineAsyncJobCancellationV1,
  ProtocolEngineAsyncJobInputV1,
  ProtocolEngineAsyncJobListRequestV1,
  ProtocolEngineAsyncJobListResultV1,
  ProtocolEngineAsyncJobObservationV1,
  ProtocolEngineAsyncJobsV1,
  ProtocolEngineDispatchTargetV1,
  ProtocolEngineExecuteInputV1,
  ProtocolEngineExecutionV1,
  ProtocolEngineRejectedV1,
  ProtocolEngineResponseV1,
  ProtocolEngineStreamV1,
  ProtocolEngineTargetBindingV1,
  ProtocolEngineV1,
} from './contracts/v1/protocol-engine-contracts-v1.js';
export type { ProtocolEngineExecuteInputV3 } from './contracts/v3/protocol-engine-execute-input-v3.js';
export type { ProtocolEngineExecutionEndV3, ProtocolEngineObservationV3, ProtocolEngineObserverV3 } from './contracts/v3/protocol-engine-observer-v3.js';
export {
  PROTOCOL_ENGINE_ERROR_CODES_V1,
  ProtocolEngineErrorV1,
  isProtocolEngineErrorV1,
} from './error/v1/protocol-engine-error-v1.js';
export type {
  ProtocolEngineErrorCodeV1,
  ProtocolEngineErrorOptionsV1,
  ProtocolEngineErrorPhaseV1,
} from './error/v1/protocol-engine-error-v1.js';
export { createProtocolEngineV1 } from './engine/v1/create-protocol-engine-v1.js';
export { createProtocolEngineTargetBindingV1 } from './binding/v1/create-protocol-engine-target-binding-v1.js';
