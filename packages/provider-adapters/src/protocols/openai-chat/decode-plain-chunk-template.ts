import { readJsonStringLiteral } from '../../codec-kit/read-json-string-literal.js';

/**
 * The fixed text of one stream's plain text chunks: what surrounds the `content` string literal, learned from a
 * chunk the general reader took as plain text. Servers write every such chunk of a stream with the same members
 * in the same order (`{"id":…,"object":…,"created":…,"model":…,"choices":[{"index":0,"delta":{"content":` … `},
 * "logprobs":null,"finish_reason":null}]}`), so a later chunk that has exactly this text around a string literal
 * is the same chunk with another content, and only that literal needs reading.
 */
export interface PlainChunkTemplate {
  /** The chunk text before the content literal (ends where a value starts). */
  readonly head: string;
  /** The text after the content literal: the rest of the chunk, or, with {@link varyingLast}, up to that member's value. */
  readonly middle: string;
  /**
   * Whether the chunk ends with a string member whose value changes from chunk to chunk (OpenAI's
   * `"obfuscation":"…"` padding), then `}`: `middle` then ends with that member's key and colon.
   */
  readonly varyingLast: boolean;
}

/** The member OpenAI pads each chunk with (a random string of random length), last in the chunk object. */
const VARYING_LAST_KEY = ',"obfuscation":';
const PROBE = 'tokenforge-template-probe-\u0001';
const PROBE_LITERAL = JSON.stringify(PROBE);
/** Occurrences of the content literal tried when learning (an id or model can spell the same text first). */
const MAX_CANDIDATES = 4;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COLON = 0x3a;

/**
 * Learns the template of `text`, a chunk the general reader parsed and found plain with `content`. The content
 * literal is located by its position in the JSON structure (a string token right after a member's colon), and the
 * template is proven by a probe: the text with that literal swapped for another string must parse, through
 * `parse`, to a chunk `contentOf` takes as plain text with exactly the probe as its content. Since swapping one
 * string token for another keeps the structure, any chunk of the form `head` + string literal + `middle` (+ string
 * literal + `}` with `varyingLast`) then parses to the learned chunk with that content. `undefined` when no
 * template can be proven (another spelling of the content, or a chunk that holds the probe's text).
 */
export function learnPlainChunkTemplate(
  text: string,
  content: string,
  parse: (text: string) => unknown,
  contentOf: (value: unknown) => string | undefined,
): PlainChunkTemplate | undefined {
  if (text.includes(PROBE_LITERAL.slice(1, -1))) return undefined;
  const literal = JSON.stringify(content);
  let at = text.indexOf(literal);
  for (let tries = 0; at >= 0 && tries < MAX_CANDIDATES; tries += 1, at = text.indexOf(literal, at + 1)) {
    const head = text.slice(0, at);
    if (!endsAtValueStart(head)) continue;
    const rest = text.slice(at + literal.length);
    let middle = rest;
    let varyingLast = false;
    const varying = rest.lastIndexOf(VARYING_LAST_KEY);
    if (varying >= 0 && rest.endsWith('"}') && readJsonStringLiteral(rest, varying + VARYING_LAST_KEY.length, rest.length - 1) !== undefined) {
      middle = rest.slice(0, varying + VARYING_LAST_KEY.length);
      varyingLast = endsAtValueStart(middle);
      if (!varyingLast) middle = rest;
    }
    if (!varyingLast && endsInsideString(middle)) continue;
    const probe = head + PROBE_LITERAL + middle + (varyingLast ? `${PROBE_LITERAL}}` : '');
    let value: unknown;
    try {
      value = parse(probe);
    } catch {
      continue;
    }
    if (contentOf(value) === PROBE) return { head, middle, varyingLast };
  }
  return undefined;
}

/**
 * The content of `text` when it is `template`'s chunk with another content literal (and varying last value), else
 * `undefined` (the general reader decides). Both literals must each be exactly one valid JSON string.
 */
export function readPlainChunkContent(text: string, template: PlainChunkTemplate): string | undefined {
  const start = template.head.length;
  // Not `startsWith`: on Node 20 it fell to ~1 µs a call for this ~150-character head once warm, while a slice
  // compared with `===` stays near 0.1 µs.
  if (text.length < start || text.slice(0, start) !== template.head) return undefined;
  let end: number;
  if (template.varyingLast) {
    if (text.charCodeAt(text.length - 1) !== 0x7d) return undefined;
    end = text.indexOf(template.middle, start);
    if (end < 0) return undefined;
    if (readJsonStringLiteral(text, end + template.middle.length, text.length - 1) === undefined) return undefined;
  } else {
    if (!text.endsWith(template.middle)) return undefined;
    end = text.length - template.middle.length;
  }
  return readJsonStringLiteral(text, start, end);
}

/** Whether JSON text that starts outside a string ends outside one, right after a colon (whitespace aside). */
function endsAtValueStart(text: string): boolean {
  if (endsInsideString(text)) return false;
  for (let position = text.length - 1; position >= 0; position -= 1) {
    const code = text.charCodeAt(position);
    if (code === 0x20 || code === 0x09 || code === 0x0a || code === 0x0d) continue;
    return code === COLON;
  }
  return false;
}

/** Whether JSON text that starts outside a string ends inside one. */
function endsInsideString(text: string): boolean {
  let inString = false;
  for (let position = 0; position < text.length; position += 1) {
    const code = text.charCodeAt(position);
    if (!inString) {
      if (code === QUOTE) inString = true;
    } else if (code === BACKSLASH) position += 1;
    else if (code === QUOTE) inString = false;
  }
  return inString;
}
