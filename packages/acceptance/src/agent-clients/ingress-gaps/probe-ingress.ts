/**
 * Runs a captured client request through the current ingress codec of its dialect (from the builtin suite, through
 * the public API) and reports what happened. A refusal is what the client sees; to list the further gaps behind it,
 * the refused field is removed and the request decoded again, up to a limit (a work-list aid: the client never
 * gets that far).
 */
import { isCodecErrorV1, type ProtocolFamily } from '@tokenforge/model-protocol';
import { createBuiltinTokenForgeProtocolSuiteV1 } from '@tokenforge/provider-adapters';
import type { RecordedRequest } from '../recorder/request-recorder.js';

/** One refusal: the codec error's code, its JSON path and its message (which never carries a value). */
export interface IngressRefusal {
  readonly code: string;
  readonly path: string;
  readonly message: string;
}

/** The outcome of one captured request. */
export type IngressProbe =
  | { readonly outcome: 'no-ingress'; readonly reason: string }
  | { readonly outcome: 'decoded'; readonly family: ProtocolFamily; readonly taskKind: string; readonly stream: boolean; readonly body: unknown }
  | {
      readonly outcome: 'refused';
      readonly family: ProtocolFamily;
      readonly refusals: readonly IngressRefusal[];
      readonly decodesAfterRemoval: boolean;
      /** The body with the refused fields removed, when that decodes. */
      readonly body?: unknown;
    };

/** The chat dialect a request path belongs to; the requests a dialect's ingress does not take are undefined. */
export function familyOfPath(method: string, path: string): ProtocolFamily | undefined {
  if (method !== 'POST') return undefined;
  if (/\/v1\/messages$/.test(path)) return 'anthropic-messages/v1' as ProtocolFamily;
  if (/\/v1\/responses$/.test(path)) return 'openai-responses/v1' as ProtocolFamily;
  if (/\/v1\/chat\/completions$/.test(path)) return 'openai-chat/v1' as ProtocolFamily;
  if (/\/models\/[^/]+:(streamGenerateContent|generateContent)$/.test(path)) return 'gemini-generate-content/v1' as ProtocolFamily;
  return undefined;
}

const MAX_REMOVALS = 24;
const suite = createBuiltinTokenForgeProtocolSuiteV1();

function removeAt(root: unknown, path: string): boolean {
  const keys = path.split('.').filter((key) => key.length > 0);
  if (keys.length === 0) return false;
  let node: unknown = root;
  for (const key of keys.slice(0, -1)) {
    if (typeof node !== 'object' || node === null) return false;
    node = (node as Record<string, unknown>)[key];
  }
  const last = keys[keys.length - 1] as string;
  if (Array.isArray(node)) {
    const index = Number(last);
    if (!Number.isInteger(index) || index < 0 || index >= node.length) return false;
    node.splice(index, 1);
    return true;
  }
  if (typeof node !== 'object' || node === null || !(last in node)) return false;
  delete (node as Record<string, unknown>)[last];
  return true;
}

const parentOf = (path: string): string => path.split('.').slice(0, -1).join('.');

/** Probes one captured request. */
export function probeIngress(request: RecordedRequest): IngressProbe {
  const family = familyOfPath(request.method, request.path);
  if (family === undefined) return { outcome: 'no-ingress', reason: `${request.method} ${request.path} is not a chat ingress route` };
  const codecs = suite.codecsFor(family);
  if (codecs === undefined) return { outcome: 'no-ingress', reason: `${family} has no ingress codec` };
  const body: unknown = structuredClone(request.body);
  const refusals: IngressRefusal[] = [];
  for (let attempt = 0; attempt <= MAX_REMOVALS; attempt += 1) {
    try {
      const decoded = codecs.ingress.decodeRequest({ path: request.path, query: request.query, body: new TextEncoder().encode(JSON.stringify(body)) });
      if (refusals.length === 0) return { outcome: 'decoded', family, taskKind: decoded.task.kind, stream: 'stream' in decoded.task && decoded.task.stream === true, body };
      return { outcome: 'refused', family, refusals, decodesAfterRemoval: true, body };
    } catch (error) {
      if (!isCodecErrorV1(error)) throw error;
      const path = error.path ?? '';
      const previous = refusals[refusals.length - 1];
      refusals.push({ code: error.code, path, message: error.message });
      // A refused `type` or `role` refuses the whole item; the same path twice in a row (a required field that was
      // removed) or a path that is not there any more: remove the parent instead.
      const last = path.split('.').pop() ?? '';
      let target = last === 'type' || last === 'role' || (previous !== undefined && previous.path === path) ? parentOf(path) : path;
      if (target !== '' && !removeAt(body, target)) {
        target = parentOf(target);
        if (target === '' || !removeAt(body, target)) break;
      } else if (target === '') break;
    }
  }
  return { outcome: 'refused', family, refusals, decodesAfterRemoval: false };
}
