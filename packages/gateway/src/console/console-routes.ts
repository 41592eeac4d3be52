import { timingSafeEqual, createHash } from 'node:crypto';
import { getConnInfo } from '@hono/node-server/conninfo';
import { Hono, type Context } from 'hono';
import { deleteCookie, setCookie } from 'hono/cookie';
import type { GatewayRuntime } from '../runtime/gateway-runtime.js';
import { loadConsoleAssets, type ConsoleAsset } from './console-assets.js';
import { CONSOLE_SESSION_COOKIE, CONSOLE_SESSION_TTL_MS, CONSOLE_SIGN_IN_THROTTLE, consoleCsrfAccepted, consoleSessionIdOf, findConsoleSession, openConsoleSession } from './console-session.js';

/** The console's pages and files are public only here: the sign-in form and its stylesheet. */
const PUBLIC_FILES = new Set(['sign-in.css']);
const SIGN_IN_STATUS = '<!--sign-in-status-->';

const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'content-security-policy':
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'same-origin',
  'cache-control': 'no-store',
};

function consoleError(c: Context, status: 401 | 403 | 404 | 429 | 503, code: string, message: string): Response {
  return c.json({ error: { code, message } }, status, SECURITY_HEADERS);
}

function digest(value: string): Buffer {
  return createHash('sha256').update(value, 'utf8').digest();
}

/** The peer's address (one throttle bucket for all when the server adapter cannot tell, as in `app.request`). */
function clientAddress(c: Context): string {
  try {
    return getConnInfo(c).remote.address ?? 'unknown';
  } catch {
    return 'unknown';
  }
}

/**
 * Whether the browser reached the console over TLS: the request's own scheme, or with `trustForwardedProto` set (a
 * TLS-terminating proxy in front) an `X-Forwarded-Proto` whose first value is `https`.
 */
export function consoleRequestIsSecure(c: Context, trustForwardedProto: boolean): boolean {
  if (new URL(c.req.url).protocol === 'https:') return true;
  if (!trustForwardedProto) return false;
  return (c.req.header('x-forwarded-proto') ?? '').split(',')[0]?.trim().toLowerCase() === 'https';
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);
}

/**
 * `/console`: the operator console. Without a live session only the sign-in form (and its stylesheet) is served;
 * signing in with the admin key sets the session cookie (HttpOnly, SameSite=Strict, Secure over TLS), kept in the
 * governance store so every instance knows it. Failed sign-ins are throttled per client address, counted in the
 * governance store so the throttle holds across instances. The console's own files are read from `directory` once, at
 * registration.
 */
