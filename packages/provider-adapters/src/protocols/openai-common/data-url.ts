/** A `data:` URL split into its media type and base64 payload. */
export interface Base64DataUrl {
  /** The media type, lower-cased (`image/png`). */
  readonly mediaType: string;
  /** The base64 payload, unchanged. */
  readonly data: string;
}

const DATA_URL = /^data:([a-z0-9!#$&^_.+-]+\/[a-z0-9!#$&^_.+-]+)((?:;[a-z0-9-]+=[^;,]*)*);base64,/i;

/**
 * Splits a base64 `data:` URL (`data:image/png;base64,...`, parameters allowed before `;base64`; the scheme in any
 * case, as RFC 3986 §3.1 says). Returns `undefined` for anything else. Only the head of the URL is matched, so the
 * cost does not grow with the payload. Shared by the chat and responses families.
 */
export function parseBase64DataUrl(url: string): Base64DataUrl | undefined {
  if (url.slice(0, 5).toLowerCase() !== 'data:') return undefined;
  const match = DATA_URL.exec(url.slice(0, 512));
  if (match === null) return undefined;
  const data = url.slice(match[0].length);
  if (data.length === 0) return undefined;
  return { mediaType: (match[1] as string).toLowerCase(), data };
}

/** Builds `data:<mediaType>;base64,<data>`. */
export function formatBase64DataUrl(mediaType: string, data: string): string {
  return `data:${mediaType};base64,${data}`;
}
