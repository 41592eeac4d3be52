/** The protocol family this folder implements. */
export const GEMINI_GENERATE_CONTENT_PROTOCOL_FAMILY = 'gemini-generate-content/v1';
