/** The protocol family this folder implements. */
export const ANTHROPIC_MESSAGES_PROTOCOL_FAMILY = 'anthropic-messages/v1';
