import type { ErrorShape } from '../../http/client-auth-refusal.js';
import type { GovernanceRefusalCodeV1 } from '../v1/governance-store-v1.js';

/** What a governance refusal names: a tenant limit, or the store being out of reach (fail closed). */
export type GovernanceRefusalCode = GovernanceRefusalCodeV1 | 'governance-unavailable';

const MESSAGES: Readonly<Record<GovernanceRefusalCode, string>> = {
  'tenant-rate-limit': 'The request rate limit of this API key or its tenant was reached.',
  'tenant-token-limit': 'The token rate limit of this API key or its tenant was reached.',
  'tenant-concurrency-limit': 'Too many requests of this API key or its tenant are in flight.',
  'tenant-budget-exhausted': 'The spending budget of this API key or its tenant is exhausted.',
  'governance-unavailable': 'The gateway cannot check the limits of this API key right now; nothing was sent.',
};

/** A status and envelope per dialect: see the refusal table in the gateway README. */
interface Shape {
  readonly status: number;
  readonly body: unknown;
  /** `x-should-retry: false` tells the OpenAI and Anthropic SDKs not to retry (they obey it before the status). */
  readonly noRetry?: boolean;
}

function retryDelay(retryAfterMs: number | undefined): string | undefined {
  return retryAfterMs === undefined ? undefined : `${Math.max(1, Math.ceil(retryAfterMs / 1000))}s`;
}

function openAi(code: GovernanceRefusalCode, message: string): Shape {
  switch (code) {
    case 'tenant-budget-exhausted':
      // OpenAI's own quota shape; the SDK retries every 429 unless `x-should-retry: false` says otherwise.
      return { status: 429, body: { error: { message, type: 'insufficient_quota', param: null, code } }, noRetry: true };
    case 'governance-unavailable':
      return { status: 503, body: { error: { message, type: 'server_error', param: null, code } } };
    default:
      return { status: 429, body: { error: { message, type: 'rate_limit_error', param: null, code } } };
  }
}

function anthropic(code: GovernanceRefusalCode, message: string, requestId: string): Shape {
  // `error.type` stays one of Anthropic's documented types; the stable code travels in `error.code` (the SDK keeps
  // the whole body as `APIError.error`) and at the start of the message.
  const envelope = (type: string): unknown => ({ type: 'error', error: { type, message: `${code}: ${message}`, code }, request_id: requestId });
  switch (code) {
    case 'tenant-budget-exhausted':
      return { status: 402, body: envelope('billing_error'), noRetry: true };
    case 'governance-unavailable':
      return { status: 503, body: envelope('api_error') };
    default:
      return { status: 429, body: envelope('rate_limit_error') };
  }
}

function gemini(code: GovernanceRefusalCode, message: string, retryAfterMs: number | undefined): Shape {
  const [status, rpcStatus] =
    code === 'tenant-budget-exhausted' ? [403, 'PERMISSION_DENIED'] : code === 'governance-unavailable' ? [503, 'UNAVAILABLE'] : [429, 'RESOURCE_EXHAUSTED'];
  const delay = retryDelay(retryAfterMs);
  const details: unknown[] = [
    { '@type': 'type.googleapis.com/google.rpc.ErrorInfo', reason: code.toUpperCase().replaceAll('-', '_'), domain: 'tokenforge.gateway', metadata: { code } },
    ...(delay === undefined ? [] : [{ '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: delay }]),
  ];
  return { status, body: { error: { code: status, message, status: rpcStatus, details } } };
}

function cohere(code: GovernanceRefusalCode, message: string, requestId: string): Shape {
  const status = code === 'tenant-budget-exhausted' ? 402 : code === 'governance-unavailable' ? 503 : 429;
  return { status, body: { id: requestId, message: `${code}: ${message}`, code } };
}

/**
 * A governance refusal in the client's own error envelope: the stable code where the dialect carries one (OpenAI
 * `error.code`; Anthropic `error.code` beside a documented `error.type`; Gemini an `ErrorInfo` detail; Cohere
 * `code`), `retry-after` when waiting helps, and an exhausted budget in a shape the official SDKs do not retry.
 */
export function governanceRefusalResponse(
  shape: ErrorShape,
  refusal: { readonly code: GovernanceRefusalCode; readonly retryAfterMs?: number | undefined },
  requestId: string,
  headers: Readonly<Record<string, string>>,
): Response {
  const message = MESSAGES[refusal.code];
  let answer: Shape;
  switch (shape) {
    case 'openai':
      answer = openAi(refusal.code, message);
      break;
    case 'anthropic':
      answer = anthropic(refusal.code, message, requestId);
      break;
    case 'gemini':
      answer = gemini(refusal.code, message, refusal.retryAfterMs);
      break;
    case 'cohere':
      answer = cohere(refusal.code, message, requestId);
      break;
    default: {
      const never: never = shape;
      return never;
    }
  }
  const out: Record<string, string> = { ...headers, 'content-type': 'application/json', 'x-request-id': requestId, 'x-tokenforge-refusal': refusal.code };
  if (answer.noRetry === true) out['x-should-retry'] = 'false';
  else if (refusal.retryAfterMs !== undefined) out['retry-after'] = String(Math.max(1, Math.ceil(refusal.retryAfterMs / 1000)));
  return new Response(JSON.stringify(answer.body), { status: answer.status, headers: out });
}
