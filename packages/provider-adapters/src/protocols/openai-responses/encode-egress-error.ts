import type { CodecErrorCodeV1, EgressFailureV1, EgressHttpResponseV1, ProviderFailureCodeV1 } from '@tokenforge/model-protocol';

/** The OpenAI error object this family writes (`param` is always `null`: no client field is named). */
export interface OpenAiResponsesEgressErrorObject {
  readonly message: string;
  readonly type: string;
  readonly code: string;
  readonly param: null;
}

interface ErrorShape {
  readonly status: number;
  readonly type: string;
  readonly code: string;
  readonly message: string;
}

/**
 * Provider failures as a client of this dialect sees them. Where the Responses `ResponseError.code` enum has a
 * matching value (`rate_limit_exceeded`, `server_error`, `vector_store_timeout`) it is used, so the code of a
 * streamed `response.failed` is one the SDK knows. Failures of the upstream's credentials or permissions are the
 * host's, not the client's: they are 502 so the client does not think its own key was refused.
 */
const PROVIDER_ERRORS: Readonly<Record<ProviderFailureCodeV1, ErrorShape>> = {
  'rate-limited': { status: 429, type: 'rate_limit_error', code: 'rate_limit_exceeded', message: 'The upstream rate limit was reached.' },
  'quota-exceeded': { status: 429, type: 'insufficient_quota', code: 'insufficient_quota', message: 'The upstream quota is exhausted.' },
  overloaded: { status: 503, type: 'server_error', code: 'server_error', message: 'The upstream service is overloaded.' },
  'context-length-exceeded': {
    status: 400,
    type: 'invalid_request_error',
    code: 'context_length_exceeded',
    message: 'The request exceeds the context length of the model.',
  },
  'content-filtered': { status: 400, type: 'invalid_request_error', code: 'content_filter', message: 'The request was blocked by a content filter.' },
  'invalid-request': { status: 400, type: 'invalid_request_error', code: 'invalid_request', message: 'The upstream service refused the request as invalid.' },
  authentication: { status: 502, type: 'upstream_error', code: 'upstream_authentication_failed', message: 'The upstream service refused the gateway credentials.' },
  'permission-denied': { status: 502, type: 'upstream_error', code: 'upstream_permission_denied', message: 'The upstream service denied permission.' },
  'not-found': { status: 404, type: 'invalid_request_error', code: 'model_not_found', message: 'The upstream service does not know the requested model or resource.' },
  unsupported: { status: 400, type: 'invalid_request_error', code: 'unsupported_feature', message: 'The request uses a feature the selected model cannot serve.' },
  conflict: { status: 409, type: 'invalid_request_error', code: 'conflict', message: 'The request conflicts with the upstream state.' },
  timeout: { status: 504, type: 'server_error', code: 'vector_store_timeout', message: 'The upstream service timed out.' },
  network: { status: 502, type: 'server_error', code: 'server_error', message: 'The upstream service could not be reached.' },
  'provider-error': { status: 502, type: 'server_error', code: 'server_error', message: 'The upstream service failed.' },
  'truncated-stream': { status: 502, type: 'server_error', code: 'server_error', message: 'The upstream response ended early.' },
  'protocol-violation': { status: 502, type: 'server_error', code: 'server_error', message: 'The upstream response was malformed.' },
};

const INGRESS_STATUS: Readonly<Partial<Record<CodecErrorCodeV1, number>>> = { 'body-too-large': 413, 'frame-too-large': 413 };

const ENGINE_ERRORS: Readonly<Record<string, ErrorShape>> = {
  PROTOCOL_ENGINE_INPUT_INVALID: { status: 400, type: 'invalid_request_error', code: 'invalid_request', message: 'The request is invalid.' },
  PROTOCOL_ENGINE_TARGET_TASK_MISMATCH: { status: 400, type: 'invalid_request_error', code: 'unsupported_task', message: 'The model does not serve this kind of request.' },
  PROTOCOL_ENGINE_CAPABILITY_UNSUPPORTED: { status: 400, type: 'invalid_request_error', code: 'unsupported_feature', message: 'The request uses a feature the selected model cannot serve.' },
  PROTOCOL_ENGINE_TRANSPORT_FAILED: { status: 502, type: 'server_error', code: 'server_error', message: 'The upstream service could not be reached.' },
  PROTOCOL_ENGINE_ADAPTER_OUTPUT_INVALID: { status: 502, type: 'server_error', code: 'server_error', message: 'The upstream response was malformed.' },
  // 499 (client closed request) is the status gateways use for a cancelled request.
  PROTOCOL_ENGINE_ABORTED: { status: 499, type: 'request_cancelled', code: 'request_cancelled', message: 'The request was cancelled.' },
};

const INTERNAL: ErrorShape = { status: 500, type: 'server_error', code: 'server_error', message: 'The gateway failed to process the request.' };

function shapeOf(failure: EgressFailureV1): ErrorShape {
  switch (failure.source) {
    case 'provider':
      return PROVIDER_ERRORS[failure.failure.code] ?? INTERNAL;
    case 'ingress':
      return {
        status: INGRESS_STATUS[failure.code] ?? 400,
        type: 'invalid_request_error',
        code: failure.code.replaceAll('-', '_'),
        message: `The request could not be accepted (${failure.code}).`,
      };
    case 'engine':
      return ENGINE_ERRORS[failure.code] ?? INTERNAL;
    default: {
      const unknownFailure: never = failure;
      void unknownFailure;
      return INTERNAL;
    }
  }
}

/** The OpenAI error object and HTTP status for a failure. Messages are fixed texts: no provider payload passes. */
export function describeOpenAiResponsesEgressError(failure: EgressFailureV1): { status: number; error: OpenAiResponsesEgressErrorObject } {
  const shape = shapeOf(failure);
  return { status: shape.status, error: { message: shape.message, type: shape.type, code: shape.code, param: null } };
}

const encoder = new TextEncoder();

/**
 * An error response in OpenAI's envelope `{error:{message,type,code,param:null}}` (§2.9: the same as Chat
 * Completions). For provider failures the headers carry `retry-after` (whole seconds, rounded up) and
 * `retry-after-ms` when the provider gave a wait, and `x-should-retry` from `retryable` (the official SDK honours it).
 */
export function encodeOpenAiResponsesError(failure: EgressFailureV1): EgressHttpResponseV1 {
  const { status, error } = describeOpenAiResponsesEgressError(failure);
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (failure.source === 'provider') {
    headers['x-should-retry'] = failure.failure.retryable ? 'true' : 'false';
    const wait = failure.failure.retryAfterMs;
    if (wait !== undefined) {
      headers['retry-after'] = String(Math.ceil(wait / 1000));
      headers['retry-after-ms'] = String(wait);
    }
  }
  return { status, headers, body: encoder.encode(JSON.stringify({ error })) };
}
