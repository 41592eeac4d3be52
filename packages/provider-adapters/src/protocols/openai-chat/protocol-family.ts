/** The protocol family this folder implements. */
export const OPENAI_CHAT_PROTOCOL_FAMILY = 'openai-chat/v1';
