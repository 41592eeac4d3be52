import type { SyncProtocolSuiteEntryV1 } from '../../suite/protocol-suite-entry-v1.js';
import { OPENAI_RESPONSES_HTTP_FAMILY, type OpenAiResponsesAdapterOptionsV1 } from './adapter.js';
import { createOpenAiResponsesEgressCodec } from './egress.js';
import { createOpenAiResponsesIngressCodec } from './ingress.js';

/**
 * The `openai-responses/v1` suite entry: a stream-capable sync family with bearer authentication, no fixed headers,
 * and direct HTTP (ingress and egress codecs).
 */
export function createOpenAiResponsesSuiteEntryV1(options?: OpenAiResponsesAdapterOptionsV1): SyncProtocolSuiteEntryV1 {
  return OPENAI_RESPONSES_HTTP_FAMILY.createSuiteEntry(options, { ingress: createOpenAiResponsesIngressCodec(), egress: createOpenAiResponsesEgressCodec() });
}
