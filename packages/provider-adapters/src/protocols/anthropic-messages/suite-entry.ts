import type { ProtocolSuiteEntryV1 } from '../../suite/protocol-suite-entry-v1.js';
import { ANTHROPIC_MESSAGES_PROTOCOL_FAMILY, createAnthropicMessagesAdapterFactory, type AnthropicMessagesAdapterOptionsV1 } from './adapter.js';
import { createAnthropicMessagesEgressCodec } from './egress.js';
import { createAnthropicMessagesIngressCodec } from './ingress.js';
import { anthropicMessagesTransportMetadata } from './transport-metadata.js';

/**
 * The `anthropic-messages/v1` suite entry: a stream-capable sync family with `x-api-key` authentication, the
 * fixed `anthropic-version` header, and direct HTTP (Messages ingress and egress codecs).
 */
export function createAnthropicMessagesSuiteEntry(options?: AnthropicMessagesAdapterOptionsV1): ProtocolSuiteEntryV1 {
  return {
    protocolFamily: ANTHROPIC_MESSAGES_PROTOCOL_FAMILY,
    transportMetadata: anthropicMessagesTransportMetadata,
    execution: 'sync',
    adapterFactory: createAnthropicMessagesAdapterFactory(options),
    directHttp: true,
    codecs: { ingress: createAnthropicMessagesIngressCodec(), egress: createAnthropicMessagesEgressCodec() },
  };
}
