import type { CodecErrorCodeV1, EgressFailureV3, EgressHttpResponseV1, ProviderFailureCodeV3 } from '@tokenforge/model-protocol';
import { forEngineCapabilityRefusals, forGatewayRefusals, type GatewayRefusalKind } from '../../codec-kit/index.js';

/** The OpenAI error object a dialect writes. */
export interface OpenAiErrorObject {
  readonly message: string;
  readonly type: string;
  readonly code: string;
  /** The refused field of the client's request for an ingress refusal that names one, else `null`. */
  readonly param: string | null;
}

/** Longest `param` written; an ingress path is the client's own field names, bounded so an echo stays small. */
const PARAM_MAX_LENGTH = 256;

/**
 * The `error.code` values in which the OpenAI dialects differ; status, type and message are the same in both.
 * Chat Completions writes descriptive gateway codes; Responses uses its `ResponseError.code` enum so the SDK
 * knows the code of a streamed `response.failed`.
 */
export interface OpenAiErrorDialectCodes {
  /** Provider `overloaded` (503). */
  readonly overloaded: string;
  /** Provider `timeout` (504). */
  readonly timeout: string;
  /** Provider `network` and engine `PROTOCOL_ENGINE_TRANSPORT_FAILED` (502). */
  readonly unreachable: string;
  /** Provider `provider-error` (502). */
  readonly upstreamError: string;
  /** Provider `truncated-stream` (502). */
  readonly streamTruncated: string;
  /** Provider `protocol-violation` and engine `PROTOCOL_ENGINE_ADAPTER_OUTPUT_INVALID` (502). */
  readonly protocolViolation: string;
  /** Anything the tables do not know (500). */
  readonly internal: string;
}

/** The error envelope of one OpenAI dialect. */
export interface OpenAiErrorEnvelope {
  /** The OpenAI error object and HTTP status for a failure. Messages are fixed texts: no provider payload passes. */
  describe(failure: EgressFailureV3): { status: number; error: OpenAiErrorObject };
  /**
   * An error response in OpenAI's envelope `{error:{message,type,code,param}}`. For provider failures the
   * headers carry `retry-after` (whole seconds, rounded up) and `retry-after-ms` when the provider gave a wait,
   * and `x-should-retry` from `retryable` (the official SDK honours it before its own status rules).
   */
  encode(failure: EgressFailureV3): EgressHttpResponseV1;
}

interface ErrorShape {
  readonly status: number;
  readonly type: string;
  readonly code: string;
  readonly message: string;
}

/**
 * Provider failures as a client of an OpenAI dialect sees them. Failures of the upstream's credentials or
 * permissions are the host's, not the client's: they are reported as 502 so the client does not think its own
 * key was refused. Upstream breakage (network, protocol, truncation) is 502, timeouts 504.
 */
function providerErrors(codes: OpenAiErrorDialectCodes): Readonly<Record<ProviderFailureCodeV3, ErrorShape>> {
  return {
    'rate-limited': { status: 429, type: 'rate_limit_error', code: 'rate_limit_exceeded', message: 'The upstream rate limit was reached.' },
    'quota-exceeded': { status: 429, type: 'insufficient_quota', code: 'insufficient_quota', message: 'The upstream quota is exhausted.' },
    overloaded: { status: 503, type: 'server_error', code: codes.overloaded, message: 'The upstream service is overloaded.' },
    'context-length-exceeded': {
      status: 400,
      type: 'invalid_request_error',
      code: 'context_length_exceeded',
      // OpenAI's own sentence: clients that match messages (opencode, Claude Code's classifier) look for it.
      message: 'Your input exceeds the context window of this model.',
    },
    'content-filtered': { status: 400, type: 'invalid_request_error', code: 'content_filter', message: 'The request was blocked by a content filter.' },
    'invalid-request': { status: 400, type: 'invalid_request_error', code: 'invalid_request', message: 'The upstream service refused the request as invalid.' },
    authentication: { status: 502, type: 'upstream_error', code: 'upstream_authentication_failed', message: 'The upstream service refused the gateway credentials.' },
    'permission-denied': { status: 502, type: 'upstream_error', code: 'upstream_permission_denied', message: 'The upstream service denied permission.' },
    'not-found': { status: 404, type: 'invalid_request_error', code: 'model_not_found', message: 'The upstream service does not know the requested model or resource.' },
    unsupported: { status: 400, type: 'invalid_request_error', code: 'unsupported_feature', message: 'The request uses a feature the selected model cannot serve.' },
    conflict: { status: 409, type: 'invalid_request_error', code: 'conflict', message: 'The request conflicts with the upstream state.' },
    timeout: { status: 504, type: 'server_error', code: codes.timeout, message: 'The upstream service timed out.' },
    network: { status: 502, type: 'server_error', code: codes.unreachable, message: 'The upstream service could not be reached.' },
    'provider-error': { status: 502, type: 'server_error', code: codes.upstreamError, message: 'The upstream service failed.' },
    'truncated-stream': { status: 502, type: 'server_error', code: codes.streamTruncated, message: 'The upstream response ended early.' },
    'protocol-violation': { status: 502, type: 'server_error', code: codes.protocolViolation, message: 'The upstream response was malformed.' },
    'output-schema-mismatch': { status: 502, type: 'server_error', code: 'output_schema_mismatch', message: 'The model output did not match the requested schema.' },
  };
}

