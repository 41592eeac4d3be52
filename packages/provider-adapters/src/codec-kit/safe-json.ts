import { CodecErrorV1 } from '@tokenforge/model-protocol';

/** Default byte limit of {@link parseSafeJson} and {@link parseSafeJsonBytes}: 32 MiB of UTF-8. */
export const DEFAULT_SAFE_JSON_MAX_BYTES = 32 * 1024 * 1024;
/** Default nesting limit: 64 levels of objects and arrays. */
export const DEFAULT_SAFE_JSON_MAX_DEPTH = 64;

/** Limits of the safe JSON parser. */
export interface SafeJsonLimits {
  /** Largest accepted input in UTF-8 bytes (default {@link DEFAULT_SAFE_JSON_MAX_BYTES}). */
  readonly maxBytes?: number;
  /** Deepest accepted nesting of objects and arrays (default {@link DEFAULT_SAFE_JSON_MAX_DEPTH}). */
  readonly maxDepth?: number;
}

// A key whose raw form is longer than this cannot decode to a checked key (each character is at most a 6-character escape).
const LONGEST_ESCAPED_CHECKED_KEY = 6 * 'constructor'.length;

const fatalDecoder = new TextDecoder('utf-8', { fatal: true });

/**
 * Parses JSON text the only way provider and client bytes may be parsed: with a size limit, a nesting limit
 * (checked iteratively, so hostile depth never overflows the stack), and no prototype keys: no
 * `__proto__` object key at any depth, and no `prototype` key in an object that is the value of a `constructor`
 * key (other `constructor` and `prototype` keys are ordinary data, such as a tool argument `{"constructor":"Ada"}`).
 * A leading byte-order mark is ignored.
 *
 * Most texts are checked without a pass of their own: a text that contains neither `proto` nor a `\u` escape
 * cannot spell a forbidden key, and one with at most `maxDepth` opening brackets (or at most `2 * maxDepth + 1`
 * characters) cannot nest too deep, both found by native substring search. A text with more brackets but no key hazard is parsed, then its depth is
 * measured by jumping between its quotes and brackets; only a text that may spell a forbidden key (or does not
 * parse) is scanned character by character before parsing.
 *
 * @throws {CodecErrorV1} `body-too-large`, `nesting-too-deep`, `forbidden-key` or `malformed-json`. Messages
 * name the rule, never the input.
 */
export function parseSafeJson(text: string, limits?: SafeJsonLimits): unknown {
  const maxBytes = limits?.maxBytes ?? DEFAULT_SAFE_JSON_MAX_BYTES;
  if (text.length > maxBytes || (text.length * 3 > maxBytes && utf8ByteLength(text) > maxBytes)) {
    throw tooLarge(maxBytes);
  }
  return parseCheckedText(text, limits?.maxDepth ?? DEFAULT_SAFE_JSON_MAX_DEPTH, false);
}

/**
 * Parses JSON from UTF-8 bytes with the limits of {@link parseSafeJson}. The size is checked before decoding;
 * invalid UTF-8 is refused, never replaced. A leading byte-order mark is ignored.
 *
 * @throws {CodecErrorV1} `body-too-large`, `invalid-encoding`, `nesting-too-deep`, `forbidden-key` or `malformed-json`.
 */
export function parseSafeJsonBytes(bytes: Uint8Array, limits?: SafeJsonLimits): unknown {
  const maxBytes = limits?.maxBytes ?? DEFAULT_SAFE_JSON_MAX_BYTES;
  if (bytes.byteLength > maxBytes) throw tooLarge(maxBytes);
  let text: string;
  try {
    text = fatalDecoder.decode(bytes);
  } catch {
    throw new CodecErrorV1('invalid-encoding', 'JSON body is not valid UTF-8');
  }
  return parseCheckedText(text, limits?.maxDepth ?? DEFAULT_SAFE_JSON_MAX_DEPTH, false);
}

/**
 * {@link parseSafeJson} with the character scan forced on every text: the reference the fast path is proven
 * equal to. Internal to the kit (not exported from its index); tests and benchmarks only.
 */
export function parseSafeJsonScanned(text: string, limits?: SafeJsonLimits): unknown {
  const maxBytes = limits?.maxBytes ?? DEFAULT_SAFE_JSON_MAX_BYTES;
  if (text.length > maxBytes || (text.length * 3 > maxBytes && utf8ByteLength(text) > maxBytes)) {
    throw tooLarge(maxBytes);
  }
  return parseCheckedText(text, limits?.maxDepth ?? DEFAULT_SAFE_JSON_MAX_DEPTH, true);
}

