import type { IngressDecodedRequestV1 } from '@tokenforge/model-protocol';

/** The response header that names the hosted tools the gateway dropped from a request's offered tools. */
export const DROPPED_TOOLS_HEADER = 'x-tokenforge-dropped-tools';

/** Hosted tools an ingress reported as dropped (a decoded request may carry `droppedHostedTools`). */
export function droppedHostedTools(decoded: IngressDecodedRequestV1): readonly string[] | undefined {
  if (!('droppedHostedTools' in decoded) || !Array.isArray(decoded.droppedHostedTools) || decoded.droppedHostedTools.length === 0) return undefined;
  return [...new Set(decoded.droppedHostedTools.filter((entry): entry is string => typeof entry === 'string'))];
}

/** The client's names of the task's hosted tools, parallel to `task.hostedTools` (a decoded request may carry `hostedToolNames`). */
export function hostedToolNames(decoded: IngressDecodedRequestV1): readonly string[] | undefined {
  if (!('hostedToolNames' in decoded) || !Array.isArray(decoded.hostedToolNames)) return undefined;
  return decoded.hostedToolNames.map((entry) => (typeof entry === 'string' ? entry : 'hosted-tool'));
}

/** The names in `first` and then those of `second` not in it; `first` itself when `second` is empty. */
export function mergeNames(first: readonly string[] | undefined, second: readonly string[]): readonly string[] | undefined {
  if (second.length === 0) return first;
  return [...new Set([...(first ?? []), ...second])];
}
