import type { AsyncProtocolSuiteEntryV1 } from '../../suite/protocol-suite-entry-v1.js';
import { DASHSCOPE_TASKS_JOB_FAMILY, type DashScopeTasksAdapterOptionsV1 } from './adapter.js';

/** The `dashscope-tasks/v1` suite entry: an async job family (get, list, cancel), bearer auth, no direct HTTP. */
export function createDashScopeTasksSuiteEntryV1(options?: DashScopeTasksAdapterOptionsV1): AsyncProtocolSuiteEntryV1 {
  return DASHSCOPE_TASKS_JOB_FAMILY.createSuiteEntry(options);
}
