import type { AsyncProtocolSuiteEntryV1 } from '../../suite/protocol-suite-entry-v1.js';
import { createKlingVideoAdapterFactory, type KlingVideoAdapterOptionsV1 } from './adapter.js';
import { KLING_VIDEO_PROTOCOL_FAMILY } from './protocol-family.js';
import { KLING_VIDEO_TRANSPORT_METADATA } from './transport-metadata.js';

/**
 * The `kling-video/v1` suite entry: an async job family (get and list, no cancel) authenticated with an HS256 JWT
 * the host transport mints, no fixed headers, no direct HTTP.
 */
export function createKlingVideoSuiteEntryV1(options?: KlingVideoAdapterOptionsV1): AsyncProtocolSuiteEntryV1 {
  return Object.freeze({
    protocolFamily: KLING_VIDEO_PROTOCOL_FAMILY,
    execution: 'async',
    transportMetadata: KLING_VIDEO_TRANSPORT_METADATA,
    asyncAdapterFactory: createKlingVideoAdapterFactory(options),
    directHttp: false,
  });
}
