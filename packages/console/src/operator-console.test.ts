import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startGateway, type RunningGateway } from '@tokenforge/gateway';
import { startProviderSimulator, type ProviderSimulator } from '@tokenforge/provider-simulator';
import OpenAI from 'openai';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
// @ts-expect-error the build script is plain JavaScript
import { buildConsole } from '../build-console.mjs';

/*
 * The console end to end: the console built to dist/, a gateway (embedded governance store) serving it and the
 * admin API on a real socket, the provider simulator upstream, Debian's Chromium driven by playwright-core, the
 * official OpenAI SDK as the tenant's client, and axe-core for the accessibility checks. Screenshots of each page
 * are written under packages/console/.screenshots/ (ignored by git).
 */

const CHROMIUM = process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium';
const PAGES = ['tenants', 'spend', 'requests', 'targets', 'jobs'] as const;
const SCREENSHOTS = new URL('../.screenshots/', import.meta.url).pathname;
const PRICE = { currency: 'USD', version: 'console-price-1', inputPerMillion: '2000', outputPerMillion: '8000' };

let simulator: ProviderSimulator;
let gateway: RunningGateway;
let browser: Browser;
let context: BrowserContext;
let page: Page;
let dataDir: string;
/** Requests the browser made anywhere but the gateway (the console must make none), and script errors. */
const external: string[] = [];
const pageErrors: string[] = [];

async function startConsoleGateway(): Promise<RunningGateway> {
  const family = 'openai-chat/v1';
  const credentials = simulator.credentialsFor(family);
  if (credentials?.type !== 'api-key') throw new Error('the simulator has no API key for openai-chat/v1');
  return startGateway({
    dataDir,
    env: { CONSOLE_TEST_CLIENT_KEY: 'tfg-console-static-key-0123456789', SIM_OPENAI_KEY: credentials.apiKey },
    logger: { write: () => undefined },
    catalogue: {
      version: 1,
      clientKeys: [{ id: 'static', env: 'CONSOLE_TEST_CLIENT_KEY' }],
      models: [
        {
          name: 'chat',
          taskKind: 'chat',
          targets: [
            {
              provider: 'simulator',
              family,
              model: 'text',
              baseUrl: simulator.baseUrlFor(family) ?? simulator.url,
              credentials: { apiKeyEnv: 'SIM_OPENAI_KEY' },
              network: { allowLoopback: true },
              price: PRICE,
            },
          ],
        },
        {
          // The first target answers 503 (retried once on it), then the request falls back to the second.
          name: 'fallback',
          taskKind: 'chat',
          targets: ['error.503', 'text'].map((model) => ({
            provider: 'simulator',
            family,
            model,
            baseUrl: simulator.baseUrlFor(family) ?? simulator.url,
            credentials: { apiKeyEnv: 'SIM_OPENAI_KEY' },
            network: { allowLoopback: true },
            price: PRICE,
          })),
        },
      ],
    },
  });
}

/** axe-core's WCAG 2 A and AA violations on the page as it is now (`id (nodes)` each). */
async function axeViolations(): Promise<string[]> {
  await page.addScriptTag({ path: createRequire(import.meta.url).resolve('axe-core/axe.min.js') });
  return page.evaluate(async () => {
    const result = await (window as unknown as { axe: { run: (context: Document, options: unknown) => Promise<{ violations: { id: string; nodes: unknown[] }[] }> } }).axe.run(document, {
      runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] },
    });
    return result.violations.map((violation) => `${violation.id} (${violation.nodes.length})`);
  });
}

/** The page text of the console's `main` landmark. */
async function mainText(): Promise<string> {
  return page.locator('main').innerText();
}

