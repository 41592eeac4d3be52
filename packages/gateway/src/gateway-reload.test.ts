import { readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { startProviderSimulator, type ProviderSimulator } from '@tokenforge/provider-simulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  chatThrough,
  killAll,
  PROCESS_CLIENT_KEY,
  PROCESS_ENV,
  PROCESS_SIMULATOR_KEY,
  processTarget,
  scratchFolder,
  startGatewayProcess,
  writeProcessCatalogue,
  type GatewayProcess,
} from './test-support/gateway-processes.js';

let simulator: ProviderSimulator;
let deadUrl: string;
const folder = scratchFolder();
const keyFile = join(folder, 'client-key');

async function closedPortUrl(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return `http://127.0.0.1:${port}/v1`;
}

beforeAll(async () => {
  simulator = await startProviderSimulator({ credentials: { openAiApiKey: PROCESS_SIMULATOR_KEY } });
  deadUrl = await closedPortUrl();
});
afterAll(async () => {
  killAll();
  await simulator.close();
});

const live = (model = 'gpt-4.1-mini') => processTarget(simulator.baseUrlFor('openai-chat/v1') ?? '', model);
/** `dead#0` refuses connections and cools down after one failure; `dead#1` answers. */
const deadModel = () => ({ name: 'dead', taskKind: 'chat', targets: [processTarget(deadUrl), live()], routing: { cooldown: { failures: 1, cooldownMs: 60_000 } } });

function hup(gateway: GatewayProcess): number {
  const from = gateway.logLines.length;
  gateway.child.kill('SIGHUP');
  return from;
}

const reloaded = (line: Record<string, unknown>) => line.event === 'catalogue-reload';
const requestLine = (line: Record<string, unknown>) => line.message === 'request';

