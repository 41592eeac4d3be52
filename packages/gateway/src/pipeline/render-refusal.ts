import type { EgressCodecV1, EgressContextV1, EgressFailureV3, EgressHttpResponseV1 } from '@tokenforge/model-protocol';
import { clientAuthRefusal, type ErrorShape } from '../http/client-auth-refusal.js';
import { STRUCTURED_OUTPUT_HEADER } from '../dialects/structured-output-header.js';
import { governanceRefusalResponse } from '../governance/wiring/governance-refusal-response.js';
import { egressResponse } from './egress-response.js';
import type { GatewayRefusal } from './gateway-refusal.js';

/** What a refusal is rendered with: the dialect's egress as the request chose it, and the request's facts. */
export interface RefusalRendering {
  readonly egress: EgressCodecV1;
  readonly context: EgressContextV1;
  /** The envelope of a client-key refusal. */
  readonly errorShape: ErrorShape;
  readonly requestId: string;
  /** How the latest attempt carried a JSON-schema request (sent back as its header). */
  readonly structuredOutput?: string | undefined;
}

function retryAfterHeader(failure: EgressFailureV3, answer: EgressHttpResponseV1): Record<string, string> {
  if (failure.source !== 'provider' || failure.failure.retryAfterMs === undefined || answer.headers['retry-after'] !== undefined) return {};
  return { 'retry-after': String(Math.ceil(failure.failure.retryAfterMs / 1000)) };
}

/** A refusal as the client's dialect answers it, with `x-request-id`, `retry-after` and the structured-output header. */
export function renderRefusal(refusal: GatewayRefusal, rendering: RefusalRendering): Response {
  if (refusal.kind === 'client-key') return clientAuthRefusal(rendering.errorShape, rendering.requestId);
  if (refusal.kind === 'governance') return governanceRefusalResponse(rendering.errorShape, refusal, rendering.requestId, refusal.headers);
  const answer = rendering.egress.encodeError(refusal.failure, rendering.context);
  return egressResponse(answer, {
    ...refusal.headers,
    'x-request-id': rendering.requestId,
    ...retryAfterHeader(refusal.failure, answer),
    ...(rendering.structuredOutput === undefined ? {} : { [STRUCTURED_OUTPUT_HEADER]: rendering.structuredOutput }),
  });
}
