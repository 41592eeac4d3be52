import { createWireReaders, isWireRecord as isRecord } from '../../codec-kit/wire-readers.js';

/*
 * Tolerant readers of an OpenAI `ImagesResponse` (fact sheet §2c). They read only the fields this family uses
 * (`data[].b64_json|url|revised_prompt`, `output_format`, `usage`), allow any extra key (`created`, `background`,
 * `quality`, `size` echoes), treat `null` like an absent field, and throw a ProtocolViolationError naming the
 * JSON path (never the value) when a field we read is missing, mistyped, unsafe or out of range.
 */

/** Largest token count accepted: three of them still add up below `Number.MAX_SAFE_INTEGER`. */
const MAX_COUNT = 2 ** 51;
/** The readers of this family's wire JSON (messages start with `openai-images`). */
const wire = createWireReaders({ family: 'openai-images', maxCount: MAX_COUNT });
const { violation } = wire;

function isUnset(value: unknown): value is null | undefined {
  return value === undefined || value === null;
}
/** Longest image URL accepted (the bound of the normalized result). */
const MAX_URL_LENGTH = 8192;
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/** One image: exactly one of `b64_json` and `url`. */
export type OpenAiImagesWireImage =
  | { readonly b64_json: string; readonly revised_prompt?: string }
  | { readonly url: string; readonly revised_prompt?: string };

/** `usage` (GPT image models), the fields we read. */
export interface OpenAiImagesWireUsage {
  /** Text and image input tokens. */
  readonly input_tokens?: number;
  /** Image (and text) output tokens. */
  readonly output_tokens?: number;
  /** Their sum. */
  readonly total_tokens?: number;
}

/** A success body, as far as this family reads it. */
export interface OpenAiImagesWireResponse {
  /** The images, in order (at least one). */
  readonly data: readonly OpenAiImagesWireImage[];
  /** The echoed `output_format` when it is one this family knows (`png`, `jpeg`, `webp`). */
  readonly output_format?: 'png' | 'jpeg' | 'webp';
  /** GPT image models only. */
  readonly usage?: OpenAiImagesWireUsage;
}

/** Whether text is an absolute https URL without userinfo (no credentials may travel in an image link). */
export function isSafeImageUrl(text: string): boolean {
  if (text.length === 0 || text.length > MAX_URL_LENGTH) return false;
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return false;
  }
  return url.protocol === 'https:' && url.username === '' && url.password === '' && url.hostname.length > 0;
}

/** Whether text is non-empty standard padded base64 (RFC 4648 §4, no whitespace). */
export function isStandardBase64(text: string): boolean {
  return text.length > 0 && text.length % 4 === 0 && BASE64.test(text);
}

function readImage(value: unknown, path: string): OpenAiImagesWireImage {
  if (!isRecord(value)) throw violation(path, 'must be an object');
  const { b64_json: base64, url, revised_prompt: revisedPrompt } = value;
  if (!isUnset(revisedPrompt) && typeof revisedPrompt !== 'string') throw violation(`${path}.revised_prompt`, 'must be a string');
  const revised = typeof revisedPrompt === 'string' ? { revised_prompt: revisedPrompt } : {};
  if (!isUnset(base64) && !isUnset(url)) throw violation(path, 'must carry b64_json or url, not both');
  if (!isUnset(base64)) {
    if (typeof base64 !== 'string' || !isStandardBase64(base64)) throw violation(`${path}.b64_json`, 'must be standard base64');
    return { b64_json: base64, ...revised };
  }
  if (!isUnset(url)) {
    if (typeof url !== 'string' || !isSafeImageUrl(url)) throw violation(`${path}.url`, 'must be an https URL without userinfo');
    return { url, ...revised };
  }
  throw violation(path, 'must carry b64_json or url');
}

/**
 * Reads an `ImagesResponse`: `data` (a non-empty array; each item exactly one of `b64_json` (standard base64) and
 * `url` (https, no userinfo, at most 8,192 characters), optional `revised_prompt`), `output_format` (an unknown
 * value is ignored: only the media type depends on it) and `usage`.
 *
 * @throws {ProtocolViolationError} `invalid-event` naming the path of the first field that breaks the rule.
 */
export function readOpenAiImagesResponse(value: unknown): OpenAiImagesWireResponse {
  if (!isRecord(value)) throw violation('body', 'must be a JSON object');
  const dataValue = value.data;
  if (!Array.isArray(dataValue) || dataValue.length === 0) throw violation('data', 'must be a non-empty array');
  const data = dataValue.map((item, position) => readImage(item, `data.${position}`));
  const format = value.output_format;
  if (!isUnset(format) && typeof format !== 'string') throw violation('output_format', 'must be a string');
  let usage: OpenAiImagesWireUsage | undefined;
  if (!isUnset(value.usage)) {
    if (!isRecord(value.usage)) throw violation('usage', 'must be an object');
    const inputTokens = wire.optionalCount(value.usage.input_tokens, 'usage', 'input_tokens');
    const outputTokens = wire.optionalCount(value.usage.output_tokens, 'usage', 'output_tokens');
    const totalTokens = wire.optionalCount(value.usage.total_tokens, 'usage', 'total_tokens');
    usage = {
      ...(inputTokens === undefined ? {} : { input_tokens: inputTokens }),
      ...(outputTokens === undefined ? {} : { output_tokens: outputTokens }),
      ...(totalTokens === undefined ? {} : { total_tokens: totalTokens }),
    };
  }
  return {
    data,
    ...(format === 'png' || format === 'jpeg' || format === 'webp' ? { output_format: format } : {}),
    ...(usage === undefined ? {} : { usage }),
  };
}
