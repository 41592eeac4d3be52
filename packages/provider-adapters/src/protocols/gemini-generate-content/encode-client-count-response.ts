import type { EgressHttpResponseV1, TokenCountResultV3 } from '@tokenforge/model-protocol';
import { clientCountJsonResponse } from '../../codec-kit/index.js';

/** The client answer of `models/{model}:countTokens`: `{"totalTokens": n}` (the provider's other breakdowns are not carried). */
export function encodeGeminiClientCountResponse(result: TokenCountResultV3): EgressHttpResponseV1 {
  return clientCountJsonResponse({ totalTokens: result.inputTokens });
}
