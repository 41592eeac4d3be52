/** The protocol family this folder implements. */
export const OPENAI_EMBEDDINGS_PROTOCOL_FAMILY = 'openai-embeddings/v1';
