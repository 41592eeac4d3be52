import type { ProviderTransportRequest, ReasoningEffortV3, TokenCountTaskV4 } from '@tokenforge/model-protocol';
import { tokenCountChatTask } from '../../codec-kit/index.js';
import { encodeGeminiRequest, type GeminiEncodeOptions } from './encode-request.js';
import { buildGeminiModelPath } from './model-path.js';

/**
 * Encodes a token-count task as a `POST /v1beta/models/{model}:countTokens` request. Pure.
 *
 * The body is `{"generateContentRequest": ...}`: the generateContent body `encodeGeminiRequest` would send for the
 * same input (contents, `systemInstruction`, tools, `toolConfig`, `generationConfig` with the thinking config)
 * plus the `models/{model}` name, which that form requires. The bare `contents` form is never used: it cannot carry
 * the system instruction or the tools, and would count less than the request would use.
 *
 * @throws {CodecErrorV1} as `encodeGeminiRequest` does for the same input.
 */
export function encodeGeminiCountRequest(
  task: TokenCountTaskV4,
  providerModel: string,
  options?: GeminiEncodeOptions,
  reasoningEfforts?: readonly ReasoningEffortV3[],
): Omit<ProviderTransportRequest, 'signal'> {
  const path = buildGeminiModelPath(providerModel, 'countTokens');
  const full = encodeGeminiRequest(tokenCountChatTask(task), providerModel, options, reasoningEfforts).body;
  const generateContentRequest = { model: `models/${providerModel}`, ...(full.type === 'json' ? (full.value as Record<string, unknown>) : {}) };
  return { method: 'POST', path, headers: { accept: 'application/json' }, body: { type: 'json', value: { generateContentRequest } } };
}
