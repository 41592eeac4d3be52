import type { EgressCodecV1, EgressContextV1, EgressFailureV3 } from '@tokenforge/model-protocol';
import { parseSafeJson } from '@tokenforge/provider-adapters';

/**
 * The error event of the Responses WebSocket: `{type: "error", status, error: {type, code, message, param}}`.
 * Codex reads `status` (a non-2xx status is the HTTP error it would have had over HTTP) and `error.code`
 * (`previous_response_not_found` makes it resend the whole conversation), codex-rs
 * `codex-api/src/endpoint/responses_websocket.rs`, `map_wrapped_websocket_error_event`.
 */
export interface ResponsesWebSocketErrorEvent {
  readonly type: 'error';
  /** The HTTP status the same refusal has over HTTP. */
  readonly status: number;
  /** The OpenAI error object, as the HTTP answer's `error`. */
  readonly error: { readonly type: string; readonly code: string | null; readonly message: string; readonly param: string | null };
  /** `retry-after` and `x-request-id` of the refusal, when it had them. */
  readonly headers?: Readonly<Record<string, string>>;
}

/** Codes of refusals that only the WebSocket transport has (each with its fixed message). */
export const WEBSOCKET_PROTOCOL_ERRORS = {
  previous_response_not_found: { status: 400, message: 'Previous response was not found. Send the whole conversation.', param: 'previous_response_id' },
  conversation_already_has_active_response: { status: 400, message: 'A response is already in progress on this connection; wait for its terminal event.', param: null },
  unknown_message_type: { status: 400, message: 'The message type is not one this endpoint accepts (response.create).', param: 'type' },
  binary_message: { status: 400, message: 'Messages must be JSON text frames.', param: null },
} as const;

/** A WebSocket-only refusal code. */
export type WebSocketProtocolErrorCode = keyof typeof WEBSOCKET_PROTOCOL_ERRORS;

/** A refusal that only the WebSocket transport has, in the dialect's error object. */
export function protocolErrorEvent(code: WebSocketProtocolErrorCode): ResponsesWebSocketErrorEvent {
  const { status, message, param } = WEBSOCKET_PROTOCOL_ERRORS[code];
  return { type: 'error', status, error: { type: 'invalid_request_error', code, message, param } };
}

const PASSED_HEADERS = ['retry-after', 'x-request-id', 'x-should-retry'] as const;

/**
 * The error event of an answer the gateway gave as a whole JSON error (a refusal of any stage): its status,
 * its `error` object unchanged, and its retry headers.
 */
export function errorEventFromAnswer(status: number, headers: Headers, bodyText: string): ResponsesWebSocketErrorEvent {
  let error: ResponsesWebSocketErrorEvent['error'] = { type: 'server_error', code: 'gateway_error', message: 'The gateway failed to serve this request.', param: null };
  try {
    const body = parseSafeJson(bodyText) as { error?: ResponsesWebSocketErrorEvent['error'] } | null;
    if (typeof body?.error === 'object' && body.error !== null) error = body.error;
  } catch {
    // A body that is not the dialect's JSON envelope keeps the generic error above.
  }
  const passed: Record<string, string> = {};
  for (const name of PASSED_HEADERS) {
    const value = headers.get(name);
    if (value !== null) passed[name] = value;
  }
  return { type: 'error', status, error, ...(Object.keys(passed).length === 0 ? {} : { headers: passed }) };
}

/** The error event of a failure the dialect's egress encodes (a refused message before it reaches the stages). */
export function egressErrorEvent(egress: EgressCodecV1, failure: EgressFailureV3, context: EgressContextV1): ResponsesWebSocketErrorEvent {
  const answer = egress.encodeError(failure, context);
  return errorEventFromAnswer(answer.status, new Headers(answer.headers), new TextDecoder().decode(answer.body));
}
