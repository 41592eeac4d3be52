import { createHmac, timingSafeEqual } from 'node:crypto';

/** What a job handle names. Self-contained: any gateway process with the signing key can serve it. */
export interface JobHandleClaims {
  /** `job` for one provider job; `window` for a recovery token over a submission window. */
  readonly kind: 'job' | 'window';
  /** The catalogue target (`<model>#<index>`). */
  readonly target: string;
  /** The provider job id (`job`), empty for `window`. */
  readonly providerJobId: string;
  /** The id of the client key the handle belongs to. */
  readonly client: string;
  /** Expiry, epoch seconds. */
  readonly expiresAt: number;
  /** `window`: the submission window, ISO UTC instants. */
  readonly window?: { readonly from: string; readonly to: string };
}

/** Why a handle was refused. */
export type JobHandleRefusal = 'malformed' | 'forged' | 'expired' | 'foreign';

const PREFIX = 'tfj1';

function sign(payload: string, key: Uint8Array): string {
  return createHmac('sha256', key).update(`${PREFIX}.${payload}`).digest('base64url');
}

/** Signs claims into a handle `tfj1.<payload>.<HMAC-SHA256>` (base64url). */
export function signJobHandle(claims: JobHandleClaims, key: Uint8Array): string {
  const payload = Buffer.from(
    JSON.stringify({ k: claims.kind, t: claims.target, j: claims.providerJobId, c: claims.client, e: claims.expiresAt, ...(claims.window === undefined ? {} : { w: [claims.window.from, claims.window.to] }) }),
  ).toString('base64url');
  return `${PREFIX}.${payload}.${sign(payload, key)}`;
}

/** The longest a handle can be valid: the catalogue's largest `jobs.handleTtlSeconds`, plus a day of clock skew. */
const MAX_HANDLE_LIFETIME_SECONDS = 91 * 86_400;

/**
 * Verifies a handle for the calling client: the signature (constant time), then ownership, then expiry, so that
 * another client's handle is `foreign` (404) whether or not it expired. A forged or altered handle is `forged`; an
 * expiry that is not a finite time within the longest lifetime a handle can have is `malformed`.
 */
export function verifyJobHandle(handle: string, key: Uint8Array, client: string, nowMs: number): JobHandleClaims | JobHandleRefusal {
  const parts = handle.split('.');
  if (parts.length !== 3 || parts[0] !== PREFIX || handle.length > 4096) return 'malformed';
  const [, payload, signature] = parts as [string, string, string];
  const expected = Buffer.from(sign(payload, key));
  const given = Buffer.from(signature);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return 'forged';
  let raw: { k?: unknown; t?: unknown; j?: unknown; c?: unknown; e?: unknown; w?: unknown };
  try {
    raw = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as typeof raw;
  } catch {
    return 'malformed';
  }
  if ((raw.k !== 'job' && raw.k !== 'window') || typeof raw.t !== 'string' || typeof raw.j !== 'string' || typeof raw.c !== 'string' || typeof raw.e !== 'number') return 'malformed';
  if (!Number.isFinite(raw.e) || raw.e > nowMs / 1000 + MAX_HANDLE_LIFETIME_SECONDS) return 'malformed';
  if (raw.c !== client) return 'foreign';
  if (raw.e * 1000 <= nowMs) return 'expired';
  const window = Array.isArray(raw.w) && typeof raw.w[0] === 'string' && typeof raw.w[1] === 'string' ? { from: raw.w[0], to: raw.w[1] } : undefined;
  return { kind: raw.k, target: raw.t, providerJobId: raw.j, client: raw.c, expiresAt: raw.e, ...(window === undefined ? {} : { window }) };
}

/**
 * The idempotency-key prefix of a client's jobs (`tfg-<tag>-`): a keyed digest of the client id, so a provider
 * list can be narrowed to the caller's jobs where the provider echoes the key, and no one can forge another's.
 */
export function ownerPrefix(client: string, key: Uint8Array): string {
  return `tfg-${createHmac('sha256', key).update(`owner:${client}`).digest('base64url').replace(/[^A-Za-z0-9]/g, '').slice(0, 12)}-`;
}