/** Opens a page and waits for its own render: a hash change keeps the previous page in `main` until the new one is drawn. */
async function openPage(name: (typeof PAGES)[number], query = ''): Promise<void> {
  const url = `${gateway.url}/console/#/${name}${query}`;
  if (page.url() === url) await page.reload();
  else await page.goto(url);
  await page.locator(`main[data-route="${`#/${name}${query}`}"]`).waitFor();
}

beforeAll(async () => {
  await buildConsole();
  dataDir = mkdtempSync(join(tmpdir(), 'tokenforge-console-'));
  simulator = await startProviderSimulator();
  gateway = await startConsoleGateway();
  browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  // axe-core is injected as a script: the console's CSP (script-src 'self') would refuse it otherwise.
  context = await browser.newContext({ bypassCSP: true });
  page = await context.newPage();
  page.setDefaultTimeout(10_000);
  page.on('pageerror', (error) => pageErrors.push(error.message));
  page.on('request', (request) => {
    if (!request.url().startsWith(gateway.url) && !request.url().startsWith('blob:') && !request.url().startsWith('data:')) external.push(request.url());
  });
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await gateway?.close();
  await simulator?.close();
  if (dataDir !== undefined) rmSync(dataDir, { recursive: true, force: true });
});

describe('operator console', () => {
  it('serves nothing of the console without a session: every page shows the sign-in form, files and APIs answer 401', async () => {
    for (const name of PAGES) {
      await page.goto(`${gateway.url}/console/#/${name}`);
      expect(await page.getByLabel('Admin key').isVisible()).toBe(true);
      expect(await page.locator('nav').count()).toBe(0);
    }
    for (const path of ['/console/app.js', '/console/app.css', '/console/session', '/console/index.html']) {
      const response = await fetch(`${gateway.url}${path}`);
      expect([path, response.status]).toEqual([path, 401]);
    }
    const signIn = await fetch(`${gateway.url}/console/`);
    expect(signIn.headers.get('content-security-policy')).toContain("script-src 'self'");
    expect(await signIn.text()).not.toContain('app.js');
    expect((await fetch(`${gateway.url}/admin/v1/tenants`)).status).toBe(401);
  });

  it('refuses a wrong admin key, then signs in with the right one: HttpOnly, SameSite=Strict session cookie', async () => {
    await page.goto(`${gateway.url}/console/`);
    await page.getByLabel('Admin key').fill('not-the-admin-key');
    await page.getByRole('button', { name: 'Sign in' }).click();
    expect(await page.getByRole('alert').innerText()).toBe('That is not the admin key.');
    await page.getByLabel('Admin key').fill(gateway.governance!.adminKey);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Tenants and keys' }).waitFor();
    const [cookie] = await context.cookies();
    expect(cookie).toMatchObject({ name: 'tokenforge_console', httpOnly: true, sameSite: 'Strict', secure: false, path: '/' });
    expect(await page.evaluate(() => document.cookie)).toBe('');
  });

  it('creates a tenant and a key, the key works through the OpenAI SDK, the request and its spend show, the budget bar moves, a revoked key is refused', async () => {
    await openPage('tenants');
    const create = page.getByRole('form', { name: 'Create tenant' });
    await create.getByLabel('Tenant id').fill('acme');
    await create.getByLabel('Name').fill('Acme Corp');
    await create.getByLabel('Budget (amount)').fill('1000');
    await create.getByRole('button', { name: 'Create tenant' }).click();
    const tenant = page.locator('section[data-tenant="acme"]');
    await tenant.waitFor();
    const budgetBar = tenant.getByRole('progressbar', { name: 'Budget of acme' });
    expect(await budgetBar.getAttribute('aria-valuetext')).toBe('0.000000 USD spent of 1000.000000 USD per month');

    await tenant.getByRole('button', { name: 'Create key' }).click();
    const shown = tenant.locator('[data-api-key]');
    await shown.waitFor();
    const apiKey = (await shown.innerText()).trim();
    expect(apiKey).toMatch(/^\S{20,}$/);
    await tenant.getByRole('button', { name: 'Copy key' }).waitFor();

    const openai = new OpenAI({ apiKey, baseURL: `${gateway.url}/v1`, maxRetries: 0 });
    const completion = await openai.chat.completions.create({ model: 'chat', messages: [{ role: 'user', content: 'hello console' }] });
    expect(completion.choices[0]?.message.content).toBeTruthy();
    await gateway.governance!.settled();

    await expect
      .poll(async () => {
        await openPage('requests');
        return mainText();
      }, { timeout: 15_000 })
      .toContain('acme');
    expect(await mainText()).toMatch(/chat[\s\S]*200/);

    await openPage('spend', '?groupBy=tenant');
    const spendRow = page.locator('main table tbody tr', { hasText: 'acme' });
    const cost = Number(await spendRow.locator('td').nth(2).innerText());
    expect(cost).toBeGreaterThan(0);
    expect(await page.locator('main svg[role="img"]').count()).toBe(1);
    const csv = await page.evaluate(async () => (await fetch((document.querySelector('a[download]') as HTMLAnchorElement).href)).text());
    expect(csv.split('\r\n')[0]).toBe('tenant,currency,cost,attempts,input tokens,output tokens');
    expect(csv).toContain('acme,USD,');

    await openPage('tenants');
    const after = await page.locator('section[data-tenant="acme"]').getByRole('progressbar', { name: 'Budget of acme' }).getAttribute('aria-valuetext');
    expect(after).toMatch(/^\d+\.\d{6} USD spent of 1000\.000000 USD per month$/);
    expect(after).not.toBe('0.000000 USD spent of 1000.000000 USD per month');

    await page.locator('section[data-tenant="acme"]').getByRole('button', { name: /^Revoke key / }).click();
    await page.locator('section[data-tenant="acme"]').getByText(/revoked \d{4}-/).waitFor();
    const refused = await openai.chat.completions.create({ model: 'chat', messages: [{ role: 'user', content: 'again' }] }).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(OpenAI.AuthenticationError);
  });

  it('shows one request\'s attempts (target, family, outcome, timings) and, live, each target\'s error rate, latency percentiles and pool use', async () => {
    const admin = async (path: string, body: unknown) =>
      (await fetch(`${gateway.url}/admin/v1${path}`, { method: 'POST', headers: { authorization: `Bearer ${gateway.governance!.adminKey}`, 'content-type': 'application/json' }, body: JSON.stringify(body) })).json();
    await admin('/tenants', { id: 'globex', name: 'Globex' });
    const { apiKey } = (await admin('/keys', { tenantId: 'globex' })) as { apiKey: string };
    const openai = new OpenAI({ apiKey, baseURL: `${gateway.url}/v1`, maxRetries: 0 });
    const { response } = await openai.chat.completions.create({ model: 'fallback', messages: [{ role: 'user', content: 'hello attempts' }] }).withResponse();
    const requestId = response.headers.get('x-request-id')!;
    await expect
      .poll(async () => {
        await openPage('requests', '?model=fallback');
        return mainText();
      }, { timeout: 15_000 })
      .toContain(requestId);
    await page.getByRole('link', { name: `3 attempts of request ${requestId}` }).click();
    await page.getByRole('heading', { name: `Request ${requestId}` }).waitFor();
    expect(page.url()).toContain(`request=${requestId}`);
    expect(await axeViolations()).toEqual([]);
    mkdirSync(SCREENSHOTS, { recursive: true });
    await page.screenshot({ path: join(SCREENSHOTS, 'request-attempts.png'), fullPage: true });
    const attempts = page.getByRole('table', { name: `Attempts of request ${requestId}` }).locator('tbody tr');
    expect(await attempts.count()).toBe(3);
    const cells = async (index: number) => attempts.nth(index).locator('td').allInnerTexts();
    expect((await cells(0)).slice(0, 5)).toEqual(['1', 'fallback#0', 'simulator', 'openai-chat/v1', 'provider-error']);
    expect((await cells(1)).slice(0, 5)).toEqual(['2', 'fallback#0', 'simulator', 'openai-chat/v1', 'provider-error']);
    const served = await cells(2);
    expect(served.slice(0, 6)).toEqual(['3', 'fallback#1', 'simulator', 'openai-chat/v1', 'ok', '']);
    expect(served[6]).toMatch(/^\d{4}-\d{2}-\d{2}T/);
    expect(served.slice(7)).toEqual([expect.stringMatching(/^\d+ ms$/), expect.stringMatching(/^\d+ ms$/)]);
    // A request outside the listed ones (here: another tenant's) opens by its id.
    await openPage('requests', `?tenantId=acme&request=${requestId}`);
    await page.getByRole('heading', { name: `Request ${requestId}` }).waitFor();
    expect(await page.getByRole('table', { name: `Attempts of request ${requestId}` }).locator('tbody tr').count()).toBe(3);

    await openPage('targets');
    const row = (ref: string) => page.locator('main table tbody tr', { has: page.getByRole('cell', { name: ref, exact: true }) });
    await row('fallback#0').waitFor();
    const failing = await row('fallback#0').locator('td').allInnerTexts();
    expect(failing.slice(6, 8)).toEqual(['2', '100.0%']);
    const healthy = await row('fallback#1').locator('td').allInnerTexts();
    expect(healthy.slice(3, 8)).toEqual(['healthy', '', '0', '1', '0.0%']);
    expect(healthy.slice(8, 11)).toEqual([expect.stringMatching(/^\d+ ms$/), expect.stringMatching(/^\d+ ms$/), expect.stringMatching(/^\d+ ms$/)]);
    expect(healthy[11]).toMatch(/^0 of \d+$/);
    expect(await page.getByRole('status').innerText()).toMatch(/from instance \S+:\d+/);
    // Live: another request shows on the open page at its next refresh.
    await openai.chat.completions.create({ model: 'fallback', messages: [{ role: 'user', content: 'hello again' }] });
    await expect.poll(async () => (await row('fallback#1').locator('td').allInnerTexts())[6], { timeout: 12_000 }).toBe('2');
  });

  it('refuses a change made with the session but without its CSRF token (or with a wrong one)', async () => {
    await openPage('tenants');
    const answers = await page.evaluate(async () => {
      const post = async (headers: Record<string, string>) => {
        const response = await fetch('/admin/v1/tenants', { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify({ id: 'csrf-victim', name: 'x' }) });
        return { status: response.status, body: (await response.json()) as unknown };
      };
      return [await post({}), await post({ 'x-csrf-token': 'forged' }), (await fetch('/admin/v1/tenants')).status];
    });
    expect(answers[0]).toEqual({ status: 403, body: { error: { code: 'csrf-token-invalid', message: expect.any(String) } } });
    expect((answers[1] as { status: number }).status).toBe(403);
    expect(answers[2]).toBe(200);
    const tenants = (await (await fetch(`${gateway.url}/admin/v1/tenants`, { headers: { authorization: `Bearer ${gateway.governance!.adminKey}` } })).json()) as { tenants: { id: string }[] };
    expect(tenants.tenants.map((entry) => entry.id)).not.toContain('csrf-victim');
  });

  it('passes axe-core (WCAG 2 A and AA: labels, contrast, landmarks) on every page, and is usable from the keyboard', async () => {
    mkdirSync(SCREENSHOTS, { recursive: true });
    for (const name of PAGES) {
      await openPage(name);
      if (name === 'targets') await page.getByRole('status').filter({ hasText: 'Updated' }).waitFor();
      expect([name, await axeViolations()]).toEqual([name, []]);
      await page.screenshot({ path: join(SCREENSHOTS, `${name}.png`), fullPage: true });
    }
    await page.goto(`${gateway.url}/console/`);
    await page.locator('main h1').waitFor();
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Skip to content');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Spend');
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'Spend', level: 1 }).waitFor();
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('main');
    expect(external).toEqual([]);
    expect(pageErrors).toEqual([]);
  });

  it('signs out: the session is deleted from the store, the old cookie opens nothing', async () => {
    const [cookie] = await context.cookies();
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByLabel('Admin key').waitFor();
    const stale = { cookie: `tokenforge_console=${cookie!.value}` };
    expect((await fetch(`${gateway.url}/console/app.js`, { headers: stale })).status).toBe(401);
    expect((await fetch(`${gateway.url}/admin/v1/tenants`, { headers: stale })).status).toBe(401);
  });

  it('throttles failed sign-ins per address: after 5 failures even the right key waits (429, Retry-After)', async () => {
    const signIn = (adminKey: string) => fetch(`${gateway.url}/console/session`, { method: 'POST', body: new URLSearchParams({ adminKey }), redirect: 'manual' });
    // The successful sign-in above cleared this address's earlier failure.
    for (let attempt = 0; attempt < 5; attempt += 1) expect((await signIn(`wrong-${attempt}`)).status).toBe(401);
    const throttled = await signIn(gateway.governance!.adminKey);
    expect(throttled.status).toBe(429);
    expect(Number(throttled.headers.get('retry-after'))).toBeGreaterThan(500);
    expect(throttled.headers.get('set-cookie')).toBeNull();
  });
});
