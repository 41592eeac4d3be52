import { CodecErrorV1, type MediaSourceV2 } from '@tokenforge/model-protocol';
import { isBase64 } from './is-base64.js';

const DATA_URL = /^data:([a-z0-9!#$&^_.+-]+\/[a-z0-9!#$&^_.+-]+)(?:;[a-z0-9=._+-]+)*;base64,/i;

/**
 * A media source as a Gemini part:
 * - base64 data becomes `inlineData {mimeType, data}` (images, PDFs, audio);
 * - a `data:` URL with base64 payload becomes `inlineData` with the URL's media type;
 * - an `https:` URL (including Gemini Files API URIs) or a `gs:` URI becomes `fileData {fileUri}`, sent without
 *   `mimeType` because the task does not carry one for URLs (Gemini detects it);
 * - anything else (`http:`, URLs with user info, other schemes, non-base64 data) is refused.
 *
 * @throws {CodecErrorV1} `invalid-request`.
 */
export function encodeMediaSource(source: MediaSourceV2, path: string): Record<string, unknown> {
  if (source.type === 'base64') {
    if (!isBase64(source.data)) {
      throw new CodecErrorV1('invalid-request', 'media data is not base64', { path });
    }
    return { inlineData: { mimeType: source.mediaType, data: source.data } };
  }
  const url = source.url;
  const dataUrl = DATA_URL.exec(url.slice(0, 300));
  if (dataUrl !== null) {
    const data = url.slice(dataUrl[0].length);
    if (!isBase64(data)) throw new CodecErrorV1('invalid-request', 'data URL is not base64', { path });
    return { inlineData: { mimeType: (dataUrl[1] as string).toLowerCase(), data } };
  }
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new CodecErrorV1('invalid-request', 'media URL is not an absolute URL', { path });
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'gs:') {
    throw new CodecErrorV1('invalid-request', 'media URL must use https or gs', { path });
  }
  if (parsed.username !== '' || parsed.password !== '') {
    throw new CodecErrorV1('invalid-request', 'media URL must not carry user info', { path });
  }
  return { fileData: { fileUri: url } };
}
