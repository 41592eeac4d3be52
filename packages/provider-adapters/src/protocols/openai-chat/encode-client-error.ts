import type { EgressFailureV3, EgressHttpResponseV1 } from '@tokenforge/model-protocol';
import { createOpenAiErrorEnvelope, type OpenAiErrorObject } from '../openai-common/openai-error-envelope.js';

/** The OpenAI error object this family writes. */
export type OpenAiChatEgressErrorObject = OpenAiErrorObject;

/** Chat Completions names the gateway's own failures with descriptive codes (`upstream_unreachable`, ...). */
const envelope = createOpenAiErrorEnvelope({
  overloaded: 'overloaded',
  timeout: 'timeout',
  unreachable: 'upstream_unreachable',
  upstreamError: 'upstream_error',
  streamTruncated: 'upstream_stream_truncated',
  protocolViolation: 'upstream_protocol_violation',
  internal: 'internal_error',
});

/** The OpenAI error object and HTTP status for a failure. Messages are fixed texts: no provider payload passes. */
export function describeOpenAiChatEgressError(failure: EgressFailureV3): { status: number; error: OpenAiChatEgressErrorObject } {
  return envelope.describe(failure);
}

/** An error response in OpenAI's envelope `{error:{message,type,code,param}}` (`param` names the refused field of an ingress refusal, else `null`), with the retry headers. */
export function encodeOpenAiChatError(failure: EgressFailureV3): EgressHttpResponseV1 {
  return envelope.encode(failure);
}
