import { CodecErrorV1 } from '@tokenforge/model-protocol';
import { parseSafeJson } from '../../codec-kit/index.js';

/**
 * Parses tool-call argument text into the JSON object Anthropic's `tool_use.input` requires. Text that is
 * empty or only whitespace means "no arguments" and becomes `{}` (the same normalization the stream decoder
 * applies to an empty `partial_json` stream).
 *
 * @throws {CodecErrorV1} `invalid-request` when the text is not JSON (or breaks the safe parser's limits) or
 * is JSON but not an object. The message never quotes the text.
 */
export function parseAnthropicToolArguments(argumentsText: string, path: string): Record<string, unknown> {
  if (argumentsText.trim().length === 0) return {};
  let value: unknown;
  try {
    value = parseSafeJson(argumentsText);
  } catch (error) {
    throw new CodecErrorV1('invalid-request', 'tool call arguments are not valid JSON', { path, cause: error });
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new CodecErrorV1('invalid-request', 'tool call arguments must be a JSON object', { path });
  }
  return value as Record<string, unknown>;
}
