// Kept for the OpenAI-style families that still import the readers from here (openai-embeddings,
// openai-images, cohere-rerank); the readers live in openai-common. Remove once they import from there.
export {
  invalidClientField,
  isClientObject,
  isUnset,
  optionalClientArray,
  optionalClientBoolean,
  optionalClientNumber,
  optionalClientObject,
  optionalClientString,
  requiredClientString,
  unsupportedClientField,
} from '../openai-common/client-json.js';
export type { ClientJsonObject } from '../openai-common/client-json.js';
