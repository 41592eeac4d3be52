import type {
  AdapterTerminalOutcome,
  EgressContextV1,
  EgressCodecV1,
  EgressFailureV3,
  EgressHttpResponseV1,
} from '@tokenforge/model-protocol';
import { ANTHROPIC_MESSAGES_PROTOCOL_FAMILY } from './protocol-family.js';
import { ANTHROPIC_CANCELLED_ERROR, mapAnthropicEgressError, type AnthropicEgressError } from './encode-client-error.js';
import { encodeAnthropicEgressMessage } from './encode-client-response.js';
import { createAnthropicMessagesStreamEncoder } from './encode-client-stream.js';

const encoder = new TextEncoder();

function errorResponse(error: AnthropicEgressError, context: EgressContextV1): EgressHttpResponseV1 {
  const body = { type: 'error', error: { type: error.type, message: error.message }, request_id: context.responseId };
  return {
    status: error.status,
    headers: {
      'content-type': 'application/json',
      'request-id': context.responseId,
      ...(error.retryAfterSeconds === undefined ? {} : { 'retry-after': String(error.retryAfterSeconds) }),
    },
    body: encoder.encode(JSON.stringify(body)),
  };
}

/**
 * Writes a terminal as an Anthropic response: a completed chat terminal is a 200 Message (see
 * `encodeAnthropicEgressMessage`: id and model from the egress context, `stop_sequence: null` since the
 * matched sequence is not carried, usage in Anthropic arithmetic); a failed terminal is the error envelope of
 * `mapAnthropicEgressError`; a cancelled one a 499 `api_error`; a completed terminal of another task kind a
 * 500 `api_error` (a host wiring mistake).
 */
export function encodeAnthropicMessagesResponse(outcome: AdapterTerminalOutcome, context: EgressContextV1): EgressHttpResponseV1 {
  switch (outcome.status) {
    case 'completed': {
      if (outcome.result.kind !== 'chat') {
        return errorResponse({ status: 500, type: 'api_error', message: 'The gateway failed to process the request.' }, context);
      }
      const message = encodeAnthropicEgressMessage(outcome.result.content, outcome.finishReason, outcome.usage, context);
      return {
        status: 200,
        headers: { 'content-type': 'application/json', 'request-id': context.responseId },
        body: encoder.encode(JSON.stringify(message)),
      };
    }
    case 'failed':
      return errorResponse(mapAnthropicEgressError({ source: 'provider', failure: outcome.failure }), context);
    case 'cancelled':
      return errorResponse(ANTHROPIC_CANCELLED_ERROR, context);
    default: {
      const unknownOutcome: never = outcome;
      void unknownOutcome;
      return errorResponse({ status: 500, type: 'api_error', message: 'The gateway failed to process the request.' }, context);
    }
  }
}

/** Writes any failure as an Anthropic error envelope with its status and `retry-after` (see `mapAnthropicEgressError`). */
export function encodeAnthropicMessagesError(failure: EgressFailureV3, context: EgressContextV1): EgressHttpResponseV1 {
  return errorResponse(mapAnthropicEgressError(failure), context);
}

/** Creates the `anthropic-messages/v1` egress codec. */
export function createAnthropicMessagesEgressCodec(): EgressCodecV1 {
  return Object.freeze({
    protocolFamily: ANTHROPIC_MESSAGES_PROTOCOL_FAMILY,
    encodeResponse: encodeAnthropicMessagesResponse,
    createStreamEncoder: (context: EgressContextV1) => createAnthropicMessagesStreamEncoder(context),
    encodeError: encodeAnthropicMessagesError,
  });
}
