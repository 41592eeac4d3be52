import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { startProviderSimulator, type ProviderSimulator } from '@tokenforge/provider-simulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chatThrough, killAll, PROCESS_CLIENT_KEY, PROCESS_ENV, PROCESS_SIMULATOR_KEY, processTarget, scratchFolder, startGatewayProcess, writeProcessCatalogue, type GatewayProcess } from './test-support/gateway-processes.js';

/*
 * A reload applies the catalogue's `limits`, `jobs` and `metrics` sections too, tested with SIGHUP on a gateway
 * process: limits hold for requests that start after the reload (a request in flight keeps its own), the metrics
 * endpoint moves (bound before the old one closes; a port that cannot be bound keeps the old endpoint, logged), and a
 * `governance` change is logged as needing a restart.
 */

let simulator: ProviderSimulator;
const folder = scratchFolder();

beforeAll(async () => {
  simulator = await startProviderSimulator({ credentials: { openAiApiKey: PROCESS_SIMULATOR_KEY } });
});
afterAll(async () => {
  killAll();
  await simulator.close();
});

const live = (model = 'gpt-4.1-mini') => processTarget(simulator.baseUrlFor('openai-chat/v1') ?? '', model);
const models = () => [
  { name: 'chat', taskKind: 'chat', targets: [live()] },
  { name: 'slow', taskKind: 'chat', targets: [live('slow-first-byte.1500')] },
];
const reloaded = (line: Record<string, unknown>) => line.event === 'catalogue-reload';
const kept = (line: Record<string, unknown>) => line.event === 'catalogue-reload-setting-kept';

function hup(gateway: GatewayProcess): number {
  const from = gateway.logLines.length;
  gateway.child.kill('SIGHUP');
  return from;
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

async function scrapes(url: string): Promise<boolean> {
  try {
    return (await fetch(`${url}/metrics`, { signal: AbortSignal.timeout(2000) })).status === 200;
  } catch {
    return false;
  }
}

const bigChat = (url: string, bytes: number) =>
  fetch(`${url}/v1/chat/completions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${PROCESS_CLIENT_KEY}`, 'content-type': 'application/json' },
    body: JSON.stringify({ model: 'chat', messages: [{ role: 'user', content: 'x'.repeat(bytes) }] }),
  });

