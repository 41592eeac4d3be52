import type { ClientWireRequestV2, EgressCodecV1, EgressHttpResponseV1, IngressDecodedRequestV1, ProtocolFamily, TokenCountResultV3 } from '@tokenforge/model-protocol';
import {
  decodeAnthropicClientCountRequest,
  decodeGeminiClientCountRequest,
  decodeOpenAiResponsesClientCountRequest,
  encodeAnthropicClientCountResponse,
  encodeGeminiClientCountResponse,
  encodeOpenAiResponsesClientCountResponse,
} from '@tokenforge/provider-adapters';
import type { ClientKeyPlacement } from '../http/authenticate-client.js';
import type { ErrorShape } from '../http/client-auth-refusal.js';
import type { DirectDialect } from './direct-dialect.js';

/**
 * The dialect's egress with the counting answer in place of the chat answer: a completed token-count terminal is
 * encoded by `encodeCount`; errors (and anything else) go to the dialect's own egress.
 */
function countEgress(base: EgressCodecV1, encodeCount: (result: TokenCountResultV3) => EgressHttpResponseV1): EgressCodecV1 {
  return Object.freeze({
    protocolFamily: base.protocolFamily,
    encodeResponse: (terminal, context) =>
      terminal.status === 'completed' && terminal.result.kind === 'token-count' ? encodeCount(terminal.result) : base.encodeResponse(terminal, context),
    encodeError: (failure, context) => base.encodeError(failure, context),
  } satisfies EgressCodecV1);
}

function countDialect(
  family: string,
  keyPlacement: ClientKeyPlacement,
  errorShape: ErrorShape,
  decodeCount: (request: ClientWireRequestV2) => IngressDecodedRequestV1,
  encodeCount: (result: TokenCountResultV3) => EgressHttpResponseV1,
): DirectDialect {
  return {
    family: family as ProtocolFamily,
    keyPlacement,
    errorShape,
    decodeWire: decodeCount,
    wrapEgress: (base) => countEgress(base, encodeCount),
  };
}

/** `POST /v1/messages/count_tokens` (Anthropic). */
export const ANTHROPIC_COUNT_TOKENS = countDialect('anthropic-messages/v1', 'anthropic', 'anthropic', decodeAnthropicClientCountRequest, encodeAnthropicClientCountResponse);
/** `POST /v1/responses/input_tokens` (OpenAI Responses). */
export const OPENAI_RESPONSES_INPUT_TOKENS = countDialect('openai-responses/v1', 'bearer', 'openai', decodeOpenAiResponsesClientCountRequest, encodeOpenAiResponsesClientCountResponse);
/** `POST /v1beta/models/{model}:countTokens` (Gemini). */
export const GEMINI_COUNT_TOKENS = countDialect('gemini-generate-content/v1', 'gemini', 'gemini', decodeGeminiClientCountRequest, encodeGeminiClientCountResponse);
