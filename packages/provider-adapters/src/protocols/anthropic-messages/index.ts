/** The public names of the `anthropic-messages/v1` family. */
export { ANTHROPIC_MESSAGES_PATH, createAnthropicMessagesAdapterFactory } from './adapter.js';
export { ANTHROPIC_MESSAGES_PROTOCOL_FAMILY } from './protocol-family.js';
export type { AnthropicMessagesAdapterOptionsV1 } from './adapter.js';
export { createAnthropicMessagesIngressCodec } from './ingress.js';
export type { AnthropicMessagesDecodedRequestV1, AnthropicMessagesIngressOptionsV1 } from './ingress.js';
export { createAnthropicMessagesEgressCodec } from './egress.js';
export { createAnthropicMessagesSuiteEntry, createAnthropicMessagesSuiteEntryV1 } from './suite-entry.js';
export { ANTHROPIC_MESSAGES_TRANSPORT_METADATA, ANTHROPIC_VERSION, anthropicMessagesTransportMetadata } from './transport-metadata.js';
export {
  ANTHROPIC_DEFAULT_MAX_TOKENS,
  ANTHROPIC_EFFORT_THINKING_BUDGETS,
  ANTHROPIC_MIN_THINKING_BUDGET,
} from './encode-output-budget.js';
export { decodeAnthropicClientCountRequest } from './decode-client-count-request.js';
export { encodeAnthropicClientCountResponse } from './encode-client-count-response.js';
