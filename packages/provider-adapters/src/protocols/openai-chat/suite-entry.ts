import type { SyncProtocolSuiteEntryV1 } from '../../suite/protocol-suite-entry-v1.js';
import { createOpenAiChatAdapterFactory, type OpenAiChatAdapterOptionsV1 } from './adapter.js';
import { createOpenAiChatEgressCodec } from './egress.js';
import { createOpenAiChatIngressCodec } from './ingress.js';
import { OPENAI_CHAT_PROTOCOL_FAMILY } from './protocol-family.js';
import { OPENAI_CHAT_TRANSPORT_METADATA } from './transport-metadata.js';

/**
 * The `openai-chat/v1` suite entry: a stream-capable sync family with bearer authentication, no fixed headers,
 * and direct HTTP (ingress and egress codecs). Options configure the adapter for compatible servers.
 */
export function createOpenAiChatSuiteEntryV1(options?: OpenAiChatAdapterOptionsV1): SyncProtocolSuiteEntryV1 {
  return Object.freeze({
    protocolFamily: OPENAI_CHAT_PROTOCOL_FAMILY,
    execution: 'sync',
    transportMetadata: OPENAI_CHAT_TRANSPORT_METADATA,
    adapterFactory: createOpenAiChatAdapterFactory(options),
    directHttp: true,
    codecs: Object.freeze({ ingress: createOpenAiChatIngressCodec(), egress: createOpenAiChatEgressCodec() }),
  });
}
