import { tokenCountTerminal, type HttpFamilyDecodedV1 } from '../../codec-kit/index.js';
import { GEMINI_GENERATE_CONTENT_WIRE } from './wire-readers.js';

/**
 * Decodes a 2xx `countTokens` body, `{"totalTokens": n, "cachedContentTokenCount"?, "promptTokensDetails"?}`, into
 * a completed token-count terminal with `inputTokens = totalTokens` (the cached part is included in it, as in
 * `promptTokenCount`). The details are not carried.
 *
 * @throws {ProtocolViolationError} when the body is not an object or `totalTokens` is absent or not a
 * non-negative integer (an absent count is never read as zero).
 */
export function decodeGeminiCountResponse(body: unknown): HttpFamilyDecodedV1 {
  const wire = GEMINI_GENERATE_CONTENT_WIRE;
  const record = wire.requiredRecord(body, 'countTokens', 'body');
  return { terminal: tokenCountTerminal(wire.requiredCount(record.totalTokens, 'countTokens', 'totalTokens')) };
}
