import type { CodecErrorCodeV1, EgressFailureV3, NormalizedProviderFailureV3 } from '@tokenforge/model-protocol';
import { forEngineCapabilityRefusals, forGatewayRefusals, type GatewayRefusalKind } from '../../codec-kit/index.js';
import { assertNever } from './assert-never.js';

/** A Google error envelope to send: HTTP status, canonical status name and the retry hint. */
export interface GoogleErrorSpec {
  /** The HTTP status, also sent as `error.code`. */
  readonly httpStatus: number;
  /** The canonical Google status name (`RESOURCE_EXHAUSTED`, ...). */
  readonly status: string;
  /** A fixed, generic sentence (never provider text). */
  readonly message: string;
  /** The wait to advertise, in milliseconds, when known. */
  readonly retryAfterMs: number | undefined;
}

const PROVIDER_ERRORS: Readonly<Record<NormalizedProviderFailureV3['code'], readonly [number, string, string]>> = {
  'rate-limited': [429, 'RESOURCE_EXHAUSTED', 'Rate limit exceeded.'],
  'quota-exceeded': [402, 'RESOURCE_EXHAUSTED', 'Quota exhausted.'],
  overloaded: [503, 'UNAVAILABLE', 'The model is overloaded.'],
  // Google's own sentence (without its counts, which the gateway does not know): clients match "input token count … exceeds the maximum".
  'context-length-exceeded': [400, 'INVALID_ARGUMENT', 'The input token count exceeds the maximum number of tokens allowed.'],
  'content-filtered': [400, 'INVALID_ARGUMENT', 'The request was blocked by a content filter.'],
  'invalid-request': [400, 'INVALID_ARGUMENT', 'The request is invalid.'],
  // The upstream refusing the gateway's own credentials is the gateway's failure, not the client's key: 502.
  authentication: [502, 'INTERNAL', 'The upstream model refused the gateway credentials.'],
  'permission-denied': [502, 'INTERNAL', 'The upstream model denied the gateway permission.'],
  'not-found': [404, 'NOT_FOUND', 'Not found.'],
  unsupported: [400, 'INVALID_ARGUMENT', 'The request uses a feature the model cannot serve.'],
  conflict: [409, 'ABORTED', 'The request conflicted with another operation.'],
  timeout: [504, 'DEADLINE_EXCEEDED', 'The upstream model timed out.'],
  network: [503, 'UNAVAILABLE', 'The upstream model could not be reached.'],
  'provider-error': [500, 'INTERNAL', 'The upstream model failed.'],
  'truncated-stream': [500, 'INTERNAL', 'The upstream response ended early.'],
  'protocol-violation': [500, 'INTERNAL', 'The upstream response was malformed.'],
  'output-schema-mismatch': [500, 'INTERNAL', 'The model output did not match the requested schema.'],
};

const INGRESS_STATUS: Readonly<Partial<Record<CodecErrorCodeV1, number>>> = { 'body-too-large': 413, 'frame-too-large': 413 };

/** HTTP status and canonical Google status of a failure the gateway answers itself. */
const GATEWAY_STATUS: Readonly<Record<GatewayRefusalKind, readonly [number, string]>> = {
  'request-timeout': [408, 'DEADLINE_EXCEEDED'],
  busy: [429, 'RESOURCE_EXHAUSTED'],
  'unknown-model': [404, 'NOT_FOUND'],
  unavailable: [503, 'UNAVAILABLE'],
};

/** Engine error codes (strings, so that this package does not import the engine) with a client-side meaning. */
const ENGINE_ERRORS: Readonly<Record<string, readonly [number, string, string]>> = {
  PROTOCOL_ENGINE_INPUT_INVALID: [400, 'INVALID_ARGUMENT', 'The request is invalid.'],
  PROTOCOL_ENGINE_TARGET_TASK_MISMATCH: [400, 'INVALID_ARGUMENT', 'The model does not serve this kind of request.'],
  ...forEngineCapabilityRefusals([400, 'INVALID_ARGUMENT', 'The request uses a feature the model cannot serve.'] as const),
  PROTOCOL_ENGINE_TRANSPORT_FAILED: [503, 'UNAVAILABLE', 'The upstream model could not be reached.'],
  PROTOCOL_ENGINE_ABORTED: [499, 'CANCELLED', 'The request was cancelled.'],
  ...forGatewayRefusals<readonly [number, string, string]>(({ kind, message }) => [...GATEWAY_STATUS[kind], message] as const),
};

/**
 * How a failure is told to a Gemini client (fact sheet §4.6 statuses):
 * - provider failures by normalized code (rate-limited 429 `RESOURCE_EXHAUSTED` with the retry hint,
 *   quota-exceeded 402 `RESOURCE_EXHAUSTED`, overloaded and network 503 `UNAVAILABLE`, timeout 504
 *   `DEADLINE_EXCEEDED`, request problems 400 `INVALID_ARGUMENT`, the upstream refusing the gateway's
 *   credentials or permission 502 `INTERNAL` (never the client's 401), not found 404, conflict 409 `ABORTED`, upstream faults 500 `INTERNAL`);
 * - ingress codec refusals are 400 `INVALID_ARGUMENT`, a body or frame too large 413;
 * - engine errors: input and capability refusals 400, transport failures 503, abort 499 `CANCELLED`, any
 *   other (a configuration or adapter defect) 500 `INTERNAL`.
 * Messages are fixed sentences: never provider text, prompts or identifiers.
 */
export function mapFailureToGoogleError(failure: EgressFailureV3): GoogleErrorSpec {
  switch (failure.source) {
    case 'provider': {
      const [httpStatus, status, message] = PROVIDER_ERRORS[failure.failure.code];
      return { httpStatus, status, message, retryAfterMs: failure.failure.retryAfterMs };
    }
    case 'ingress':
      return { httpStatus: INGRESS_STATUS[failure.code] ?? 400, status: 'INVALID_ARGUMENT', message: `The request was refused (${failure.code}).`, retryAfterMs: undefined };
    case 'engine': {
      const [httpStatus, status, message] = ENGINE_ERRORS[failure.code] ?? [500, 'INTERNAL', 'Internal error.'];
      return { httpStatus, status, message, retryAfterMs: undefined };
    }
    default:
      return assertNever(failure, 'failure source');
  }
}

/** The `{error: {code, message, status, details?}}` envelope, with a `RetryInfo` detail when a wait is known. */
export function googleErrorEnvelope(spec: GoogleErrorSpec): Record<string, unknown> {
  const retryDelay = spec.retryAfterMs === undefined ? undefined : formatRetryDelay(spec.retryAfterMs);
  return {
    error: {
      code: spec.httpStatus,
      message: spec.message,
      status: spec.status,
      ...(retryDelay === undefined ? {} : { details: [{ '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay }] }),
    },
  };
}

function formatRetryDelay(milliseconds: number): string {
  const seconds = Math.floor(milliseconds / 1000);
  const fraction = milliseconds % 1000;
  return fraction === 0 ? `${seconds}s` : `${seconds}.${String(fraction).padStart(3, '0')}s`;
}
