import { refuseBeforeSend } from '../failure/refuse-before-send.js';

// RFC 3986 path characters: unreserved, sub-delims, ':' and '@', and well-formed percent escapes.
const PATH_SEGMENT = /^(?:[A-Za-z0-9\-._~!$&'()*+,;=:@]|%[0-9A-Fa-f]{2})*$/;
// After decoding: a separator (also a backslash, which some servers treat as one), a NUL, or a dot segment.
const DECODED_HAZARD = /[/\\\0]/;

/**
 * Why `path` (an absolute path without query) could leave the segment structure it shows, or `undefined` when
 * it is safe. Each segment must be plain RFC 3986 text, and once percent-decoded it must not hold `/`, `\` or
 * NUL, nor be `.` or `..`: an upstream or proxy that decodes before it normalizes would otherwise route
 * `..%2F..%2Fadmin` somewhere above the base path.
 */
export function findPathRefusal(path: string): string | undefined {
  if (!path.startsWith('/') || path.startsWith('//')) return 'request path must start with one /';
  for (const segment of path.slice(1).split('/')) {
    if (!PATH_SEGMENT.test(segment)) return 'request path has a character outside RFC 3986';
    const decoded = segment.includes('%') ? decodeSegment(segment) : segment;
    if (decoded === undefined) return 'request path has an escape that is not UTF-8';
    if (decoded === '.' || decoded === '..') return 'request path has a dot segment';
    if (DECODED_HAZARD.test(decoded)) return 'request path has an encoded separator';
  }
  return undefined;
}

function decodeSegment(segment: string): string | undefined {
  try {
    return decodeURIComponent(segment);
  } catch {
    return undefined;
  }
}

/**
 * Joins the base URL's path prefix, the adapter's path and the encoded query. A path that could leave the
 * prefix (see {@link findPathRefusal}) is refused before sending.
 */
export function buildRequestPath(
  basePath: string,
  path: string,
  query: Readonly<Record<string, string>> | undefined,
): string {
  const refusal = findPathRefusal(path);
  if (refusal !== undefined) throw refuseBeforeSend('policy-refused', refusal);
  const prefix = basePath.endsWith('/') ? basePath.slice(0, -1) : basePath;
  const search = query === undefined ? '' : new URLSearchParams(Object.entries(query)).toString();
  return `${prefix}${path}${search === '' ? '' : `?${search}`}`;
}
