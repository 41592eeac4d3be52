import type { SyncProtocolSuiteEntryV1 } from '../../suite/protocol-suite-entry-v1.js';
import { ANTHROPIC_MESSAGES_HTTP_FAMILY, type AnthropicMessagesAdapterOptionsV1 } from './adapter.js';
import { createAnthropicMessagesEgressCodec } from './egress.js';
import { createAnthropicMessagesIngressCodec } from './ingress.js';

/**
 * The `anthropic-messages/v1` suite entry: a stream-capable sync family with `x-api-key` authentication, the
 * fixed `anthropic-version` header, and direct HTTP (Messages ingress and egress codecs).
 */
export function createAnthropicMessagesSuiteEntryV1(options?: AnthropicMessagesAdapterOptionsV1): SyncProtocolSuiteEntryV1 {
  return ANTHROPIC_MESSAGES_HTTP_FAMILY.createSuiteEntry(options, { ingress: createAnthropicMessagesIngressCodec(), egress: createAnthropicMessagesEgressCodec() });
}

/** @deprecated Use {@link createAnthropicMessagesSuiteEntryV1} (the same function, named like every other family's). */
export const createAnthropicMessagesSuiteEntry = createAnthropicMessagesSuiteEntryV1;
