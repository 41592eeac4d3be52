import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GatewayTargetV1 } from './catalogue/gateway-catalogue-v1.js';
import { startGateway, type RunningGateway } from './start-gateway.js';
import { createLogCapture, eventually } from './test-support/log-capture.js';
import { TEST_CLIENT_KEY } from './test-support/simulator-catalogue.js';

const UPSTREAM_KEY = 'sk-pool-metrics-upstream-key-000';
const held: ServerResponse[] = [];
let holding: { url: string; requests: number; close(): Promise<void> };
let quick: { url: string; requests: number; close(): Promise<void> };
let gateway: RunningGateway;
let dataDir: string;

/** An OpenAI-compatible upstream on a real socket: `hold` keeps every stream open until the test ends it. */
async function upstream(hold: boolean): Promise<{ url: string; requests: number; close(): Promise<void> }> {
  const state = { url: '', requests: 0, close: async () => undefined as void };
  const server = createServer((request, response) => {
    state.requests += 1;
    request.resume();
    request.on('end', () => {
      if (hold) {
        response.writeHead(200, { 'content-type': 'text/event-stream' });
        response.write(`data: ${JSON.stringify({ id: 'c1', object: 'chat.completion.chunk', created: 1, model: 'm', choices: [{ index: 0, delta: { role: 'assistant', content: 'hi' }, finish_reason: null }] })}\n\n`);
        held.push(response);
        return;
      }
      setTimeout(() => {
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end(JSON.stringify({ id: 'c2', object: 'chat.completion', created: 1, model: 'm', choices: [{ index: 0, message: { role: 'assistant', content: 'ok' }, finish_reason: 'stop' }], usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 } }));
      }, 20);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  state.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  state.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return state;
}

const target = (baseUrl: string, extra: Partial<GatewayTargetV1> = {}): GatewayTargetV1 => ({
  provider: 'local', family: 'openai-chat/v1', model: 'm', baseUrl, credentials: { apiKeyEnv: 'UPSTREAM_KEY' }, network: { allowLoopback: true }, ...extra,
});

beforeAll(async () => {
  holding = await upstream(true);
  quick = await upstream(false);
  dataDir = mkdtempSync(join(tmpdir(), 'tokenforge-pool-metrics-'));
  gateway = await startGateway({
    catalogue: {
      version: 1,
      clientKeys: [{ id: 'main', env: 'TEST_CLIENT_KEY' }],
      models: [
        // A queued request waits up to connectMs for a connection: long enough to be seen in a scrape.
        { name: 'held', taskKind: 'chat', targets: [target(holding.url, { maxConnections: 2, timeouts: { connectMs: 20_000 } })] },
        { name: 'busy', taskKind: 'chat', targets: [target(quick.url, { maxConnections: 4 })] },
      ],
      metrics: { port: 0 },
    },
    env: { TEST_CLIENT_KEY, UPSTREAM_KEY },
    dataDir,
    logger: createLogCapture(),
  });
});
afterAll(async () => {
  for (const response of held) response.destroy();
  await gateway?.close();
  await holding?.close();
  await quick?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

const chat = (model: string, stream: boolean, signal?: AbortSignal) =>
  fetch(`${gateway.url}/v1/chat/completions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${TEST_CLIENT_KEY}`, 'content-type': 'application/json' },
    body: JSON.stringify({ model, stream, messages: [{ role: 'user', content: 'hi' }] }),
    ...(signal === undefined ? {} : { signal }),
  });

/** `name{labels} value` lines of a scrape, as label text to value. */
async function scrape(name: string): Promise<Map<string, number>> {
  const response = await fetch(`${gateway.metricsUrl}/metrics`);
  expect(response.status).toBe(200);
  const series = new Map<string, number>();
  for (const line of (await response.text()).split('\n')) {
    const match = new RegExp(`^${name}\\{([^}]*)\\} (\\S+)$`).exec(line);
    if (match !== null) series.set(match[1] as string, Number(match[2]));
  }
  return series;
}

const HELD = 'model="held",target="held#0",provider="local"';
const BUSY = 'model="busy",target="busy#0",provider="local"';

describe('upstream pool use in /metrics and /admin/v1/targets, scraped under load', () => {
  it('shows connections in use, the pool size and queued requests per catalogue target while requests run, and all free after', async () => {
    const controller = new AbortController();
    const streams = [await chat('held', true, controller.signal), await chat('held', true, controller.signal)];
    for (const stream of streams) expect(stream.status).toBe(200);
    // A third request finds both connections busy and waits for one.
    const queued = chat('held', true, controller.signal).catch(() => undefined);
    // Load on the other target while scraping: 40 requests, at most 4 connections.
    let load = true;
    const answered: number[] = [];
    const loaders = Array.from({ length: 8 }, async () => {
      while (load) answered.push((await (await chat('busy', false)).json(), 1));
    });
    await eventually(() => answered.length >= 5, 10_000);
    await eventually(() => held.length === 2, 5_000);
    const deadline = Date.now() + 5_000;
    let inUse = await scrape('tokenforge_gateway_upstream_connections_in_use');
    let waiting = await scrape('tokenforge_gateway_upstream_queued_requests');
    while (waiting.get(HELD) !== 1 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      inUse = await scrape('tokenforge_gateway_upstream_connections_in_use');
      waiting = await scrape('tokenforge_gateway_upstream_queued_requests');
    }
    expect(inUse.get(HELD)).toBe(2);
    expect(waiting.get(HELD)).toBe(1);
    expect(inUse.get(BUSY)).toBeGreaterThanOrEqual(0);
    expect(inUse.get(BUSY)).toBeLessThanOrEqual(4);
    expect(waiting.get(BUSY)).toBeGreaterThanOrEqual(0);
    const max = await scrape('tokenforge_gateway_upstream_connections_max');
    expect(Object.fromEntries(max)).toEqual({ [HELD]: 2, [BUSY]: 4 });

    const admin = await fetch(`${gateway.url}/admin/v1/targets`, { headers: { authorization: `Bearer ${gateway.governance?.adminKey ?? ''}` } });
    expect(admin.status).toBe(200);
    const report = (await admin.json()) as { targets: { ref: string; pool?: { connections: number; inUse: number; waiting: number } }[] };
    expect(report.targets.find((entry) => entry.ref === 'held#0')?.pool).toEqual({ connections: 2, inUse: 2, waiting: 1 });
    expect(report.targets.find((entry) => entry.ref === 'busy#0')?.pool?.connections).toBe(4);

    load = false;
    await Promise.all(loaders);
    controller.abort();
    for (const response of held.splice(0)) response.destroy();
    await queued;
    await eventually(() => gateway.inFlight === 0, 5_000);
    const after = Date.now() + 5_000;
    let settled = await scrape('tokenforge_gateway_upstream_connections_in_use');
    while ((settled.get(HELD) !== 0 || settled.get(BUSY) !== 0) && Date.now() < after) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      settled = await scrape('tokenforge_gateway_upstream_connections_in_use');
    }
    expect(Object.fromEntries(settled)).toEqual({ [HELD]: 0, [BUSY]: 0 });
    expect((await scrape('tokenforge_gateway_upstream_queued_requests')).get(HELD)).toBe(0);
    expect(quick.requests).toBeGreaterThanOrEqual(5);
  }, 30_000);
});
