import type { AsyncProtocolSuiteEntryV1 } from '../../suite/protocol-suite-entry-v1.js';
import { KLING_VIDEO_JOB_FAMILY, type KlingVideoAdapterOptionsV1 } from './adapter.js';

/**
 * The `kling-video/v1` suite entry: an async job family (get and list, no cancel) authenticated with an HS256 JWT
 * the host transport mints, no fixed headers, no direct HTTP.
 */
export function createKlingVideoSuiteEntryV1(options?: KlingVideoAdapterOptionsV1): AsyncProtocolSuiteEntryV1 {
  return KLING_VIDEO_JOB_FAMILY.createSuiteEntry(options);
}
