import type { SyncProtocolSuiteEntryV1 } from '../../suite/protocol-suite-entry-v1.js';
import { createOpenAiResponsesAdapterFactory, type OpenAiResponsesAdapterOptionsV1 } from './adapter.js';
import { createOpenAiResponsesEgressCodec } from './egress.js';
import { createOpenAiResponsesIngressCodec } from './ingress.js';
import { OPENAI_RESPONSES_PROTOCOL_FAMILY } from './protocol-family.js';
import { OPENAI_RESPONSES_TRANSPORT_METADATA } from './transport-metadata.js';

/**
 * The `openai-responses/v1` suite entry: a stream-capable sync family with bearer authentication, no fixed headers,
 * and direct HTTP (ingress and egress codecs).
 */
export function createOpenAiResponsesSuiteEntryV1(options?: OpenAiResponsesAdapterOptionsV1): SyncProtocolSuiteEntryV1 {
  return Object.freeze({
    protocolFamily: OPENAI_RESPONSES_PROTOCOL_FAMILY,
    execution: 'sync',
    transportMetadata: OPENAI_RESPONSES_TRANSPORT_METADATA,
    adapterFactory: createOpenAiResponsesAdapterFactory(options),
    directHttp: true,
    codecs: Object.freeze({ ingress: createOpenAiResponsesIngressCodec(), egress: createOpenAiResponsesEgressCodec() }),
  });
}
