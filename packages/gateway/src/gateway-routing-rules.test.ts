import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  chatThrough,
  killAll,
  PROCESS_ENV,
  processTarget,
  scratchFolder,
  startGatewayProcess,
  startSimulatorProcess,
  writeProcessCatalogue,
  type GatewayProcess,
  type SimulatorProcess,
} from './test-support/gateway-processes.js';

/** A (killed mid-run, then started again on its port), B (steady), C (serves the slowed models). */
let a: SimulatorProcess;
let b: SimulatorProcess;
let c: SimulatorProcess;
let gateway: GatewayProcess;
const COOLDOWN_MS = 1_500;

beforeAll(async () => {
  [a, b, c] = await Promise.all([startSimulatorProcess(), startSimulatorProcess(), startSimulatorProcess()]);
  const path = writeProcessCatalogue(
    scratchFolder(),
    [
      { name: 'cool', taskKind: 'chat', targets: [processTarget(a), processTarget(b)], routing: { cooldown: { failures: 2, windowMs: 10_000, cooldownMs: COOLDOWN_MS } } },
      { name: 'latency', taskKind: 'chat', targets: [processTarget(c, 'slow-first-byte.400'), processTarget(b)], routing: { balance: 'latency' } },
      { name: 'least-busy', taskKind: 'chat', targets: [processTarget(c, 'slow-first-byte.600'), processTarget(b, 'slow-first-byte.600')], routing: { balance: 'least-in-flight' } },
      { name: 'weighted', taskKind: 'chat', targets: [processTarget(b, 'gpt-4.1-mini', { routing: { weight: 3 } }), processTarget(c, 'gpt-4.1-mini', { routing: { weight: 1 } })], routing: { balance: 'weighted' } },
      { name: 'tiers', taskKind: 'chat', targets: [processTarget(c, 'gpt-4.1-mini', { routing: { tier: 1 } }), processTarget(b, 'gpt-4.1-mini', { routing: { tier: 0 } })] },
      { name: 'strict-keys', taskKind: 'chat', targets: [processTarget(b, 'gpt-4.1-mini', { credentials: { apiKeyEnv: 'WRONG_SIMULATOR_KEY' } }), processTarget(c)] },
      { name: 'spare-keys', taskKind: 'chat', targets: [processTarget(b, 'gpt-4.1-mini', { credentials: { apiKeyEnv: 'WRONG_SIMULATOR_KEY' } }), processTarget(c)], routing: { fallbackOn: ['authentication'] } },
    ],
    { aliases: { 'gpt-4o-mini': 'tiers', mini: 'gpt-4o-mini' } },
  );
  gateway = await startGatewayProcess(['--config', path], { ...PROCESS_ENV, WRONG_SIMULATOR_KEY: 'sk-sim-not-the-right-key-0123' });
}, 90_000);
afterAll(killAll);

/** The targets each attempt of one request went to, from the gateway's operator log. */
async function attemptsOf(model: string, stream = false): Promise<{ status: number; targets: string[] }> {
  const from = gateway.logLines.length;
  const response = await chatThrough(gateway.url, model, undefined, stream);
  await response.arrayBuffer();
  const line = await gateway.logLine((candidate) => candidate.message === 'request' && candidate.model === model, from);
  return { status: response.status, targets: (line.attempts as { target: string }[]).map((attempt) => attempt.target) };
}