function parseCheckedText(text: string, maxDepth: number, alwaysScan: boolean): unknown {
  const source = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  if (alwaysScan || mayHoldForbiddenKey(source)) {
    scanStructure(source, maxDepth);
    return parse(source);
  }
  // Valid JSON nested d levels deep holds d opening and d closing brackets, so a text of at most 2 * maxDepth + 1
  // characters that parses is never too deep (a short stream frame skips the bracket count).
  if (source.length <= 2 * maxDepth + 1) return parseOrScan(source, maxDepth);
  if (!hasMoreOpeningBrackets(source, maxDepth)) return parse(source);
  // Many brackets but no key hazard (a large body, typically): the engine's parser is iterative, so parse first,
  // then measure the depth on the text by jumping between quotes and brackets, which is cheaper than a character
  // scan.
  const value = parseOrScan(source, maxDepth);
  if (textNestsDeeperThan(source, maxDepth)) throw tooDeep(maxDepth);
  return value;
}

/** Parses; text that does not parse gets the scan, so a cut-off deep input still ends in nesting-too-deep. */
function parseOrScan(source: string, maxDepth: number): unknown {
  try {
    return JSON.parse(source) as unknown;
  } catch {
    scanStructure(source, maxDepth);
    throw malformed();
  }
}

function parse(source: string): unknown {
  try {
    return JSON.parse(source) as unknown;
  } catch {
    // The engine's own message quotes the input: never pass it on.
    throw malformed();
  }
}

/**
 * False only when the text cannot spell a forbidden key: one is written `__proto__` or `prototype` in the raw
 * text unless a `\u` escape writes some of its letters (no other escape yields a letter or `_`).
 */
function mayHoldForbiddenKey(text: string): boolean {
  if (text.indexOf('\\u') >= 0) return true;
  if (text.length < LONG_TEXT) return text.indexOf('proto') >= 0 && (text.indexOf('__proto__') >= 0 || text.indexOf('prototype') >= 0);
  // Unescaped, a forbidden key is the whole string "__proto__" or "prototype", so in a long text the searches
  // start at a quote, which long runs of letters (base64 vectors) hold far fewer of than the letter p.
  return text.indexOf('"__pro') >= 0 || text.indexOf('"proto') >= 0;
}

/** From this length a text is searched for forbidden keys from quotes (two searches) instead of for `proto` (one). */
const LONG_TEXT = 4096;

/** Whether the text has more than `maxDepth` opening brackets (those inside strings count too, which only over-counts). */
function hasMoreOpeningBrackets(text: string, maxDepth: number): boolean {
  let opening = 0;
  for (let index = text.indexOf('{'); index >= 0; index = text.indexOf('{', index + 1)) {
    opening += 1;
    if (opening > maxDepth) return true;
  }
  for (let index = text.indexOf('['); index >= 0; index = text.indexOf('[', index + 1)) {
    opening += 1;
    if (opening > maxDepth) return true;
  }
  return false;
}

/**
 * Whether valid JSON text nests objects and arrays more than `maxDepth` levels, measured on the text like
 * {@link scanStructure} but jumping from token to token with native `indexOf`: only quotes and brackets are
 * visited, and each string is skipped whole. Allocates nothing, so a large body (64 embeddings of 1,536 numbers)
 * costs a few hundred searches. Only for text `JSON.parse` accepted: its quotes outside strings open strings.
 */
function textNestsDeeperThan(text: string, maxDepth: number): boolean {
  let depth = 0;
  let quote = text.indexOf('"');
  let openBrace = text.indexOf('{');
  let openBracket = text.indexOf('[');
  let closeBrace = text.indexOf('}');
  let closeBracket = text.indexOf(']');
  for (;;) {
    let next = quote;
    if (openBrace >= 0 && (next < 0 || openBrace < next)) next = openBrace;
    if (openBracket >= 0 && (next < 0 || openBracket < next)) next = openBracket;
    if (closeBrace >= 0 && (next < 0 || closeBrace < next)) next = closeBrace;
    if (closeBracket >= 0 && (next < 0 || closeBracket < next)) next = closeBracket;
    if (next < 0) return false;
    let from = next + 1;
    if (next === quote) {
      from = findStringEnd(text, from) + 1;
    } else if (next === openBrace || next === openBracket) {
      depth += 1;
      if (depth > maxDepth) return true;
    } else {
      depth -= 1;
    }
    // Every search that pointed into the token just consumed (or into the skipped string) moves past it.
    if (quote >= 0 && quote < from) quote = text.indexOf('"', from);
    if (openBrace >= 0 && openBrace < from) openBrace = text.indexOf('{', from);
    if (openBracket >= 0 && openBracket < from) openBracket = text.indexOf('[', from);
    if (closeBrace >= 0 && closeBrace < from) closeBrace = text.indexOf('}', from);
    if (closeBracket >= 0 && closeBracket < from) closeBracket = text.indexOf(']', from);
  }
}

