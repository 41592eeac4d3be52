/** The protocol family this folder implements. */
export const OPENAI_IMAGES_PROTOCOL_FAMILY = 'openai-images/v1';