/** Status, type and code of a failure the gateway answers itself. */
const GATEWAY_SHAPES: Readonly<Record<GatewayRefusalKind, Omit<ErrorShape, 'message'>>> = {
  'request-timeout': { status: 408, type: 'invalid_request_error', code: 'request_timeout' },
  busy: { status: 429, type: 'rate_limit_error', code: 'gateway_concurrency_limit' },
  'unknown-model': { status: 404, type: 'invalid_request_error', code: 'model_not_found' },
  unavailable: { status: 503, type: 'server_error', code: 'gateway_unavailable' },
};

function engineErrors(codes: OpenAiErrorDialectCodes): Readonly<Record<string, ErrorShape>> {
  return {
    PROTOCOL_ENGINE_INPUT_INVALID: { status: 400, type: 'invalid_request_error', code: 'invalid_request', message: 'The request is invalid.' },
    PROTOCOL_ENGINE_TARGET_TASK_MISMATCH: { status: 400, type: 'invalid_request_error', code: 'unsupported_task', message: 'The model does not serve this kind of request.' },
    ...forEngineCapabilityRefusals<ErrorShape>({
      status: 400,
      type: 'invalid_request_error',
      code: 'unsupported_feature',
      message: 'The request uses a feature the selected model cannot serve.',
    }),
    PROTOCOL_ENGINE_TRANSPORT_FAILED: { status: 502, type: 'server_error', code: codes.unreachable, message: 'The upstream service could not be reached.' },
    PROTOCOL_ENGINE_ADAPTER_OUTPUT_INVALID: { status: 502, type: 'server_error', code: codes.protocolViolation, message: 'The upstream response was malformed.' },
    // 499 (client closed request) is the status gateways use for a cancelled request.
    PROTOCOL_ENGINE_ABORTED: { status: 499, type: 'request_cancelled', code: 'request_cancelled', message: 'The request was cancelled.' },
    ...forGatewayRefusals<ErrorShape>(({ kind, message }) => ({ ...GATEWAY_SHAPES[kind], message })),
  };
}

const INGRESS_STATUS: Readonly<Partial<Record<CodecErrorCodeV1, number>>> = { 'body-too-large': 413, 'frame-too-large': 413 };

const encoder = new TextEncoder();

function paramOf(failure: EgressFailureV3): string | null {
  if (failure.source !== 'ingress' || typeof failure.param !== 'string' || failure.param.length === 0) return null;
  return failure.param.length <= PARAM_MAX_LENGTH ? failure.param : null;
}

/** Builds the error envelope of one OpenAI dialect from the codes it writes (the tables are built once, here). */
export function createOpenAiErrorEnvelope(codes: OpenAiErrorDialectCodes): OpenAiErrorEnvelope {
  const provider = providerErrors(codes);
  const engine = engineErrors(codes);
  const internal: ErrorShape = { status: 500, type: 'server_error', code: codes.internal, message: 'The gateway failed to process the request.' };

  function shapeOf(failure: EgressFailureV3): ErrorShape {
    switch (failure.source) {
      case 'provider':
        return provider[failure.failure.code] ?? internal;
      case 'ingress':
        return {
          status: INGRESS_STATUS[failure.code] ?? 400,
          type: 'invalid_request_error',
          code: failure.code.replaceAll('-', '_'),
          message: `The request could not be accepted (${failure.code}).`,
        };
      case 'engine':
        return engine[failure.code] ?? internal;
      default: {
        const unknownFailure: never = failure;
        void unknownFailure;
        return internal;
      }
    }
  }

  function describe(failure: EgressFailureV3): { status: number; error: OpenAiErrorObject } {
    const shape = shapeOf(failure);
    return { status: shape.status, error: { message: shape.message, type: shape.type, code: shape.code, param: paramOf(failure) } };
  }

  function encode(failure: EgressFailureV3): EgressHttpResponseV1 {
    const { status, error } = describe(failure);
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

  return { describe, encode };
}
