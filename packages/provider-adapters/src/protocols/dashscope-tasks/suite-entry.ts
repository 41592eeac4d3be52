import type { AsyncProtocolSuiteEntryV1 } from '../../suite/protocol-suite-entry-v1.js';
import { createDashScopeTasksAdapterFactory, type DashScopeTasksAdapterOptionsV1 } from './adapter.js';
import { DASHSCOPE_TASKS_PROTOCOL_FAMILY } from './protocol-family.js';
import { DASHSCOPE_TASKS_TRANSPORT_METADATA } from './transport-metadata.js';

/** The `dashscope-tasks/v1` suite entry: an async job family (get, list, cancel), bearer auth, no direct HTTP. */
export function createDashScopeTasksSuiteEntryV1(options?: DashScopeTasksAdapterOptionsV1): AsyncProtocolSuiteEntryV1 {
  return Object.freeze({
    protocolFamily: DASHSCOPE_TASKS_PROTOCOL_FAMILY,
    execution: 'async',
    transportMetadata: DASHSCOPE_TASKS_TRANSPORT_METADATA,
    asyncAdapterFactory: createDashScopeTasksAdapterFactory(options),
    directHttp: false,
  });
}
