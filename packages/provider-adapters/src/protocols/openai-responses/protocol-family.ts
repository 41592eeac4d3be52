/** The protocol family this folder implements. */
export const OPENAI_RESPONSES_PROTOCOL_FAMILY = 'openai-responses/v1';
