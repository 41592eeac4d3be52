import type { AdapterTerminalOutcome, EgressCodecV1, EgressContextV1, EgressFailureV3, EgressHttpResponseV1 } from '@tokenforge/model-protocol';
import { createOpenAiResponsesStreamEncoder } from './encode-client-stream.js';
import {
  openAiResponsesEgressObject,
  openAiResponsesEgressOutput,
  openAiResponsesEgressStatus,
  type OpenAiResponsesEgressOptionsV1,
} from './encode-client-response.js';
import { encodeOpenAiResponsesError } from './encode-client-error.js';
import { OPENAI_RESPONSES_PROTOCOL_FAMILY } from './protocol-family.js';

const encoder = new TextEncoder();

/**
 * A whole Response for a terminal: a completed chat result is a 200 Response object (`completed`, or `incomplete`
 * with `max_output_tokens` / `content_filter` for `length` / `content-filter`; output items by
 * `openAiResponsesEgressOutput`; usage with its details). A failed terminal is the provider error envelope with its
 * status and retry headers; a cancelled one a 499 error; a completed non-chat result cannot be written in this
 * dialect and is a 500 error.
 */
export function encodeOpenAiResponsesResponse(outcome: AdapterTerminalOutcome, context: EgressContextV1, options?: OpenAiResponsesEgressOptionsV1): EgressHttpResponseV1 {
  switch (outcome.status) {
    case 'failed':
      return encodeOpenAiResponsesError({ source: 'provider', failure: outcome.failure });
    case 'cancelled':
      return encodeOpenAiResponsesError({ source: 'engine', code: 'PROTOCOL_ENGINE_ABORTED' });
    case 'completed':
      break;
    default: {
      const unknownOutcome: never = outcome;
      void unknownOutcome;
      return encodeOpenAiResponsesError({ source: 'engine', code: 'internal' });
    }
  }
  if (outcome.result.kind !== 'chat') return encodeOpenAiResponsesError({ source: 'engine', code: 'internal' });
  const { status, incompleteDetails } = openAiResponsesEgressStatus(outcome.finishReason);
  const body = openAiResponsesEgressObject(
    { status, output: openAiResponsesEgressOutput(outcome.result.content, context, options), usage: outcome.usage, incompleteDetails },
    context,
  );
  return { status: 200, headers: { 'content-type': 'application/json' }, body: encoder.encode(JSON.stringify(body)) };
}

/**
 * Creates the `openai-responses/v1` egress codec. Pure: ids and time come from the egress context. With
 * `freeformToolNames` (from the ingress's `clientFreeformToolNames`), calls of those tools are `custom_tool_call`s.
 */
export function createOpenAiResponsesEgressCodec(options?: OpenAiResponsesEgressOptionsV1): EgressCodecV1 {
  return Object.freeze({
    protocolFamily: OPENAI_RESPONSES_PROTOCOL_FAMILY,
    encodeResponse: (outcome: AdapterTerminalOutcome, context: EgressContextV1) => encodeOpenAiResponsesResponse(outcome, context, options),
    createStreamEncoder: (context: EgressContextV1) => createOpenAiResponsesStreamEncoder(context, options),
    encodeError: (failure: EgressFailureV3) => encodeOpenAiResponsesError(failure),
  });
}
