const QUOTE = 0x22;
const BACKSLASH = 0x5c;
/** Longest slice V8 copies instead of pointing into its parent string (`SlicedString::kMinLength` is 13). */
const LONGEST_COPIED_SLICE = 12;

/**
 * The value of `text.slice(start, end)` when that is exactly one JSON string literal, else `undefined`. Short
 * literals without escapes (most stream fragments) are checked by a character loop and sliced (V8 copies a slice
 * this short); others go to `JSON.parse`, whose result, unlike a longer slice, keeps no reference to the whole read
 * (a stream decoder keeps every fragment until the stream ends).
 */
export function readJsonStringLiteral(text: string, start: number, end: number): string | undefined {
  if (end - start < 2 || text.charCodeAt(start) !== QUOTE || text.charCodeAt(end - 1) !== QUOTE) return undefined;
  if (end - start - 2 > LONGEST_COPIED_SLICE) return parseLiteral(text.slice(start, end));
  const last = end - 1;
  for (let position = start + 1; position < last; position += 1) {
    const code = text.charCodeAt(position);
    if (code === BACKSLASH) return parseLiteral(text.slice(start, end));
    if (code === QUOTE || code < 0x20) return undefined;
  }
  return text.slice(start + 1, last);
}

function parseLiteral(literal: string): string | undefined {
  try {
    const value: unknown = JSON.parse(literal);
    return typeof value === 'string' ? value : undefined;
  } catch {
    return undefined;
  }
}
