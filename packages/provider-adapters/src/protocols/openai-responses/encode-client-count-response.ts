import type { EgressHttpResponseV1, TokenCountResultV3 } from '@tokenforge/model-protocol';
import { clientCountJsonResponse } from '../../codec-kit/index.js';

/** The client answer of `POST /v1/responses/input_tokens`: `{"object": "response.input_tokens", "input_tokens": n}`. */
export function encodeOpenAiResponsesClientCountResponse(result: TokenCountResultV3): EgressHttpResponseV1 {
  return clientCountJsonResponse({ object: 'response.input_tokens', input_tokens: result.inputTokens });
}
