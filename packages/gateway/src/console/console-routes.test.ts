import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openEmbeddedGovernanceStore, type EmbeddedGovernanceStore } from '../governance/embedded/embedded-governance-store.js';
import type { GatewayRuntime } from '../runtime/gateway-runtime.js';
import { registerConsoleRoutes } from './console-routes.js';

/*
 * The console routes on their own (the browser test in packages/console covers them through a real gateway): what a
 * browser cannot show there, the Secure attribute over TLS and the cross-origin sign-in refusal.
 */

const ADMIN_KEY = 'console-routes-admin-key-0123456789';
let dataDir: string;
let assetsDir: string;
let store: EmbeddedGovernanceStore;
let app: Hono;
/** The same routes with `console.trustForwardedProto` set (behind a TLS-terminating proxy). */
let proxied: Hono;

beforeAll(() => {
  dataDir = mkdtempSync(join(tmpdir(), 'tokenforge-console-routes-'));
  assetsDir = mkdtempSync(join(tmpdir(), 'tokenforge-console-assets-'));
  writeFileSync(join(assetsDir, 'index.html'), '<!doctype html><title>app</title>');
  writeFileSync(join(assetsDir, 'sign-in.html'), '<!doctype html><title>sign in</title><!--sign-in-status-->');
  store = openEmbeddedGovernanceStore({ dataDirectory: dataDir });
  app = new Hono();
  // Only the governance part of the runtime is read by the console routes.
  registerConsoleRoutes(app, { governance: { store, adminKey: ADMIN_KEY } } as unknown as GatewayRuntime, assetsDir);
  proxied = new Hono();
  registerConsoleRoutes(proxied, { governance: { store, adminKey: ADMIN_KEY }, console: { trustForwardedProto: true } } as unknown as GatewayRuntime, assetsDir);
});
afterAll(async () => {
  await store.close();
  rmSync(dataDir, { recursive: true, force: true });
  rmSync(assetsDir, { recursive: true, force: true });
});

const signIn = (origin: string, adminKey = ADMIN_KEY, headers: Record<string, string> = {}, on: Hono = app) =>
  on.request(`${origin}/console/session`, { method: 'POST', body: new URLSearchParams({ adminKey }), headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers } });

describe('console routes', () => {
  it('sets the session cookie Secure over TLS, not over plain HTTP; HttpOnly and SameSite=Strict on both', async () => {
    const tls = await signIn('https://console.example');
    expect(tls.status).toBe(303);
    expect(tls.headers.get('set-cookie')).toMatch(/^tokenforge_console=[\w-]{43}; Max-Age=28800; Path=\/; HttpOnly; Secure; SameSite=Strict$/);
    const plain = await signIn('http://console.example');
    expect(plain.headers.get('set-cookie')).toMatch(/^tokenforge_console=[\w-]{43}; Max-Age=28800; Path=\/; HttpOnly; SameSite=Strict$/);
  });

  it('behind a TLS-terminating proxy: Secure for X-Forwarded-Proto https only when trustForwardedProto is set', async () => {
    const secure = /; Secure;/;
    expect((await signIn('http://console.example', ADMIN_KEY, { 'x-forwarded-proto': 'https' }, proxied)).headers.get('set-cookie')).toMatch(secure);
    expect((await signIn('http://console.example', ADMIN_KEY, { 'x-forwarded-proto': 'https, http' }, proxied)).headers.get('set-cookie')).toMatch(secure);
    expect((await signIn('http://console.example', ADMIN_KEY, { 'x-forwarded-proto': 'http' }, proxied)).headers.get('set-cookie')).not.toMatch(secure);
    expect((await signIn('http://console.example', ADMIN_KEY, {}, proxied)).headers.get('set-cookie')).not.toMatch(secure);
    // Off by default: a client could send the header itself.
    expect((await signIn('http://console.example', ADMIN_KEY, { 'x-forwarded-proto': 'https' })).headers.get('set-cookie')).not.toMatch(secure);
  });

  it('throttles failed sign-ins in the governance store: the sixth try within the window is refused on any routes over that store', async () => {
    for (let index = 0; index < 3; index += 1) expect((await signIn('http://console.example', 'wrong-key')).status).toBe(401);
    for (let index = 0; index < 2; index += 1) expect((await signIn('http://console.example', 'wrong-key', {}, proxied)).status).toBe(401);
    const refused = await signIn('http://console.example', ADMIN_KEY);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(590);
    expect((await signIn('http://console.example', ADMIN_KEY, {}, proxied)).status).toBe(429);
    expect(await store.signInRetryAfterMs('unknown', { failuresAllowed: 5, windowMs: 600_000 })).toBeGreaterThan(0);
    await store.clearSignInFailures('unknown');
    expect((await signIn('http://console.example')).status).toBe(303);
  });

  it('answers 503 governance-unavailable, without the error\'s text, when the store cannot count failed sign-ins', async () => {
    const down = new Hono();
    const failing = { signInRetryAfterMs: () => Promise.reject(new Error('redis at 10.0.0.7 refused')) };
    registerConsoleRoutes(down, { governance: { store: failing, adminKey: ADMIN_KEY } } as unknown as GatewayRuntime, assetsDir);
    const answer = await signIn('http://console.example', ADMIN_KEY, {}, down);
    expect(answer.status).toBe(503);
    const body = await answer.text();
    expect(JSON.parse(body)).toEqual({ error: { code: 'governance-unavailable', message: expect.any(String) } });
    expect(body).not.toContain('10.0.0.7');
    expect(answer.headers.get('set-cookie')).toBeNull();
  });

  it('the cookie opens the console; the store holds only its digest', async () => {
    const cookie = (await signIn('http://console.example')).headers.get('set-cookie')!.split(';')[0]!;
    expect(await (await app.request('http://console.example/console/', { headers: { cookie } })).text()).toContain('<title>app</title>');
    expect(await (await app.request('http://console.example/console/')).text()).toContain('<title>sign in</title>');
    expect(await store.findSession(cookie.split('=')[1]!)).toBeUndefined();
  });

  it('refuses a sign-in posted from another origin, even with the right key', async () => {
    const answer = await signIn('http://console.example', ADMIN_KEY, { origin: 'http://attacker.example' });
    expect(answer.status).toBe(403);
    expect(answer.headers.get('set-cookie')).toBeNull();
  });
});
