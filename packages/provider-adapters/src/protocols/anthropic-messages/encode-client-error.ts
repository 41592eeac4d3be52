import type { CodecErrorCodeV1, EgressFailureV3, ProviderFailureCodeV3 } from '@tokenforge/model-protocol';
import { ENGINE_CAPABILITY_REFUSAL_CODES, forGatewayRefusals, type GatewayRefusalKind } from '../../codec-kit/index.js';

/** An Anthropic error to write: HTTP status, `error.type`, a generic message, and the retry hint. */
export interface AnthropicEgressError {
  readonly status: number;
  readonly type: string;
  readonly message: string;
  /** Seconds for `retry-after`, when the provider asked for a wait. */
  readonly retryAfterSeconds?: number;
}

const PROVIDER_ERRORS: Readonly<Record<ProviderFailureCodeV3, readonly [number, string, string]>> = {
  'rate-limited': [429, 'rate_limit_error', 'The upstream provider rate-limited this request.'],
  'quota-exceeded': [402, 'billing_error', 'The upstream provider quota or spend limit is exhausted.'],
  overloaded: [529, 'overloaded_error', 'The upstream provider is overloaded.'],
  // Anthropic's own opening words: Claude Code starts its compaction when the message holds "prompt is too long".
  'context-length-exceeded': [400, 'invalid_request_error', "prompt is too long: the prompt exceeds the model's context window"],
  'content-filtered': [400, 'invalid_request_error', 'The upstream provider refused the content.'],
  'invalid-request': [400, 'invalid_request_error', 'The upstream provider rejected the request as invalid.'],
  // The upstream refusing the gateway's own credentials is the gateway's failure, not the client's key: 502.
  authentication: [502, 'api_error', 'The upstream provider refused the gateway credentials.'],
  'permission-denied': [502, 'api_error', 'The upstream provider denied the gateway permission.'],
  'not-found': [404, 'not_found_error', 'The upstream provider could not find the requested resource.'],
  unsupported: [400, 'invalid_request_error', 'The request uses a feature the selected model cannot serve.'],
  conflict: [409, 'conflict_error', 'The upstream provider reported a conflict.'],
  timeout: [504, 'timeout_error', 'The upstream provider timed out.'],
  network: [502, 'api_error', 'The upstream provider could not be reached.'],
  'provider-error': [500, 'api_error', 'The upstream provider failed.'],
  'truncated-stream': [502, 'api_error', 'The upstream response ended early.'],
  'protocol-violation': [502, 'api_error', 'The upstream provider sent an invalid response.'],
  'output-schema-mismatch': [502, 'api_error', 'The model output did not match the requested schema.'],
};

const INPUT_ENGINE_CODES: ReadonlySet<string> = new Set([
  'PROTOCOL_ENGINE_INPUT_INVALID',
  'PROTOCOL_ENGINE_TARGET_TASK_MISMATCH',
  ...ENGINE_CAPABILITY_REFUSAL_CODES,
]);

/** Status and `error.type` of a failure the gateway answers itself (529 `overloaded_error` while it shuts down). */
const GATEWAY_STATUS: Readonly<Record<GatewayRefusalKind, readonly [number, string]>> = {
  'request-timeout': [408, 'timeout_error'],
  busy: [429, 'rate_limit_error'],
  'unknown-model': [404, 'not_found_error'],
  unavailable: [529, 'overloaded_error'],
};

const GATEWAY_ERRORS: Readonly<Record<string, AnthropicEgressError>> = forGatewayRefusals(({ kind, message }) => ({
  status: GATEWAY_STATUS[kind][0],
  type: GATEWAY_STATUS[kind][1],
  message,
}));

/** Status and `error.type` of a request that was cancelled before it finished (499: client closed request). */
export const ANTHROPIC_CANCELLED_ERROR: AnthropicEgressError = { status: 499, type: 'api_error', message: 'The request was cancelled.' };

/**
 * Maps a failure to Anthropic's error vocabulary (fact sheet §3.8). Provider failures keep their meaning:
 * `rate-limited` → 429 `rate_limit_error` (with `retry-after`), `overloaded` → 529 `overloaded_error`,
 * `quota-exceeded` → 402 `billing_error`, `timeout` → 504 `timeout_error`, request problems → 400
 * `invalid_request_error`, `not-found`/`conflict` → 404/409, the upstream refusing the gateway's credentials (`authentication`,
 * `permission-denied`) → 502 `api_error` (never the client's 401), and
 * upstream breakage (`network`, `truncated-stream`, `protocol-violation`) → 502 `api_error`, `provider-error` →
 * 500 `api_error`. Ingress codec errors are the client's: `body-too-large` → 413 `request_too_large`, the rest
 * 400. Engine errors: input and capability codes → 400, `PROTOCOL_ENGINE_ABORTED` → 499, others 500. Messages
 * are fixed sentences: never a provider message, prompt or identifier.
 */
export function mapAnthropicEgressError(failure: EgressFailureV3): AnthropicEgressError {
  switch (failure.source) {
    case 'provider': {
      const [status, type, message] = PROVIDER_ERRORS[failure.failure.code];
      const retryAfterMs = failure.failure.retryAfterMs;
      return { status, type, message, ...(retryAfterMs === undefined ? {} : { retryAfterSeconds: Math.ceil(retryAfterMs / 1000) }) };
    }
    case 'ingress':
      return ingressError(failure.code);
    case 'engine':
      if (INPUT_ENGINE_CODES.has(failure.code)) {
        return { status: 400, type: 'invalid_request_error', message: 'The request cannot be served by the selected model.' };
      }
      if (failure.code === 'PROTOCOL_ENGINE_ABORTED') return ANTHROPIC_CANCELLED_ERROR;
      if (Object.hasOwn(GATEWAY_ERRORS, failure.code)) return GATEWAY_ERRORS[failure.code] as AnthropicEgressError;
      return { status: 500, type: 'api_error', message: 'The gateway failed to process the request.' };
    default: {
      const unknownFailure: never = failure;
      void unknownFailure;
      return { status: 500, type: 'api_error', message: 'The gateway failed to process the request.' };
    }
  }
}

function ingressError(code: CodecErrorCodeV1): AnthropicEgressError {
  switch (code) {
    case 'body-too-large':
      return { status: 413, type: 'request_too_large', message: 'The request body is too large.' };
    case 'unsupported-feature':
      return { status: 400, type: 'invalid_request_error', message: 'The request uses a feature this gateway cannot represent.' };
    case 'malformed-json':
    case 'nesting-too-deep':
    case 'forbidden-key':
    case 'invalid-encoding':
    case 'frame-too-large':
      return { status: 400, type: 'invalid_request_error', message: 'The request body is not acceptable JSON.' };
    case 'invalid-request':
      return { status: 400, type: 'invalid_request_error', message: 'The request is invalid.' };
    default: {
      const unknownCode: never = code;
      void unknownCode;
      return { status: 400, type: 'invalid_request_error', message: 'The request is invalid.' };
    }
  }
}
