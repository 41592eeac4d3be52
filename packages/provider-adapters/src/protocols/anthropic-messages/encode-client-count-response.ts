import type { EgressHttpResponseV1, TokenCountResultV3 } from '@tokenforge/model-protocol';
import { clientCountJsonResponse } from '../../codec-kit/index.js';

/** The client answer of `POST /v1/messages/count_tokens`: `{"input_tokens": n}`. */
export function encodeAnthropicClientCountResponse(result: TokenCountResultV3): EgressHttpResponseV1 {
  return clientCountJsonResponse({ input_tokens: result.inputTokens });
}