export function registerConsoleRoutes(app: Hono, runtime: GatewayRuntime, directory: string | undefined): void {
  const assets = loadConsoleAssets(directory);
  const serve = (c: Context, asset: ConsoleAsset, status: 200 | 401 | 429 = 200, replaceStatus?: string): Response => {
    const body = replaceStatus === undefined ? asset.body : new TextDecoder().decode(asset.body).replace(SIGN_IN_STATUS, replaceStatus);
    return c.body(body as never, status, { ...SECURITY_HEADERS, 'content-type': asset.contentType });
  };
  const signInPage = (c: Context, status: 200 | 401 | 429 = 200, message?: string): Response => {
    const page = assets.get('sign-in.html');
    if (page === undefined && status === 401) return consoleError(c, 401, 'admin-key-wrong', message ?? 'That is not the admin key.');
    if (page === undefined && status === 429) return consoleError(c, 429, 'sign-in-throttled', message ?? 'Too many failed sign-ins.');
    if (page === undefined) return consoleError(c, 404, 'console-not-built', 'The console assets are not built into this gateway.');
    return serve(c, page, status, message === undefined ? undefined : `<p class="status" role="alert">${escapeHtml(message)}</p>`);
  };

  const consoleApp = new Hono();
  consoleApp.use('*', async (c, next) => {
    if (runtime.governance === undefined) return consoleError(c, 404, 'governance-off', 'Governance is off on this gateway: the console needs it.');
    await next();
    return undefined;
  });
  const indexPage = async (c: Context): Promise<Response> => {
    if (runtime.governance === undefined) return consoleError(c, 404, 'governance-off', 'Governance is off on this gateway: the console needs it.');
    const session = await findConsoleSession(c, runtime.governance!.store);
    const index = assets.get('index.html');
    if (session === undefined || index === undefined) return signInPage(c);
    return serve(c, index);
  };
  // The store could not answer (a session lookup, the sign-in throttle): a typed 503, never the error's text.
  consoleApp.onError((_error, c) => consoleError(c, 503, 'governance-unavailable', 'The governance store cannot be reached; try again shortly.'));
  consoleApp.post('/session', async (c) => {
    const governance = runtime.governance!;
    const origin = c.req.header('origin');
    if (origin !== undefined && origin !== new URL(c.req.url).origin) return consoleError(c, 403, 'cross-origin-sign-in', 'Sign-in is accepted only from the console itself.');
    const address = clientAddress(c);
    const waitMs = await governance.store.signInRetryAfterMs(address, CONSOLE_SIGN_IN_THROTTLE);
    if (waitMs > 0) {
      c.header('retry-after', String(Math.ceil(waitMs / 1000)));
      return signInPage(c, 429, `Too many failed sign-ins: try again in ${Math.ceil(waitMs / 1000)} seconds.`);
    }
    const form = await c.req.parseBody().catch(() => ({}) as Record<string, unknown>);
    const presented = typeof form['adminKey'] === 'string' ? form['adminKey'] : '';
    if (!timingSafeEqual(digest(presented), digest(governance.adminKey))) {
      await governance.store.recordSignInFailure(address, CONSOLE_SIGN_IN_THROTTLE);
      return signInPage(c, 401, 'That is not the admin key.');
    }
    await governance.store.clearSignInFailures(address);
    const { cookieValue } = await openConsoleSession(governance.store, Date.now());
    setCookie(c, CONSOLE_SESSION_COOKIE, cookieValue, {
      httpOnly: true,
      sameSite: 'Strict',
      secure: consoleRequestIsSecure(c, runtime.console?.trustForwardedProto === true),
      path: '/',
      maxAge: CONSOLE_SESSION_TTL_MS / 1000,
    });
    return c.redirect('/console/', 303);
  });
  consoleApp.use('*', async (c, next) => {
    const file = c.req.path.slice('/console/'.length);
    if (c.req.method === 'GET' && PUBLIC_FILES.has(file)) {
      const asset = assets.get(file);
      return asset === undefined ? consoleError(c, 404, 'not-found', 'No such console file.') : serve(c, asset);
    }
    const session = await findConsoleSession(c, runtime.governance!.store);
    if (session === undefined) return consoleError(c, 401, 'console-session-required', 'Sign in to the console first.');
    if (!consoleCsrfAccepted(c, session)) return consoleError(c, 403, 'csrf-token-invalid', 'A change needs the session CSRF token in X-CSRF-Token.');
    c.set('consoleSession' as never, session as never);
    await next();
    return undefined;
  });
  consoleApp.get('/session', async (c) => {
    const session = (await findConsoleSession(c, runtime.governance!.store))!;
    return c.json({ csrfToken: session.csrfToken, expiresAtMs: session.expiresAtMs }, 200, SECURITY_HEADERS);
  });
  consoleApp.post('/sign-out', async (c) => {
    const cookie = /(?:^|;\s*)tokenforge_console=([^;]+)/.exec(c.req.header('cookie') ?? '')?.[1];
    if (cookie !== undefined) await runtime.governance!.store.deleteSession(consoleSessionIdOf(cookie));
    deleteCookie(c, CONSOLE_SESSION_COOKIE, { path: '/' });
    return c.body(null, 204, SECURITY_HEADERS);
  });
  consoleApp.get('/:file', (c) => {
    const asset = assets.get(c.req.param('file'));
    return asset === undefined || c.req.param('file').endsWith('.html') ? consoleError(c, 404, 'not-found', 'No such console file.') : serve(c, asset);
  });

  app.get('/console', (c) => c.redirect('/console/', 308));
  app.get('/console/', indexPage);
  app.route('/console', consoleApp);
}
