import { refuseBeforeSend } from '../failure/refuse-before-send.js';

// RFC 3986 path characters: unreserved, sub-delims, ':' and '@', and well-formed percent escapes.
const PATH_SEGMENT = /^(?:[A-Za-z0-9\-._~!$&'()*+,;=:@]|%[0-9A-Fa-f]{2})*$/;
const DOT_SEGMENT = /^(?:\.|%2e){1,2}$/i;

/**
 * Joins the base URL's path prefix, the adapter's path and the encoded query. A path that could leave the
 * prefix (dot segments, also percent-encoded) or that is not a plain absolute path is refused before sending.
 */
export function buildRequestPath(
  basePath: string,
  path: string,
  query: Readonly<Record<string, string>> | undefined,
): string {
  if (!path.startsWith('/') || path.startsWith('//')) throw refuseBeforeSend('policy-refused', 'request path must start with one /');
  const segments = path.slice(1).split('/');
  for (const segment of segments) {
    if (!PATH_SEGMENT.test(segment)) throw refuseBeforeSend('policy-refused', 'request path has a character outside RFC 3986');
    if (DOT_SEGMENT.test(segment)) throw refuseBeforeSend('policy-refused', 'request path has a dot segment');
  }
  const prefix = basePath.endsWith('/') ? basePath.slice(0, -1) : basePath;
  const search = query === undefined ? '' : new URLSearchParams(Object.entries(query)).toString();
  return `${prefix}${path}${search === '' ? '' : `?${search}`}`;
}