describe('routing rules through real processes', () => {
  it('cooldown: a killed target costs N failed attempts, is then skipped, and is probed with one request after the cooldown', async () => {
    expect(await attemptsOf('cool')).toEqual({ status: 200, targets: ['cool#0'] });
    const port = Number(new URL(a.openAiBaseUrl).port);
    a.child.kill('SIGKILL');
    await new Promise((resolve) => a.child.once('exit', resolve));
    expect(await attemptsOf('cool')).toEqual({ status: 200, targets: ['cool#0', 'cool#1'] });
    expect(await attemptsOf('cool')).toEqual({ status: 200, targets: ['cool#0', 'cool#1'] });
    // Two failures within the window: cool#0 cools down and requests go straight to cool#1.
    const cooling = Date.now();
    for (let index = 0; index < 3; index += 1) expect(await attemptsOf('cool')).toEqual({ status: 200, targets: ['cool#1'] });
    // Still dead when the cooldown ends: the one probe fails and a new cooldown starts.
    await new Promise((resolve) => setTimeout(resolve, COOLDOWN_MS - (Date.now() - cooling) + 100));
    expect(await attemptsOf('cool')).toEqual({ status: 200, targets: ['cool#0', 'cool#1'] });
    expect(await attemptsOf('cool')).toEqual({ status: 200, targets: ['cool#1'] });
    // Back on its port: after the next cooldown the probe succeeds and the target is used again.
    a = await startSimulatorProcess(port);
    await new Promise((resolve) => setTimeout(resolve, COOLDOWN_MS + 100));
    expect(await attemptsOf('cool')).toEqual({ status: 200, targets: ['cool#0'] });
    expect(await attemptsOf('cool')).toEqual({ status: 200, targets: ['cool#0'] });
  }, 30_000);

  it('latency balancing: once both are measured, requests go to the target that is not slowed', async () => {
    const targets: string[] = [];
    for (let index = 0; index < 6; index += 1) targets.push(...(await attemptsOf('latency')).targets);
    expect(new Set(targets.slice(0, 2))).toEqual(new Set(['latency#0', 'latency#1']));
    expect(targets.slice(2)).toEqual(['latency#1', 'latency#1', 'latency#1', 'latency#1']);
  }, 30_000);

  it('least-in-flight balancing: concurrent requests spread over the tier instead of queueing on the first target', async () => {
    const from = gateway.logLines.length;
    const responses = await Promise.all(Array.from({ length: 4 }, () => chatThrough(gateway.url, 'least-busy')));
    expect(responses.map((response) => response.status)).toEqual([200, 200, 200, 200]);
    await gateway.logLine(() => gateway.logLines.slice(from).filter((line) => line.model === 'least-busy').length >= 4, from);
    const targets = gateway.logLines
      .slice(from)
      .filter((line) => line.model === 'least-busy')
      .map((line) => (line.attempts as { target: string }[])[0]?.target);
    expect(targets.filter((target) => target === 'least-busy#0')).toHaveLength(2);
    expect(targets.filter((target) => target === 'least-busy#1')).toHaveLength(2);
  }, 30_000);

  it('weighted balancing: a weight 3 target gets most requests, a weight 1 target some', async () => {
    const firsts: string[] = [];
    for (let index = 0; index < 60; index += 1) firsts.push((await attemptsOf('weighted')).targets[0] as string);
    const heavy = firsts.filter((target) => target === 'weighted#0').length;
    expect(heavy).toBeGreaterThan(60 - heavy);
    expect(60 - heavy).toBeGreaterThan(0);
  }, 60_000);

  it('tiers: the lower tier is tried first whatever the catalogue order; an alias (and an alias of an alias) serves the same targets', async () => {
    expect(await attemptsOf('tiers')).toEqual({ status: 200, targets: ['tiers#1'] });
    expect(await attemptsOf('gpt-4o-mini')).toEqual({ status: 200, targets: ['tiers#1'] });
    expect(await attemptsOf('mini')).toEqual({ status: 200, targets: ['tiers#1'] });
  });

  it('fallback classes: a refused credential does not fall back by default, and does where the model lists it', async () => {
    const strict = await attemptsOf('strict-keys');
    expect(strict.status).not.toBe(200);
    expect(strict.targets).toEqual(['strict-keys#0']);
    expect(await attemptsOf('spare-keys')).toEqual({ status: 200, targets: ['spare-keys#0', 'spare-keys#1'] });
  });

  it('never falls back once the first byte reached the client (a stream cut after its start ends in-stream)', async () => {
    const path = writeProcessCatalogue(scratchFolder(), [
      { name: 'cut', taskKind: 'chat', targets: [processTarget(b, 'mid-stream-error'), processTarget(c)], routing: { fallbackOn: ['provider-error', 'overloaded', 'network', 'truncated-stream', 'protocol-violation'] } },
    ]);
    const own = await startGatewayProcess(['--config', path], PROCESS_ENV);
    const from = own.logLines.length;
    const response = await chatThrough(own.url, 'cut', undefined, true);
    expect(response.status).toBe(200);
    await response.text();
    const line = await own.logLine((candidate) => candidate.message === 'request', from);
    expect((line.attempts as { target: string }[]).map((attempt) => attempt.target)).toEqual(['cut#0']);
    expect(String(line.outcome)).toMatch(/^failed-in-stream:/);
    await own.stop();
  }, 60_000);
});
