import { createHmac, timingSafeEqual } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import { headerValue } from './sim-exchange.js';
import type { SimulatorCredentials } from './simulator-credentials.js';

/** A refused request: the status and the provider's own envelope. */
export interface AuthRefusal {
  readonly status: number;
  readonly body: unknown;
}

/** The provider surfaces, each with its own auth scheme. */
export type SimulatorSurface = 'openai' | 'anthropic' | 'gemini' | 'cohere' | 'dashscope' | 'kling';

function same(left: string | undefined, right: string): boolean {
  if (left === undefined) return false;
  const a = Buffer.from(left);
  const b = Buffer.from(right);
  return a.length === b.length && timingSafeEqual(a, b);
}

function bearer(headers: IncomingHttpHeaders): string | undefined {
  const match = /^Bearer (.+)$/.exec(headerValue(headers, 'authorization') ?? '');
  return match?.[1];
}

/** Kling auth codes (fact sheet §4): 1001 missing, 1002 invalid, 1003 not yet valid, 1004 expired. */
function klingRefusal(code: number, message: string): AuthRefusal {
  return { status: 401, body: { code, message, request_id: 'sim-kling-request' } };
}

/** Verifies a Kling HS256 JWT against the configured access and secret keys and the clock (seconds). */
export function checkKlingJwt(token: string | undefined, credentials: SimulatorCredentials, nowMs: number): AuthRefusal | undefined {
  if (token === undefined) return klingRefusal(1001, 'Authorization is empty.');
  const parts = token.split('.');
  if (parts.length !== 3) return klingRefusal(1002, 'Authorization is invalid.');
  const [header, payload, signature] = parts as [string, string, string];
  const expected = createHmac('sha256', credentials.klingSecretKey).update(`${header}.${payload}`).digest('base64url');
  if (!same(signature, expected)) return klingRefusal(1002, 'Authorization is invalid.');
  let claims: { alg?: unknown; iss?: unknown; exp?: unknown; nbf?: unknown };
  try {
    const head = JSON.parse(Buffer.from(header, 'base64url').toString('utf8')) as { alg?: unknown };
    if (head.alg !== 'HS256') return klingRefusal(1002, 'Authorization is invalid.');
    claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as typeof claims;
  } catch {
    return klingRefusal(1002, 'Authorization is invalid.');
  }
  if (typeof claims.iss !== 'string' || !same(claims.iss, credentials.klingAccessKey)) return klingRefusal(1002, 'Authorization is invalid.');
  const now = nowMs / 1000;
  if (typeof claims.exp !== 'number' || claims.exp <= now) return klingRefusal(1004, 'Authorization is expired.');
  if (typeof claims.nbf === 'number' && claims.nbf > now) return klingRefusal(1003, 'Authorization is not yet valid.');
  return undefined;
}

/** Checks a request's credentials the way the surface's provider does; `undefined` when they are good. */
export function checkAuth(
  surface: SimulatorSurface,
  headers: IncomingHttpHeaders,
  query: URLSearchParams,
  credentials: SimulatorCredentials,
  nowMs: number,
): AuthRefusal | undefined {
  switch (surface) {
    case 'openai':
      return same(bearer(headers), credentials.openAiApiKey)
        ? undefined
        : { status: 401, body: { error: { message: 'Incorrect API key provided.', type: 'invalid_request_error', param: null, code: 'invalid_api_key' } } };
    case 'anthropic': {
      if (!same(headerValue(headers, 'x-api-key'), credentials.anthropicApiKey)) {
        return { status: 401, body: { type: 'error', error: { type: 'authentication_error', message: 'invalid x-api-key' }, request_id: 'req_sim_auth' } };
      }
      if (headerValue(headers, 'anthropic-version') !== '2023-06-01') {
        return { status: 400, body: { type: 'error', error: { type: 'invalid_request_error', message: 'anthropic-version: header is required' }, request_id: 'req_sim_auth' } };
      }
      return undefined;
    }
    case 'gemini': {
      const key = headerValue(headers, 'x-goog-api-key') ?? query.get('key') ?? undefined;
      if (key === undefined) {
        return { status: 403, body: { error: { code: 403, message: 'Method doesn\'t allow unregistered callers.', status: 'PERMISSION_DENIED' } } };
      }
      return same(key, credentials.geminiApiKey)
        ? undefined
        : {
            status: 400,
            body: {
              error: {
                code: 400,
                message: 'API key not valid. Please pass a valid API key.',
                status: 'INVALID_ARGUMENT',
                details: [{ '@type': 'type.googleapis.com/google.rpc.ErrorInfo', reason: 'API_KEY_INVALID', domain: 'googleapis.com' }],
              },
            },
          };
    }
    case 'cohere':
      return same(bearer(headers), credentials.cohereApiKey) ? undefined : { status: 401, body: { id: 'sim-auth', message: 'invalid api token' } };
    case 'dashscope':
      return same(bearer(headers), credentials.dashScopeApiKey)
        ? undefined
        : { status: 401, body: { request_id: 'sim-auth', code: 'InvalidApiKey', message: 'Invalid API-key provided.' } };
    case 'kling':
      return checkKlingJwt(bearer(headers), credentials, nowMs);
    default: {
      const never: never = surface;
      return never;
    }
  }
}
