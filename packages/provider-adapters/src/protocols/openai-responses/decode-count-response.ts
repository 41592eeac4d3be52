import { tokenCountTerminal, type HttpFamilyDecodedV1 } from '../../codec-kit/index.js';
import { OPENAI_RESPONSES_WIRE } from './wire-readers.js';

/** The `object` of an input-token count. */
export const OPENAI_RESPONSES_INPUT_TOKENS_OBJECT = 'response.input_tokens';

/**
 * Decodes a 2xx `input_tokens` body, `{"object": "response.input_tokens", "input_tokens": n}`, into a completed
 * token-count terminal. An absent `object` is tolerated; another value is not this endpoint's answer.
 *
 * @throws {ProtocolViolationError} when the body is not an object, `object` names another type or `input_tokens`
 * is not a non-negative integer.
 */
export function decodeOpenAiResponsesCountResponse(body: unknown): HttpFamilyDecodedV1 {
  const wire = OPENAI_RESPONSES_WIRE;
  const record = wire.requiredRecord(body, 'input_tokens', 'body');
  const object = wire.optionalString(record.object, 'input_tokens', 'object');
  if (object !== undefined && object !== OPENAI_RESPONSES_INPUT_TOKENS_OBJECT) throw wire.violation('input_tokens.object', `must be ${OPENAI_RESPONSES_INPUT_TOKENS_OBJECT}`);
  return { terminal: tokenCountTerminal(wire.requiredCount(record.input_tokens, 'input_tokens', 'input_tokens')) };
}
