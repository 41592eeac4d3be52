/**
 * Request headers that change what a body means (`ClientWireRequestV2.headers`, lower-case names). Only these
 * reach the ingress codec: never credentials, cookies or anything else a client sent.
 */
export const MEANINGFUL_REQUEST_HEADERS = ['anthropic-version', 'anthropic-beta', 'openai-beta', 'content-type'] as const;

/** The meaningful headers a request carries. */
export function meaningfulHeaders(headers: Headers): Record<string, string> {
  const picked: Record<string, string> = {};
  for (const name of MEANINGFUL_REQUEST_HEADERS) {
    const value = headers.get(name);
    if (value !== null) picked[name] = value;
  }
  return picked;
}