describe('catalogue reload on SIGHUP, in a gateway process', () => {
  let gateway: GatewayProcess;
  let path: string;

  beforeAll(async () => {
    writeFileSync(keyFile, `${PROCESS_CLIENT_KEY}\n`);
    path = writeProcessCatalogue(folder, [{ name: 'chat', taskKind: 'chat', targets: [live()] }, deadModel(), { name: 'slow', taskKind: 'chat', targets: [live('slow-first-byte.1500')] }]);
    // The client key comes from a file (the `_FILE` variant), as a container platform mounts it.
    const { PROCESS_CLIENT_KEY: _unused, ...env } = PROCESS_ENV;
    gateway = await startGatewayProcess(['--config', path], { ...env, PROCESS_CLIENT_KEY_FILE: keyFile });
  }, 60_000);

  it('applies a good file to new requests: a new model and an alias appear', async () => {
    expect((await chatThrough(gateway.url, 'added')).status).toBe(404);
    writeProcessCatalogue(folder, [{ name: 'chat', taskKind: 'chat', targets: [live()] }, deadModel(), { name: 'slow', taskKind: 'chat', targets: [live('slow-first-byte.1500')] }, { name: 'added', taskKind: 'chat', targets: [live()] }], {
      aliases: { 'gpt-4o-mini': 'added' },
    });
    const line = await gateway.logLine(reloaded, hup(gateway));
    expect(line).toMatchObject({ result: 'applied', models: 4, targetsAdded: 1, targetsKept: 4, targetsRetired: 0 });
    expect((await chatThrough(gateway.url, 'added')).status).toBe(200);
    expect((await chatThrough(gateway.url, 'gpt-4o-mini')).status).toBe(200);
  });

  it('keeps the running catalogue when the new file is bad, and logs every problem', async () => {
    writeFileSync(path, JSON.stringify({ version: 1, clientKeys: [{ id: 'main', env: 'PROCESS_CLIENT_KEY' }], models: [{ name: 'chat', taskKind: 'chat', targets: [] }], aliases: { a: 'b', b: 'a' } }));
    const line = await gateway.logLine(reloaded, hup(gateway));
    expect(line.result).toBe('refused');
    expect(line.level).toBe(40);
    expect(line.problems).toEqual(expect.arrayContaining([expect.stringMatching(/^models\.0\.targets: /), expect.stringMatching(/^aliases\.a: is part of a cycle/), expect.stringMatching(/^aliases\.b: /)]));
    expect((await chatThrough(gateway.url, 'added')).status).toBe(200);

    writeProcessCatalogue(folder, [{ name: 'chat', taskKind: 'chat', targets: [processTarget(simulator.baseUrlFor('openai-chat/v1') ?? '', 'gpt-4.1-mini', { credentials: { apiKeyEnv: 'NOT_SET_ANYWHERE' } })] }]);
    const unresolved = await gateway.logLine(reloaded, hup(gateway));
    expect(unresolved).toMatchObject({ result: 'refused', problems: ['models.0.targets.0.credentials.apiKeyEnv: the environment variable NOT_SET_ANYWHERE (or NOT_SET_ANYWHERE_FILE) is not set'] });
    expect((await chatThrough(gateway.url, 'gpt-4o-mini')).status).toBe(200);
  });

  it('lets a request in flight finish on the old catalogue while new requests see the new one', async () => {
    const inFlight = chatThrough(gateway.url, 'slow');
    await new Promise((resolve) => setTimeout(resolve, 300));
    writeProcessCatalogue(folder, [{ name: 'chat', taskKind: 'chat', targets: [live()] }, deadModel()]);
    const line = await gateway.logLine(reloaded, hup(gateway));
    expect(line).toMatchObject({ result: 'applied', targetsRetired: 2 });
    expect((await chatThrough(gateway.url, 'slow')).status).toBe(404);
    const answer = await inFlight;
    expect(answer.status).toBe(200);
    expect(((await answer.json()) as { choices: { message: { content: string } }[] }).choices[0]?.message.content).toBeTruthy();
  });

  it('keeps the cooldown state of a target the new file leaves unchanged', async () => {
    let from = gateway.logLines.length;
    expect((await chatThrough(gateway.url, 'dead')).status).toBe(200);
    // The first request paid a failed attempt on dead#0 (refused connection): it now cools down.
    const first = await gateway.logLine((line) => requestLine(line) && line.model === 'dead', from);
    expect((first.attempts as { target: string }[]).map((attempt) => attempt.target)).toEqual(['dead#0', 'dead#1']);
    writeProcessCatalogue(folder, [{ name: 'chat', taskKind: 'chat', targets: [live()] }, deadModel(), { name: 'another', taskKind: 'chat', targets: [live()] }]);
    expect(await gateway.logLine(reloaded, hup(gateway))).toMatchObject({ result: 'applied', targetsKept: 3, targetsAdded: 1 });
    from = gateway.logLines.length;
    expect((await chatThrough(gateway.url, 'dead')).status).toBe(200);
    const after = await gateway.logLine((line) => requestLine(line) && line.model === 'dead', from);
    expect((after.attempts as { target: string }[]).map((attempt) => attempt.target)).toEqual(['dead#1']);
  });

  it('reads a secret from its _FILE again: a rotated client key works after the reload, the old one no longer', async () => {
    const rotated = 'tfg-rotated-client-key-0123456789';
    writeFileSync(keyFile, rotated);
    expect(await gateway.logLine(reloaded, hup(gateway))).toMatchObject({ result: 'applied' });
    expect((await chatThrough(gateway.url, 'chat', rotated)).status).toBe(200);
    expect((await chatThrough(gateway.url, 'chat', PROCESS_CLIENT_KEY)).status).toBe(401);
  });

  it('serves every request of a load while the catalogue reloads several times', async () => {
    writeFileSync(keyFile, PROCESS_CLIENT_KEY);
    expect(await gateway.logLine(reloaded, hup(gateway))).toMatchObject({ result: 'applied' });
    const catalogues = [0, 1].map((variant) => writeProcessCatalogue(folder, [{ name: 'chat', taskKind: 'chat', targets: [live(variant === 0 ? 'gpt-4.1-mini' : 'gpt-4.1')] }], {}, `variant-${variant}.json`));
    const statuses: number[] = [];
    let reloads = 0;
    const started = performance.now();
    const load = Promise.all(
      Array.from({ length: 8 }, async () => {
        for (let index = 0; index < 25; index += 1) statuses.push((await chatThrough(gateway.url, 'chat')).status);
      }),
    );
    for (let round = 0; round < 6; round += 1) {
      writeFileSync(path, readFileSync(catalogues[round % 2] as string, 'utf8'));
      const line = await gateway.logLine(reloaded, hup(gateway));
      expect(line.result).toBe('applied');
      reloads += 1;
    }
    await load;
    const seconds = (performance.now() - started) / 1000;
    console.log(`reload under load: ${statuses.length} requests at concurrency 8 in ${seconds.toFixed(2)} s across ${reloads} reloads, non-200: ${statuses.filter((status) => status !== 200).length}`);
    expect(statuses).toHaveLength(200);
    expect(statuses.filter((status) => status !== 200)).toEqual([]);
  }, 60_000);
});

describe('catalogue reload on a file change (--watch-config)', () => {
  it('reloads when the file changes, with no signal', async () => {
    const own = scratchFolder();
    const path = writeProcessCatalogue(own, [{ name: 'chat', taskKind: 'chat', targets: [live()] }]);
    const gateway = await startGatewayProcess(['--config', path, '--watch-config'], PROCESS_ENV);
    const from = gateway.logLines.length;
    writeProcessCatalogue(own, [{ name: 'chat', taskKind: 'chat', targets: [live()] }, { name: 'watched', taskKind: 'chat', targets: [live()] }]);
    expect(await gateway.logLine(reloaded, from)).toMatchObject({ result: 'applied', targetsAdded: 1 });
    expect((await chatThrough(gateway.url, 'watched')).status).toBe(200);
    expect(await gateway.stop()).toBe(0);
  }, 60_000);
});
