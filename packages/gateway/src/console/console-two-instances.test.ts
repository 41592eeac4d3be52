import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGatewayProcess, type GatewayProcess } from '../governance/shared/test-support/gateway-process.js';
import { realServersAvailable, startRealServers, type RealServers } from '../governance/shared/test-support/real-servers.js';

/*
 * Console sessions and the sign-in throttle across instances (issue #36): two gateway processes (the CLI) over one
 * real Redis and one real PostgreSQL. A session opened on one works on the other, a sign-out on one ends it on the
 * other, and failed sign-ins on both count against one throttle.
 */

const available = realServersAvailable();
const ADMIN_KEY = `admin-${randomBytes(16).toString('hex')}`;

describe.skipIf(!available)('the console over two gateway processes sharing one Redis and one PostgreSQL', () => {
  let servers: RealServers;
  let folder: string;
  let first: GatewayProcess;
  let second: GatewayProcess;

  beforeAll(async () => {
    servers = await startRealServers();
    folder = mkdtempSync(join(tmpdir(), 'tf-console-two-'));
    const configPath = join(folder, 'catalogue.json');
    writeFileSync(
      configPath,
      JSON.stringify({
        version: 1,
        clientKeys: [{ id: 'static', env: 'TF_CONSOLE_STATIC_KEY' }],
        models: [
          {
            name: 'chat',
            taskKind: 'chat',
            targets: [{ provider: 'nowhere', family: 'openai-chat/v1', model: 'm', baseUrl: 'http://127.0.0.1:9/v1', credentials: { apiKeyEnv: 'TF_CONSOLE_PROVIDER_KEY' }, network: { allowLoopback: true } }],
          },
        ],
        governance: { pollIntervalMs: 200 },
      }),
    );
    const env = {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      REDIS_URL: servers.redis.url,
      DATABASE_URL: servers.postgres.url,
      TOKENFORGE_KEY_HASHING_SECRET: randomBytes(32).toString('hex'),
      TOKENFORGE_ADMIN_KEY: ADMIN_KEY,
      TF_CONSOLE_STATIC_KEY: `static-${randomBytes(12).toString('hex')}`,
      TF_CONSOLE_PROVIDER_KEY: `provider-${randomBytes(12).toString('hex')}`,
    };
    [first, second] = await Promise.all([startGatewayProcess({ configPath, env }), startGatewayProcess({ configPath, env })]);
  }, 180_000);

  afterAll(async () => {
    await Promise.all([first?.stop(5_000), second?.stop(5_000)]);
    await servers?.dispose();
    if (folder !== undefined) rmSync(folder, { recursive: true, force: true });
  });

  const signIn = (instance: GatewayProcess, adminKey: string) =>
    fetch(`${instance.url}/console/session`, { method: 'POST', body: new URLSearchParams({ adminKey }), redirect: 'manual' });

  it('a session opened on one instance works on the other, changes included (with its CSRF token); signed out on one, it is refused on both', async () => {
    const opened = await signIn(first, ADMIN_KEY);
    expect(opened.status).toBe(303);
    const cookie = opened.headers.get('set-cookie')!.split(';')[0]!;
    const session = await fetch(`${second.url}/console/session`, { headers: { cookie } });
    expect(session.status).toBe(200);
    const { csrfToken } = (await session.json()) as { csrfToken: string };
    expect((await fetch(`${second.url}/admin/v1/tenants`, { headers: { cookie } })).status).toBe(200);
    const created = await fetch(`${second.url}/admin/v1/tenants`, {
      method: 'POST',
      headers: { cookie, 'x-csrf-token': csrfToken, 'content-type': 'application/json' },
      body: JSON.stringify({ id: 'two-instances', name: 'Two instances' }),
    });
    expect(created.status).toBe(201);
    expect((await fetch(`${first.url}/admin/v1/tenants`, { headers: { cookie } })).status).toBe(200);

    expect((await fetch(`${first.url}/console/sign-out`, { method: 'POST', headers: { cookie, 'x-csrf-token': csrfToken } })).status).toBe(204);
    for (const instance of [second, first]) {
      expect((await fetch(`${instance.url}/console/session`, { headers: { cookie } })).status).toBe(401);
      expect((await fetch(`${instance.url}/admin/v1/tenants`, { headers: { cookie } })).status).toBe(401);
    }
  });

  it('failed sign-ins on both instances count against one throttle: after 3 + 2 failures, the right key waits on either', async () => {
    for (let attempt = 0; attempt < 3; attempt += 1) expect((await signIn(first, `wrong-${attempt}`)).status).toBe(401);
    for (let attempt = 0; attempt < 2; attempt += 1) expect((await signIn(second, `wrong-${attempt}`)).status).toBe(401);
    for (const instance of [second, first]) {
      const throttled = await signIn(instance, ADMIN_KEY);
      expect(throttled.status).toBe(429);
      expect(Number(throttled.headers.get('retry-after'))).toBeGreaterThan(500);
      expect(throttled.headers.get('set-cookie')).toBeNull();
    }
  });
});
