import type { EgressFailureV3, EgressHttpResponseV1 } from '@tokenforge/model-protocol';
import { createOpenAiErrorEnvelope, type OpenAiErrorObject } from '../openai-common/openai-error-envelope.js';

/** The OpenAI error object this family writes. */
export type OpenAiResponsesEgressErrorObject = OpenAiErrorObject;

/**
 * Where the Responses `ResponseError.code` enum has a matching value (`server_error`, `vector_store_timeout`) it is
 * used, so the code of a streamed `response.failed` is one the SDK knows.
 */
const envelope = createOpenAiErrorEnvelope({
  overloaded: 'server_error',
  timeout: 'vector_store_timeout',
  unreachable: 'server_error',
  upstreamError: 'server_error',
  streamTruncated: 'server_error',
  protocolViolation: 'server_error',
  internal: 'server_error',
});

/** The OpenAI error object and HTTP status for a failure. Messages are fixed texts: no provider payload passes. */
export function describeOpenAiResponsesEgressError(failure: EgressFailureV3): { status: number; error: OpenAiResponsesEgressErrorObject } {
  return envelope.describe(failure);
}

/**
 * An error response in OpenAI's envelope `{error:{message,type,code,param}}` (`param` names the refused field of an ingress refusal, else `null`) (§2.9: the same as Chat
 * Completions), with the retry headers.
 */
export function encodeOpenAiResponsesError(failure: EgressFailureV3): EgressHttpResponseV1 {
  return envelope.encode(failure);
}
