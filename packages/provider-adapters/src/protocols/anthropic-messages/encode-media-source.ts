import { CodecErrorV1, type MediaSourceV2 } from '@tokenforge/model-protocol';
import type { AnthropicMediaSource } from './wire-request.js';

/** Image media types the Messages API accepts inline. */
export const ANTHROPIC_IMAGE_MEDIA_TYPES: ReadonlySet<string> = new Set(['image/jpeg', 'image/png', 'image/gif', 'image/webp']);

const DATA_URL = /^data:([A-Za-z0-9.+-]+\/[A-Za-z0-9.+-]+)(?:;[A-Za-z0-9=.+-]+)*;base64,/;
const fatalDecoder = new TextDecoder('utf-8', { fatal: true });

/**
 * Encodes the source of an image part. `https:` URLs are passed as URL sources; `data:` URLs and base64 are
 * sent inline. Only JPEG, PNG, GIF and WebP can be sent inline: another media type is a capability failure.
 *
 * @throws {CodecErrorV1} `unsupported-feature` (media type), `invalid-request` (URL scheme, data URL form).
 */
export function encodeAnthropicImageSource(source: MediaSourceV2, path: string): AnthropicMediaSource {
  const inline = toInline(source, path);
  if (inline.kind === 'url') return { type: 'url', url: inline.url };
  if (!ANTHROPIC_IMAGE_MEDIA_TYPES.has(inline.mediaType)) {
    throw new CodecErrorV1('unsupported-feature', 'Anthropic accepts only JPEG, PNG, GIF and WebP images', { path });
  }
  return { type: 'base64', media_type: inline.mediaType, data: inline.data };
}

/**
 * Encodes the source of a document part: a PDF (inline or by `https:` URL) or plain text (inline, sent as
 * a text source after decoding its base64 as UTF-8). Other media types are a capability failure.
 *
 * @throws {CodecErrorV1} `unsupported-feature` (media type), `invalid-request` (URL scheme, data URL form),
 * `invalid-encoding` (plain text that is not base64 of UTF-8).
 */
export function encodeAnthropicDocumentSource(source: MediaSourceV2, path: string): AnthropicMediaSource {
  const inline = toInline(source, path);
  if (inline.kind === 'url') return { type: 'url', url: inline.url };
  if (inline.mediaType === 'application/pdf') return { type: 'base64', media_type: 'application/pdf', data: inline.data };
  if (inline.mediaType === 'text/plain') return { type: 'text', media_type: 'text/plain', data: decodeBase64Utf8(inline.data, path) };
  throw new CodecErrorV1('unsupported-feature', 'Anthropic documents must be PDF or plain text', { path });
}

type ResolvedSource = { kind: 'url'; url: string } | { kind: 'inline'; mediaType: string; data: string };

/** An `https:` URL stays a URL; base64 and `data:` URLs become inline media type and base64 data. */
function toInline(source: MediaSourceV2, path: string): ResolvedSource {
  switch (source.type) {
    case 'base64':
      return { kind: 'inline', mediaType: source.mediaType.toLowerCase(), data: source.data };
    case 'url': {
      if (/^https:\/\//i.test(source.url)) return { kind: 'url', url: source.url };
      const match = DATA_URL.exec(source.url);
      if (match === null) {
        throw new CodecErrorV1('invalid-request', 'media URL must be https or a base64 data URL', { path: `${path}.url` });
      }
      const data = source.url.slice(match[0].length);
      if (data.length === 0) throw new CodecErrorV1('invalid-request', 'data URL has no data', { path: `${path}.url` });
      return { kind: 'inline', mediaType: (match[1] as string).toLowerCase(), data };
    }
    default: {
      const unknownSource: never = source;
      throw new CodecErrorV1('invalid-request', `unknown media source ${String((unknownSource as { type: unknown }).type)}`, { path });
    }
  }
}

function decodeBase64Utf8(data: string, path: string): string {
  try {
    const binary = atob(data);
    const bytes = new Uint8Array(binary.length);
    for (let index = 0; index < binary.length; index += 1) bytes[index] = binary.charCodeAt(index);
    return fatalDecoder.decode(bytes);
  } catch {
    throw new CodecErrorV1('invalid-encoding', 'plain-text document is not base64 of UTF-8', { path });
  }
}
