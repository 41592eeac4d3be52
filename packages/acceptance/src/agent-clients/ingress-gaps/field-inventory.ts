/**
 * The request fields each dialect's clients send, as generalized JSON paths (`messages.*.content.*.type`) with the
 * values of keyword fields: the checklist of what a same-dialect request must keep. Paths inside JSON schemas (tool
 * parameters, response schemas) are not listed: they are the clients' data, not request fields.
 */
import type { AgentClientCapture } from '../capture/agent-client-capture.js';
import { familyOfPath } from './probe-ingress.js';

const SCHEMA_KEYS = new Set(['input_schema', 'parameters', 'parametersJsonSchema', 'parameters_json_schema', 'responseJsonSchema', 'responseSchema', 'schema', 'properties']);
const KEYWORD_KEYS = new Set(['type', 'role', 'effort', 'summary', 'verbosity', 'display', 'context', 'thinkingLevel', 'tool_choice', 'include', 'store', 'parallel_tool_calls', 'stream', 'reasoning_effort', 'mode', 'syntax', 'includeThoughts', 'responseMimeType', 'include_usage', 'ttl', 'defer_loading', 'eager_input_streaming', 'strict', 'keep']);
/** Headers whose comma-separated values are listed (feature flags). */
const LISTED_HEADERS = new Set(['anthropic-beta', 'anthropic-version', 'openai-beta', 'x-codex-beta-features', 'originator']);
const STANDARD_HEADERS = new Set(['host', 'connection', 'content-length', 'content-type', 'accept', 'accept-encoding', 'accept-language', 'user-agent', 'sec-fetch-mode']);

/** One field: its path, the clients that sent it, and the keyword values seen. */
export interface InventoryField {
  readonly path: string;
  readonly clients: ReadonlySet<string>;
  readonly values: ReadonlySet<string>;
}

function walk(value: unknown, path: string, key: string | undefined, visit: (path: string, key: string | undefined, value: unknown) => void): void {
  visit(path, key, value);
  if (key !== undefined && SCHEMA_KEYS.has(key)) return;
  if (Array.isArray(value)) for (const item of value) walk(item, `${path}.*`, key, visit);
  else if (typeof value === 'object' && value !== null) for (const [name, item] of Object.entries(value)) walk(item, path === '' ? name : `${path}.${name}`, name, visit);
}

/** Family -> fields (sorted by path); headers appear as `header:<name>`. */
export function inventoryFields(captures: readonly AgentClientCapture[]): Map<string, InventoryField[]> {
  const byFamily = new Map<string, Map<string, { clients: Set<string>; values: Set<string> }>>();
  for (const capture of captures) {
    for (const request of capture.requests) {
      const family = familyOfPath(request.method, request.path);
      if (family === undefined) continue;
      const fields = byFamily.get(family) ?? new Map<string, { clients: Set<string>; values: Set<string> }>();
      byFamily.set(family, fields);
      const note = (path: string, value?: string): void => {
        const field = fields.get(path) ?? { clients: new Set<string>(), values: new Set<string>() };
        field.clients.add(capture.client);
        if (value !== undefined) field.values.add(value);
        fields.set(path, field);
      };
      for (const [name, value] of Object.entries(request.headers)) {
        if (STANDARD_HEADERS.has(name) || name.startsWith('x-stainless-')) continue;
        note(`header:${name}`);
        if (LISTED_HEADERS.has(name)) for (const item of value.split(',')) note(`header:${name}`, item.trim());
      }
      walk(request.body, '', undefined, (path, key, value) => {
        if (path === '' || path.endsWith('.*')) return;
        const keyword = key !== undefined && KEYWORD_KEYS.has(key);
        const scalar = typeof value === 'string' || typeof value === 'boolean' || typeof value === 'number';
        note(path, keyword && scalar ? String(value) : undefined);
        if (keyword && Array.isArray(value)) for (const item of value) if (typeof item === 'string') note(path, item);
      });
    }
  }
  return new Map(
    [...byFamily.entries()].sort(([left], [right]) => left.localeCompare(right)).map(([family, fields]) => [family, [...fields.entries()].map(([path, field]) => ({ path, ...field })).sort((left, right) => left.path.localeCompare(right.path))]),
  );
}
