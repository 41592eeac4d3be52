/** The protocol family this folder implements. */
export const COHERE_RERANK_PROTOCOL_FAMILY = 'cohere-rerank/v1';
