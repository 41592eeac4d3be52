/**
 * The response header that names the kinds of content the gateway left out across dialects, because they are opaque
 * state only the family that produced them can read (`compaction`, `reasoning` for a stored reasoning item,
 * `redacted-reasoning`; in history, or `compaction` in a sync answer) or would make the target produce such state
 * (`compaction-trigger`): comma-separated, like the dropped-tools header. The request's operator log line names the
 * same kinds (`droppedContent`), also those found in a stream after its headers went out.
 */
export const DROPPED_CONTENT_HEADER = 'x-tokenforge-dropped-content';

/** The prefix of the response ids the gateway gives its answers (`gw-<request id>`). */
export const GATEWAY_RESPONSE_ID_PREFIX = 'gw-';

/**
 * Whether an item id is one the gateway wrote: the egress names an answer's items `<kind>_<response id>_<index>`, so
 * such an id refers to nothing a provider stored (a reasoning item sent back with only that id is left out).
 */
export function isGatewayItemId(id: string): boolean {
  const separator = id.indexOf('_');
  return separator > 0 && id.startsWith(GATEWAY_RESPONSE_ID_PREFIX, separator + 1);
}
