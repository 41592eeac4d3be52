/**
 * The media types a server-sent-events stream arrives with: `text/event-stream` (any parameters, such as
 * `; charset=utf-8`), and `text/plain`, which some servers and relays use for SSE (the body is then read as SSE; a
 * `text/plain` body that is not SSE ends like any other stream without its end, as a truncated stream).
 */
export const SSE_STREAM_MEDIA_TYPES: readonly string[] = Object.freeze(['text/event-stream', 'text/plain']);

/**
 * SSE media types plus `application/json`, for families whose stream decoder reads a bare JSON value (an error
 * object answering a stream request) as part of the stream.
 */
export const SSE_OR_JSON_STREAM_MEDIA_TYPES: readonly string[] = Object.freeze([...SSE_STREAM_MEDIA_TYPES, 'application/json']);

/** The media type of a `content-type` header value, lower-cased, without parameters (`undefined` when empty). */
export function mediaTypeOf(header: string | undefined): string | undefined {
  if (header === undefined) return undefined;
  const type = (header.split(',')[0] ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
  return type.length === 0 ? undefined : type;
}

/**
 * Whether a stream response's `content-type` fits the family's format. An absent header is accepted (the body
 * decoder judges it); a present one must name one of `accepted`, whatever its parameters.
 */
export function isStreamContentTypeAccepted(header: string | undefined, accepted: readonly string[]): boolean {
  const type = mediaTypeOf(header);
  return type === undefined || accepted.includes(type);
}
