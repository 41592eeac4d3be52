import { CodecErrorV1 } from '@tokenforge/model-protocol';
import { parseSafeJson } from '../../codec-kit/safe-json.js';
import { isJsonObject } from './wire-readers.js';

/**
 * A tool call's argument text as the object Gemini carries in `functionCall.args`: blank text is `{}` (a call
 * without arguments), anything else must be a JSON object (parsed with the safe parser).
 *
 * @throws {CodecErrorV1} `invalid-request` naming `path`, for text that is not JSON or not an object.
 */
export function parseToolArgumentsObject(text: string, path?: string): Record<string, unknown> {
  if (text.trim().length === 0) return {};
  const options = path === undefined ? {} : { path };
  let value: unknown;
  try {
    value = parseSafeJson(text);
  } catch (error) {
    throw new CodecErrorV1('invalid-request', 'tool call arguments are not valid JSON', { ...options, cause: error });
  }
  if (!isJsonObject(value)) throw new CodecErrorV1('invalid-request', 'tool call arguments are not a JSON object', options);
  return value;
}
