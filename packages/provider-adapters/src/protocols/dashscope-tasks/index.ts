export { DASHSCOPE_TASKS_PROTOCOL_FAMILY } from './protocol-family.js';
export { createDashScopeTasksAdapterFactory } from './adapter.js';
export type { DashScopeTasksAdapterOptionsV1 } from './adapter.js';
export { createDashScopeTasksSuiteEntryV1 } from './suite-entry.js';
export { DASHSCOPE_TASKS_TRANSPORT_METADATA } from './transport-metadata.js';
export {
  encodeDashScopeCreateRequest,
  DASHSCOPE_IMAGE_SYNTHESIS_PATH,
  DASHSCOPE_KEYFRAME_VIDEO_SYNTHESIS_PATH,
  DASHSCOPE_VIDEO_SYNTHESIS_PATH,
} from './encode-create-request.js';
export type { DashScopeCreateRequest, DashScopeCreateRequestBody } from './encode-create-request.js';
export { mapDashScopeJobState, DASHSCOPE_TASK_STATUSES } from './map-job-state.js';
export { dashScopeTasksConformanceCases } from './conformance-cases.js';
