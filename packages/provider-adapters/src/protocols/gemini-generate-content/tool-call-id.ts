/**
 * Prefix of tool call ids this family derives itself. Gemini usually sends no `functionCall.id`; the
 * decoders then derive `gemini-fc-<fingerprint>-<n>` (or `gemini-fc-<n>` without a response id), where the
 * fingerprint is an 8-hex-digit FNV-1a hash of the response id (unique across turns without showing the provider's
 * id to clients) and `n` counts the response's function calls from 0 in order, and the ingress derives `gemini-fc-req-<content>-<part>`
 * from a call's position in the client request. Derived ids are never sent back to Gemini (request encoder)
 * nor shown to Gemini clients (egress): the wire had no id, and Gemini links results by name.
 */
export const DERIVED_TOOL_CALL_ID_PREFIX = 'gemini-fc-';

const SAFE_RESPONSE_ID = /^[A-Za-z0-9_.:-]{1,256}$/;

/** The id of the `ordinal`-th function call (from 0) of a response that carried no call id. */
export function deriveResponseToolCallId(responseId: string | undefined, ordinal: number): string {
  return responseId !== undefined && SAFE_RESPONSE_ID.test(responseId)
    ? `${DERIVED_TOOL_CALL_ID_PREFIX}${fingerprint(responseId)}-${ordinal}`
    : `${DERIVED_TOOL_CALL_ID_PREFIX}${ordinal}`;
}

/** The id of a function call without id at `contents[contentIndex].parts[partIndex]` of a client request. */
export function deriveRequestToolCallId(contentIndex: number, partIndex: number): string {
  return `${DERIVED_TOOL_CALL_ID_PREFIX}req-${contentIndex}-${partIndex}`;
}

/** Whether an id was derived by this family (and so must not go on the Gemini wire). */
export function isDerivedToolCallId(toolCallId: string): boolean {
  return toolCallId.startsWith(DERIVED_TOOL_CALL_ID_PREFIX);
}

/** 32-bit FNV-1a of a string's UTF-16 code units, as 8 lower-case hex digits. Not a secret: only hides the id. */
function fingerprint(value: string): string {
  let hash = 0x811c9dc5;
  for (let index = 0; index < value.length; index += 1) {
    hash ^= value.charCodeAt(index);
    hash = Math.imul(hash, 0x01000193);
  }
  return (hash >>> 0).toString(16).padStart(8, '0');
}
