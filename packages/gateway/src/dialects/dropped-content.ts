/**
 * The response header that names the kinds of conversation content the gateway left out for the target, because
 * they are opaque state only the family that produced them can read (`compaction`, `reasoning` for a stored
 * reasoning item, `redacted-reasoning`): comma-separated, like the dropped-tools header.
 */
export const DROPPED_CONTENT_HEADER = 'x-tokenforge-dropped-content';
