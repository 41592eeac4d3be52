import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Context } from 'hono';
import { getCookie } from 'hono/cookie';
import type { ConsoleSessionV1, GovernanceStoreV1, SignInThrottlePolicyV1 } from '../governance/v1/governance-store-v1.js';

/** The console's session cookie (HttpOnly, SameSite=Strict, Secure over TLS, path `/`). */
export const CONSOLE_SESSION_COOKIE = 'tokenforge_console';
/** The header every change made with a console session must carry: the session's CSRF token. */
export const CONSOLE_CSRF_HEADER = 'x-csrf-token';
/** How long a console session lasts (8 hours), on the store's clock. */
export const CONSOLE_SESSION_TTL_MS = 8 * 3_600_000;

/**
 * Failed sign-ins per client address: 5 within 10 minutes, then the address waits until the oldest leaves the window.
 * Counted in the governance store, so the limit holds across every instance.
 */
export const CONSOLE_SIGN_IN_THROTTLE: SignInThrottlePolicyV1 = { failuresAllowed: 5, windowMs: 10 * 60_000 };

/** The stored id of a session cookie value: its SHA-256 digest (hex), so the store never holds the cookie. */
export function consoleSessionIdOf(cookieValue: string): string {
  return createHash('sha256').update(cookieValue, 'utf8').digest('hex');
}

/** Creates a session in the store; answers the cookie value (random, 32 bytes) and the stored session. */
export async function openConsoleSession(store: GovernanceStoreV1, nowMs: number): Promise<{ cookieValue: string; session: ConsoleSessionV1 }> {
  const cookieValue = randomBytes(32).toString('base64url');
  const session: ConsoleSessionV1 = { id: consoleSessionIdOf(cookieValue), csrfToken: randomBytes(32).toString('base64url'), createdAtMs: nowMs, expiresAtMs: nowMs + CONSOLE_SESSION_TTL_MS };
  await store.createSession(session);
  return { cookieValue, session };
}

/** The live session the request's cookie names, if any. */
export async function findConsoleSession(c: Context, store: GovernanceStoreV1): Promise<ConsoleSessionV1 | undefined> {
  const cookieValue = getCookie(c, CONSOLE_SESSION_COOKIE);
  if (cookieValue === undefined || cookieValue.length === 0 || cookieValue.length > 128) return undefined;
  return store.findSession(consoleSessionIdOf(cookieValue));
}

/** Whether the request may change state with this session: reads pass, a change needs the session's CSRF token. */
export function consoleCsrfAccepted(c: Context, session: ConsoleSessionV1): boolean {
  if (c.req.method === 'GET' || c.req.method === 'HEAD') return true;
  const presented = c.req.header(CONSOLE_CSRF_HEADER) ?? '';
  const expected = Buffer.from(session.csrfToken, 'utf8');
  const given = Buffer.from(presented, 'utf8');
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/**
 * The admin API's second way in: `ok` for a live console session (with its CSRF token on a change), `csrf` when the
 * session is live but a change lacks the token, `none` when there is no live session.
 */
export async function consoleSessionAccess(c: Context, store: GovernanceStoreV1): Promise<'ok' | 'csrf' | 'none'> {
  const session = await findConsoleSession(c, store);
  if (session === undefined) return 'none';
  return consoleCsrfAccepted(c, session) ? 'ok' : 'csrf';
}
