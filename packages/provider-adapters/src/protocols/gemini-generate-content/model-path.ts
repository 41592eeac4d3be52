import { CodecErrorV1 } from '@tokenforge/model-protocol';

/** The two generateContent methods; the method is part of the path (`models/{model}:{method}`). */
export type GeminiGenerateMethod = 'generateContent' | 'streamGenerateContent';

/** Every model method this family calls: the two generateContent methods and `countTokens`. */
export type GeminiModelMethod = GeminiGenerateMethod | 'countTokens';

// A model id is one path segment: letters, digits, `.`, `_` and `-`, starting with a letter or digit.
// No `/`, `:`, `%`, `?`, `#`, whitespace or `..`: any of them could leave the `models/` collection or
// change the method after the colon.
const MODEL_ID = /^[A-Za-z0-9][A-Za-z0-9._-]{0,255}$/;

/** Whether a model id can be placed in a Gemini path without escaping anything. */
export function isSafeGeminiModelId(model: string): boolean {
  return MODEL_ID.test(model) && !model.includes('..');
}

/**
 * The request path of a generateContent call for `model`, relative to the connection's base URL
 * (`/v1beta/models/{model}:{method}`).
 *
 * @throws {CodecErrorV1} `invalid-request` when the model id is not a single safe path segment (the message
 * never repeats the id).
 */
export function buildGeminiModelPath(model: string, method: GeminiModelMethod): string {
  if (!isSafeGeminiModelId(model)) {
    throw new CodecErrorV1('invalid-request', 'model name is not a safe path segment', { path: 'providerModel' });
  }
  return `/v1beta/models/${model}:${method}`;
}

const REQUEST_PATH = /^\/(v1beta|v1|v1alpha)\/models\/([^/:]+):(generateContent|streamGenerateContent)$/;

/** What a client's request path says. */
export interface GeminiRequestPath {
  /** The model id from the path (percent-decoded, checked with {@link isSafeGeminiModelId}). */
  readonly model: string;
  /** The method after the colon. */
  readonly method: GeminiGenerateMethod;
}

/**
 * Reads a client request path `/{v1beta|v1|v1alpha}/models/{model}:{generateContent|streamGenerateContent}`.
 *
 * @throws {CodecErrorV1} `invalid-request` for any other path or an unsafe model id.
 */
export function parseGeminiRequestPath(path: string): GeminiRequestPath {
  const match = REQUEST_PATH.exec(path.length > 1024 ? '' : path);
  if (match === null) {
    throw new CodecErrorV1('invalid-request', 'path is not a Gemini generateContent path', { path: 'path' });
  }
  let model: string;
  try {
    model = decodeURIComponent(match[2] as string);
  } catch {
    throw new CodecErrorV1('invalid-request', 'model name in the path is not valid percent-encoding', { path: 'path' });
  }
  if (!isSafeGeminiModelId(model)) {
    throw new CodecErrorV1('invalid-request', 'model name is not a safe path segment', { path: 'path' });
  }
  return { model, method: match[3] as GeminiGenerateMethod };
}