/**
 * One linear pass over the text: tracks nesting outside strings and checks every object key (a string
 * followed by `:`), remembering per open object whether it is the value of a `constructor` key. Valid JSON is
 * scanned exactly; for invalid JSON any typed failure is acceptable.
 */
function scanStructure(text: string, maxDepth: number): void {
  const length = text.length;
  // constructorValue[depth]: whether the object open at that depth is the value of a `constructor` key.
  const constructorValue: boolean[] = [false];
  let depth = 0;
  let index = 0;
  let lastStringStart = -1;
  let lastStringEnd = -1;
  let lastTokenWasString = false;
  let afterConstructorKey = false;
  while (index < length) {
    const code = text.charCodeAt(index);
    switch (code) {
      case 0x22: {
        const end = findStringEnd(text, index + 1);
        if (end < 0) throw malformed();
        lastStringStart = index;
        lastStringEnd = end;
        lastTokenWasString = true;
        afterConstructorKey = false;
        index = end + 1;
        continue;
      }
      case 0x20:
      case 0x0a:
      case 0x0d:
      case 0x09:
        index += 1;
        continue;
      case 0x3a: {
        const key = lastTokenWasString ? checkedKey(text, lastStringStart, lastStringEnd) : undefined;
        if (key === '__proto__' || (key === 'prototype' && constructorValue[depth] === true)) {
          throw new CodecErrorV1('forbidden-key', key === '__proto__' ? 'JSON object key "__proto__" is not allowed' : 'JSON key "constructor.prototype" is not allowed');
        }
        lastTokenWasString = false;
        afterConstructorKey = key === 'constructor';
        index += 1;
        continue;
      }
      case 0x7b:
      case 0x5b:
        depth += 1;
        if (depth > maxDepth) throw tooDeep(maxDepth);
        constructorValue[depth] = code === 0x7b && afterConstructorKey;
        break;
      case 0x7d:
      case 0x5d:
        depth -= 1;
        break;
      default:
        break;
    }
    lastTokenWasString = false;
    afterConstructorKey = false;
    index += 1;
  }
}

/** Index of the closing quote of a string whose content starts at `from`, or -1. */
function findStringEnd(text: string, from: number): number {
  let position = from;
  for (;;) {
    const quote = text.indexOf('"', position);
    if (quote < 0) return -1;
    let backslashes = 0;
    let cursor = quote - 1;
    while (cursor >= from && text.charCodeAt(cursor) === 0x5c) {
      backslashes += 1;
      cursor -= 1;
    }
    if ((backslashes & 1) === 0) return quote;
    position = quote + 1;
  }
}

/** The key `__proto__`, `constructor` or `prototype` if the string between the quotes decodes to one, else undefined. */
function checkedKey(text: string, openQuote: number, closeQuote: number): string | undefined {
  const rawLength = closeQuote - openQuote - 1;
  if (rawLength < 9 || rawLength > LONGEST_ESCAPED_CHECKED_KEY) return undefined;
  const backslash = text.indexOf('\\', openQuote + 1);
  let key: string;
  if (backslash < 0 || backslash > closeQuote) {
    if (rawLength !== 9 && rawLength !== 11) return undefined;
    key = text.slice(openQuote + 1, closeQuote);
  } else {
    try {
      key = JSON.parse(text.slice(openQuote, closeQuote + 1)) as string;
    } catch {
      throw malformed();
    }
  }
  return key === '__proto__' || key === 'constructor' || key === 'prototype' ? key : undefined;
}

/** UTF-8 length of a string (a lone surrogate counts as the 3 bytes of U+FFFD, as TextEncoder writes it). */
function utf8ByteLength(text: string): number {
  let bytes = 0;
  for (let index = 0; index < text.length; index += 1) {
    const code = text.charCodeAt(index);
    if (code < 0x80) bytes += 1;
    else if (code < 0x800) bytes += 2;
    else if (code >= 0xd800 && code <= 0xdbff && index + 1 < text.length) {
      const next = text.charCodeAt(index + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        bytes += 4;
        index += 1;
      } else bytes += 3;
    } else bytes += 3;
  }
  return bytes;
}

function tooLarge(maxBytes: number): CodecErrorV1 {
  return new CodecErrorV1('body-too-large', `JSON input exceeds ${maxBytes} bytes`);
}

function tooDeep(maxDepth: number): CodecErrorV1 {
  return new CodecErrorV1('nesting-too-deep', `JSON nesting exceeds ${maxDepth} levels`);
}

function malformed(): CodecErrorV1 {
  return new CodecErrorV1('malformed-json', 'input is not valid JSON');
}
