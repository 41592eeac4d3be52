import { startProviderSimulator, type ProviderSimulator } from '@tokenforge/provider-simulator';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startGateway, type RunningGateway } from './start-gateway.js';
import { createLogCapture, eventually } from './test-support/log-capture.js';
import { simulatorCatalogue, TEST_CLIENT_KEY } from './test-support/simulator-catalogue.js';

// Issue #30 item 7: the jobs API is held to the same process concurrency cap and drain as every model request.
let simulator: ProviderSimulator;
let gateway: RunningGateway;
const log = createLogCapture();

beforeEach(async () => {
  simulator = await startProviderSimulator();
  const { catalogue, env } = simulatorCatalogue(
    simulator,
    [
      { name: 'chat-stall', taskKind: 'chat', targets: [{ family: 'openai-chat/v1', model: 'stall' }] },
      { name: 'video', taskKind: 'video-generation', targets: [{ family: 'kling-video/v1', model: 'kling-v2-master' }] },
    ],
    { maxConcurrentRequests: 1, drainTimeoutMs: 2_000 },
  );
  gateway = await startGateway({ catalogue, env, logger: log });
});
afterEach(async () => {
  await gateway.close();
  await simulator.close();
});

/** A chat request that holds the gateway's only slot until `abort` is called. */
function holdTheSlot(): AbortController {
  const abort = new AbortController();
  void fetch(`${gateway.url}/v1/chat/completions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${TEST_CLIENT_KEY}`, 'content-type': 'application/json' },
    body: JSON.stringify({ model: 'chat-stall', messages: [{ role: 'user', content: 'hold' }] }),
    signal: abort.signal,
  }).catch(() => undefined);
  return abort;
}

const createJob = () =>
  fetch(`${gateway.url}/v1/jobs`, {
    method: 'POST',
    headers: { authorization: `Bearer ${TEST_CLIENT_KEY}`, 'content-type': 'application/json' },
    body: JSON.stringify({ model: 'video', prompt: 'a red fox in snow', durationSeconds: 5 }),
  });

describe('the jobs API under the gateway’s own admission', () => {
  it('a create finds the concurrency cap full and is refused 429, as chat is; with the slot free it is accepted', async () => {
    const holder = holdTheSlot();
    await eventually(() => gateway.inFlight === 1);
    const refused = await createJob();
    expect(refused.status).toBe(429);
    expect(await refused.json()).toMatchObject({ error: { code: 'rate-limited' } });
    holder.abort();
    await eventually(() => gateway.inFlight === 0);
    expect((await createJob()).status).toBe(202);
  });

  it('a create during the drain is refused 503 overloaded, and nothing reaches the provider', async () => {
    const holder = holdTheSlot();
    await eventually(() => gateway.inFlight === 1);
    const before = simulator.requests.length;
    const closing = gateway.close();
    const refused = await createJob();
    expect(refused.status).toBe(503);
    expect(await refused.json()).toMatchObject({ error: { code: 'overloaded' } });
    expect(simulator.requests.slice(before).some((request) => request.path.includes('video'))).toBe(false);
    holder.abort();
    await closing;
  });
});
