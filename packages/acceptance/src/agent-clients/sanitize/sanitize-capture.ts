/**
 * Replaces the clients' own texts in a recorded request by filler of the same length, so a capture keeps its shape
 * (field names, types, nesting, sizes) without the system prompts, tool descriptions and instructions, which are
 * not ours to commit. Deterministic: the same raw request always gives the same capture.
 *
 * A body string becomes filler when it sits under a prose key (`description`, `instructions`, `system`, ...) and is
 * more than a keyword (longer than 12 characters or with whitespace: `summary: "auto"` stays), or when it reads as
 * prose anywhere (whitespace and at least 20 characters, or three words). Our own prompts and the recorder's answer
 * text stay. Headers and query are kept as recorded (secrets are already redacted by the recorder); machine paths
 * in any string are replaced by `/run`. A string holding a JSON object or array is sanitized inside and stays JSON.
 */
import type { RecordedRequest } from '../recorder/request-recorder.js';
import { RECORDER_TEXT } from '../recorder/recorder-answers.js';
import { AGENT_CLIENT_PROMPTS } from '../capture/agent-client-runs.js';

const FILLER_UNIT = 'filler ';

/** Filler of exactly `length` characters. */
export function filler(length: number): string {
  return FILLER_UNIT.repeat(Math.ceil(length / FILLER_UNIT.length)).slice(0, length);
}

/** Whether a string is filler (a prefix of the repeated filler unit). */
export function isFiller(text: string): boolean {
  return FILLER_UNIT.repeat(Math.ceil(text.length / FILLER_UNIT.length)).startsWith(text);
}

/** Texts that are ours and may stay verbatim. */
export const OWN_TEXTS: ReadonlySet<string> = new Set([...Object.values(AGENT_CLIENT_PROMPTS), RECORDER_TEXT]);

const PROSE_KEYS = new Set(['description', 'instructions', 'system', 'systemInstruction', 'title', 'summary', 'output']);

function readsAsProse(text: string): boolean {
  if (!/\s/.test(text)) return false;
  return text.length >= 20 || text.trim().split(/\s+/).length >= 3;
}

/** A string that holds a JSON object or array (tool arguments, metadata) is sanitized inside, keeping it JSON. */
function embeddedJson(text: string): unknown {
  if (!/^\s*[[{]/.test(text)) return undefined;
  try {
    const parsed = JSON.parse(text) as unknown;
    return typeof parsed === 'object' && parsed !== null ? parsed : undefined;
  } catch {
    return undefined;
  }
}

function sanitizeValue(value: unknown, key: string | undefined, paths: readonly (readonly [string, string])[]): unknown {
  if (typeof value === 'string') {
    if (OWN_TEXTS.has(value)) return value;
    const embedded = embeddedJson(value);
    if (embedded !== undefined) return JSON.stringify(sanitizeValue(embedded, key, paths));
    if ((key !== undefined && PROSE_KEYS.has(key) && (value.length > 12 || /\s/.test(value))) || readsAsProse(value)) return filler(value.length);
    let text = value;
    for (const [from, to] of paths) text = text.split(from).join(to);
    return text;
  }
  if (Array.isArray(value)) return value.map((item) => sanitizeValue(item, key, paths));
  if (typeof value === 'object' && value !== null) {
    return Object.fromEntries(Object.entries(value).map(([name, item]) => [name, sanitizeValue(item, name, paths)]));
  }
  return value;
}

/**
 * The sanitized copy of a recorded request. `machinePaths` (for example the run folder) are replaced by `/run`
 * wherever they survive in a non-prose string (a tool argument, a header).
 */
export function sanitizeCapture(request: RecordedRequest, machinePaths: readonly string[] = []): RecordedRequest {
  const paths = machinePaths.filter((path) => path.length > 0).map((path) => [path, '/run'] as const);
  const replacePaths = (text: string): string => paths.reduce((current, [from, to]) => current.split(from).join(to), text);
  return {
    method: request.method,
    path: request.path,
    query: Object.fromEntries(Object.entries(request.query).map(([name, value]) => [name, replacePaths(value)])),
    headers: Object.fromEntries(Object.entries(request.headers).map(([name, value]) => [name, replacePaths(value)])),
    ...(request.body === undefined ? {} : { body: sanitizeValue(request.body, undefined, paths) }),
  };
}