describe('a reload applies limits, jobs and metrics (SIGHUP, gateway process)', () => {
  let gateway: GatewayProcess;
  let path: string;
  let firstMetricsPort: number;

  beforeAll(async () => {
    firstMetricsPort = await freePort();
    path = writeProcessCatalogue(folder, models(), { limits: { maxConcurrentRequests: 1 }, metrics: { port: firstMetricsPort } });
    gateway = await startGatewayProcess(['--config', path], PROCESS_ENV);
  }, 60_000);

  it('limits: a raised concurrency cap and a lowered body cap hold for the next requests', async () => {
    const held = chatThrough(gateway.url, 'slow');
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect((await chatThrough(gateway.url, 'chat')).status).toBe(429);
    expect((await held).status).toBe(200);
    expect((await bigChat(gateway.url, 4000)).status).toBe(200);

    writeProcessCatalogue(folder, models(), { limits: { maxConcurrentRequests: 4, maxBodyBytes: 2000 }, metrics: { port: firstMetricsPort } });
    expect(await gateway.logLine(reloaded, hup(gateway))).toMatchObject({ result: 'applied', settingsApplied: ['limits'], settingsKept: [] });
    const slow = chatThrough(gateway.url, 'slow');
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect((await chatThrough(gateway.url, 'chat')).status).toBe(200);
    expect((await slow).status).toBe(200);
    expect((await bigChat(gateway.url, 4000)).status).toBe(413);
  }, 30_000);

  it('limits: a request in flight keeps the deadline it started with; a new one gets the lowered one', async () => {
    writeProcessCatalogue(folder, models(), { limits: { maxConcurrentRequests: 4 }, metrics: { port: firstMetricsPort } });
    expect(await gateway.logLine(reloaded, hup(gateway))).toMatchObject({ result: 'applied', settingsApplied: ['limits'] });
    const inFlight = chatThrough(gateway.url, 'slow');
    await new Promise((resolve) => setTimeout(resolve, 300));
    writeProcessCatalogue(folder, models(), { limits: { maxConcurrentRequests: 4, requestTimeoutMs: 500 }, metrics: { port: firstMetricsPort } });
    expect(await gateway.logLine(reloaded, hup(gateway))).toMatchObject({ result: 'applied', settingsApplied: ['limits'] });
    const started = performance.now();
    const after = await chatThrough(gateway.url, 'slow');
    expect(after.status).not.toBe(200);
    // Cut at the new 500 ms deadline, well before the simulator's 1.5 s first byte.
    expect(performance.now() - started).toBeLessThan(1400);
    expect((await inFlight).status).toBe(200);
  }, 30_000);

  it('metrics: a new port is bound and the old one closed; a port in use keeps the old endpoint, logged', async () => {
    expect(await scrapes(`http://127.0.0.1:${firstMetricsPort}`)).toBe(true);
    const secondPort = await freePort();
    writeProcessCatalogue(folder, models(), { limits: { maxConcurrentRequests: 4, requestTimeoutMs: 500 }, metrics: { port: secondPort } });
    expect(await gateway.logLine(reloaded, hup(gateway))).toMatchObject({ result: 'applied', settingsApplied: ['metrics'], settingsKept: [] });
    expect(await scrapes(`http://127.0.0.1:${secondPort}`)).toBe(true);
    expect(await scrapes(`http://127.0.0.1:${firstMetricsPort}`)).toBe(false);

    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const takenPort = (taken.address() as AddressInfo).port;
    try {
      writeProcessCatalogue(folder, models(), { limits: { maxConcurrentRequests: 4, requestTimeoutMs: 500 }, metrics: { port: takenPort } });
      const from = hup(gateway);
      expect(await gateway.logLine(kept, from)).toMatchObject({ level: 40, setting: 'metrics', message: expect.stringContaining('EADDRINUSE') });
      expect(await gateway.logLine(reloaded, from)).toMatchObject({ result: 'applied', settingsApplied: [], settingsKept: [expect.stringContaining('old one keeps serving')] });
      expect(await scrapes(`http://127.0.0.1:${secondPort}`)).toBe(true);
    } finally {
      await new Promise((resolve) => taken.close(resolve));
    }
  }, 30_000);

  it('a file naming an unset jobs key is refused whole; a governance or console change is logged as needing a restart', async () => {
    writeProcessCatalogue(folder, models(), { limits: { maxConcurrentRequests: 4, requestTimeoutMs: 500 }, jobs: { signingKeyEnv: 'PROCESS_CLIENT_KEY_LONG', handleTtlSeconds: 60 }, governance: { store: 'off' } });
    const from = hup(gateway);
    const refused = await gateway.logLine(reloaded, from);
    // PROCESS_CLIENT_KEY_LONG is not set: the whole file is refused first, nothing of it applies.
    expect(refused).toMatchObject({ result: 'refused', problems: [expect.stringContaining('jobs.signingKeyEnv')] });
    writeProcessCatalogue(folder, models(), { limits: { maxConcurrentRequests: 4, requestTimeoutMs: 500 }, metrics: { port: 0 }, governance: { pollIntervalMs: 500 }, console: { trustForwardedProto: true } });
    const next = hup(gateway);
    expect(await gateway.logLine(kept, next)).toMatchObject({ level: 40, setting: 'governance', message: expect.stringContaining('restart') });
    expect(await gateway.logLine((line) => kept(line) && line.setting === 'console', next)).toMatchObject({ level: 40 });
    expect(await gateway.logLine(reloaded, next)).toMatchObject({ result: 'applied', settingsApplied: ['metrics'], settingsKept: [expect.stringContaining('governance'), expect.stringContaining('console')] });
    // A jobs section whose key resolves (33 characters) applies.
    writeProcessCatalogue(folder, models(), { limits: { maxConcurrentRequests: 4, requestTimeoutMs: 500 }, metrics: { port: 0 }, governance: { pollIntervalMs: 500 }, console: { trustForwardedProto: true }, jobs: { signingKeyEnv: 'PROCESS_CLIENT_KEY', handleTtlSeconds: 60 } });
    expect(await gateway.logLine(reloaded, hup(gateway))).toMatchObject({ result: 'applied', settingsApplied: ['jobs'], settingsKept: [] });
  }, 30_000);

  it('serves every request of a load while limits and the metrics port change on each of several reloads', async () => {
    writeProcessCatalogue(folder, models(), { limits: { maxConcurrentRequests: 16 }, metrics: { port: await freePort() } });
    expect(await gateway.logLine(reloaded, hup(gateway))).toMatchObject({ result: 'applied' });
    const statuses: number[] = [];
    const load = Promise.all(
      Array.from({ length: 8 }, async () => {
        for (let index = 0; index < 25; index += 1) statuses.push((await chatThrough(gateway.url, 'chat')).status);
      }),
    );
    const started = performance.now();
    for (let round = 0; round < 6; round += 1) {
      writeProcessCatalogue(folder, models(), { limits: { maxConcurrentRequests: 16 + round, requestTimeoutMs: 10_000 }, metrics: { port: await freePort() } });
      expect(await gateway.logLine(reloaded, hup(gateway))).toMatchObject({ result: 'applied', settingsApplied: ['limits', 'metrics'] });
    }
    await load;
    console.log(`settings reload under load: ${statuses.length} requests at concurrency 8 in ${((performance.now() - started) / 1000).toFixed(2)} s across 6 reloads of limits and metrics, non-200: ${statuses.filter((status) => status !== 200).length}`);
    expect(statuses).toHaveLength(200);
    expect(statuses.filter((status) => status !== 200)).toEqual([]);
    expect(await gateway.stop()).toBe(0);
  }, 60_000);
});
