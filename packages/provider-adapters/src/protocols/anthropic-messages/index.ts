/** The public names of the `anthropic-messages/v1` family. */
export {
  ANTHROPIC_MESSAGES_PATH,
  ANTHROPIC_MESSAGES_PROTOCOL_FAMILY,
  createAnthropicMessagesAdapterFactory,
} from './adapter.js';
export type { AnthropicMessagesAdapterOptionsV1 } from './adapter.js';
export { createAnthropicMessagesIngressCodec } from './ingress.js';
export type { AnthropicMessagesIngressOptionsV1 } from './ingress.js';
export { createAnthropicMessagesEgressCodec } from './egress.js';
export { createAnthropicMessagesSuiteEntry } from './suite-entry.js';
export { ANTHROPIC_VERSION, anthropicMessagesTransportMetadata } from './transport-metadata.js';
export {
  ANTHROPIC_DEFAULT_MAX_TOKENS,
  ANTHROPIC_EFFORT_THINKING_BUDGETS,
  ANTHROPIC_MIN_THINKING_BUDGET,
} from './encode-output-budget.js';
