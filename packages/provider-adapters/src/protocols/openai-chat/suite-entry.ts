import type { SyncProtocolSuiteEntryV1 } from '../../suite/protocol-suite-entry-v1.js';
import { assertOpenAiChatAdapterOptions, OPENAI_CHAT_HTTP_FAMILY, type OpenAiChatAdapterOptionsV1 } from './adapter.js';
import { createOpenAiChatEgressCodec } from './egress.js';
import { createOpenAiChatIngressCodec } from './ingress.js';

/**
 * The `openai-chat/v1` suite entry: a stream-capable sync family with bearer authentication, no fixed headers,
 * and direct HTTP (ingress and egress codecs). Options configure the adapter for compatible servers.
 */
export function createOpenAiChatSuiteEntryV1(options?: OpenAiChatAdapterOptionsV1): SyncProtocolSuiteEntryV1 {
  assertOpenAiChatAdapterOptions(options);
  return OPENAI_CHAT_HTTP_FAMILY.createSuiteEntry(options, { ingress: createOpenAiChatIngressCodec(), egress: createOpenAiChatEgressCodec() });
}
