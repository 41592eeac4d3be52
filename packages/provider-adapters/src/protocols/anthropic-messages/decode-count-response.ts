import { tokenCountTerminal, type HttpFamilyDecodedV1 } from '../../codec-kit/index.js';
import { ANTHROPIC_MESSAGES_WIRE } from './wire-readers.js';

/**
 * Decodes a 2xx `count_tokens` body, `{"input_tokens": n}` (other members are ignored), into a completed
 * token-count terminal.
 *
 * @throws {ProtocolViolationError} when the body is not an object or `input_tokens` is absent or not a
 * non-negative integer (an absent count is never read as zero).
 */
export function decodeAnthropicCountResponse(body: unknown): HttpFamilyDecodedV1 {
  const record = ANTHROPIC_MESSAGES_WIRE.requiredRecord(body, 'count_tokens', 'body');
  return { terminal: tokenCountTerminal(ANTHROPIC_MESSAGES_WIRE.requiredCount(record.input_tokens, 'count_tokens', 'input_tokens')) };
}
