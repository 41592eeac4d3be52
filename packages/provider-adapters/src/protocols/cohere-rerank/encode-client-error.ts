import type { CodecErrorCodeV1, EgressFailureV3, EgressHttpResponseV1, ProviderFailureCodeV3 } from '@tokenforge/model-protocol';
import { forEngineCapabilityRefusals, forGatewayRefusals, type GatewayRefusalKind } from '../../codec-kit/index.js';

interface ErrorShape {
  readonly status: number;
  readonly message: string;
}

/**
 * Provider failures as a Cohere client sees them. Failures of the upstream's credentials or permissions are the
 * host's, not the client's: 502, so the client does not think its own key was refused. Upstream breakage is 502,
 * timeouts 504.
 */
const PROVIDER_ERRORS: Readonly<Record<ProviderFailureCodeV3, ErrorShape>> = {
  'rate-limited': { status: 429, message: 'The upstream rate limit was reached.' },
  'quota-exceeded': { status: 429, message: 'The upstream quota is exhausted.' },
  overloaded: { status: 503, message: 'The upstream service is overloaded.' },
  'context-length-exceeded': { status: 400, message: 'The request exceeds the context length of the model.' },
  'content-filtered': { status: 400, message: 'The request was blocked by a content filter.' },
  'invalid-request': { status: 400, message: 'The upstream service refused the request as invalid.' },
  authentication: { status: 502, message: 'The upstream service refused the gateway credentials.' },
  'permission-denied': { status: 502, message: 'The upstream service denied permission.' },
  'not-found': { status: 404, message: 'The upstream service does not know the requested model or resource.' },
  unsupported: { status: 400, message: 'The request uses a feature the selected model cannot serve.' },
  conflict: { status: 409, message: 'The request conflicts with the upstream state.' },
  timeout: { status: 504, message: 'The upstream service timed out.' },
  network: { status: 502, message: 'The upstream service could not be reached.' },
  'provider-error': { status: 502, message: 'The upstream service failed.' },
  'truncated-stream': { status: 502, message: 'The upstream response ended early.' },
  'protocol-violation': { status: 502, message: 'The upstream response was malformed.' },
  'output-schema-mismatch': { status: 502, message: 'The model output did not match the requested schema.' },
};

const INGRESS_STATUS: Readonly<Partial<Record<CodecErrorCodeV1, number>>> = { 'body-too-large': 413, 'frame-too-large': 413, 'unsupported-feature': 422 };

const GATEWAY_STATUS: Readonly<Record<GatewayRefusalKind, number>> = { 'request-timeout': 408, busy: 429, 'unknown-model': 404, unavailable: 503 };

const ENGINE_ERRORS: Readonly<Record<string, ErrorShape>> = {
  PROTOCOL_ENGINE_INPUT_INVALID: { status: 400, message: 'The request is invalid.' },
  PROTOCOL_ENGINE_TARGET_TASK_MISMATCH: { status: 400, message: 'The model does not serve this kind of request.' },
  ...forEngineCapabilityRefusals<ErrorShape>({ status: 400, message: 'The request uses a feature the selected model cannot serve.' }),
  PROTOCOL_ENGINE_TRANSPORT_FAILED: { status: 502, message: 'The upstream service could not be reached.' },
  PROTOCOL_ENGINE_PROVIDER_FAILED: { status: 502, message: 'The upstream service failed.' },
  PROTOCOL_ENGINE_ADAPTER_OUTPUT_INVALID: { status: 502, message: 'The upstream response was malformed.' },
  // Cohere's own status for a request the client cancelled.
  PROTOCOL_ENGINE_ABORTED: { status: 499, message: 'The request was cancelled.' },
  ...forGatewayRefusals<ErrorShape>(({ kind, message }) => ({ status: GATEWAY_STATUS[kind], message })),
};

const INTERNAL: ErrorShape = { status: 500, message: 'The gateway failed to process the request.' };

function shapeOf(failure: EgressFailureV3): ErrorShape {
  switch (failure.source) {
    case 'provider':
      return PROVIDER_ERRORS[failure.failure.code] ?? INTERNAL;
    case 'ingress':
      return { status: INGRESS_STATUS[failure.code] ?? 400, message: `The request could not be accepted (${failure.code}).` };
    case 'engine':
      return ENGINE_ERRORS[failure.code] ?? INTERNAL;
    default: {
      const unknownFailure: never = failure;
      void unknownFailure;
      return INTERNAL;
    }
  }
}

const encoder = new TextEncoder();

/**
 * An error response in Cohere's envelope `{id, message}` with its status. Messages are fixed texts: no provider
 * payload passes. For provider failures with a wait, `retry-after` carries it in whole seconds, rounded up.
 */
export function encodeCohereRerankError(failure: EgressFailureV3, responseId: string): EgressHttpResponseV1 {
  const { status, message } = shapeOf(failure);
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (failure.source === 'provider' && failure.failure.retryAfterMs !== undefined) {
    headers['retry-after'] = String(Math.ceil(failure.failure.retryAfterMs / 1000));
  }
  return { status, headers, body: encoder.encode(JSON.stringify({ id: responseId, message })) };
}
