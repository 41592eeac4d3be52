/**
 * Prefix of tool call ids this family derives itself. Gemini usually sends no `functionCall.id`; the
 * decoders then derive `gemini-fc-<responseId>-<n>` (or `gemini-fc-<n>` without a response id), `n` counting
 * the response's function calls from 0 in order, and the ingress derives `gemini-fc-req-<content>-<part>`
 * from a call's position in the client request. Derived ids are never sent back to Gemini (request encoder)
 * nor shown to Gemini clients (egress): the wire had no id, and Gemini links results by name.
 */
export const DERIVED_TOOL_CALL_ID_PREFIX = 'gemini-fc-';

const SAFE_RESPONSE_ID = /^[A-Za-z0-9_.:-]{1,256}$/;

/** The id of the `ordinal`-th function call (from 0) of a response that carried no call id. */
export function deriveResponseToolCallId(responseId: string | undefined, ordinal: number): string {
  return responseId !== undefined && SAFE_RESPONSE_ID.test(responseId)
    ? `${DERIVED_TOOL_CALL_ID_PREFIX}${responseId}-${ordinal}`
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
