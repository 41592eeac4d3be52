import type { ProtocolFamily } from '@tokenforge/model-protocol';
import type { FixtureChunkFramingV1 } from '@tokenforge/provider-adapters';

/** The four chat dialects: each is both a client dialect (ingress + egress) and a provider family. */
export const CHAT_DIALECTS = [
  'openai-chat/v1',
  'openai-responses/v1',
  'anthropic-messages/v1',
  'gemini-generate-content/v1',
] as const satisfies readonly ProtocolFamily[];

/** One of {@link CHAT_DIALECTS}. */
export type ChatDialect = (typeof CHAT_DIALECTS)[number];

/** How each dialect frames a recorded `*.chunks.txt` file back into a provider stream. */
export const CHUNK_FRAMING: Readonly<Record<ChatDialect, FixtureChunkFramingV1>> = {
  'openai-chat/v1': 'openai-chat',
  'openai-responses/v1': 'typed-sse',
  'anthropic-messages/v1': 'typed-sse',
  'gemini-generate-content/v1': 'gemini-sse',
};

/** A short name for test titles. */
export const DIALECT_NAME: Readonly<Record<ChatDialect, string>> = {
  'openai-chat/v1': 'openai-chat',
  'openai-responses/v1': 'openai-responses',
  'anthropic-messages/v1': 'anthropic',
  'gemini-generate-content/v1': 'gemini',
};
