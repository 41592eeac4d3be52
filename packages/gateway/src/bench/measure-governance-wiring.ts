/**
 * Governance on (embedded store, a tenant with limits) against off, on the same simulator catalogue: p50 of
 * sequential chat requests through real sockets, and the time `startGateway` takes with a new and a reused data dir.
 * `npx --yes pnpm@12.4.2 exec tsx packages/gateway/src/bench/measure-governance-wiring.ts`
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startProviderSimulator } from '@tokenforge/provider-simulator';
import { startGateway, type RunningGateway } from '../start-gateway.js';

const TEST_CLIENT_KEY = 'tfg-bench-client-key-0123456789';

const REQUESTS = Number(process.env.REQUESTS ?? 600);
const simulator = await startProviderSimulator();
const credentials = simulator.credentialsFor('openai-chat/v1');
const env = { CLIENT_KEY: TEST_CLIENT_KEY, SIM_KEY: credentials?.type === 'api-key' ? credentials.apiKey : '' };
const catalogue = {
  version: 1,
  clientKeys: [{ id: 'main', env: 'CLIENT_KEY' }],
  models: [
    {
      name: 'chat',
      taskKind: 'chat',
      targets: [
        {
          provider: 'simulator',
          family: 'openai-chat/v1',
          model: 'text',
          baseUrl: simulator.baseUrlFor('openai-chat/v1') ?? simulator.url,
          credentials: { apiKeyEnv: 'SIM_KEY' },
          network: { allowLoopback: true },
          price: { currency: 'USD', inputPerMillion: '1', outputPerMillion: '4' },
        },
      ],
    },
  ],
};
const silent = { write: () => {} };
const body = JSON.stringify({ model: 'chat', messages: [{ role: 'user', content: 'hi' }] });

async function p50(gateway: RunningGateway, key: string): Promise<number> {
  const times: number[] = [];
  for (let index = 0; index < REQUESTS; index += 1) {
    const started = performance.now();
    const response = await fetch(`${gateway.url}/v1/chat/completions`, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body });
    await response.arrayBuffer();
    if (response.status !== 200) throw new Error(`status ${response.status}`);
    if (index >= REQUESTS / 5) times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)] as number;
}

const off = await startGateway({ catalogue, env, logger: silent });
const dataDir = mkdtempSync(join(tmpdir(), 'tokenforge-bench-'));
let started = performance.now();
const on = await startGateway({ catalogue, env, logger: silent, dataDir });
const firstStartMs = performance.now() - started;
const admin = (path: string, payload: unknown) =>
  fetch(`${on.url}/admin/v1${path}`, { method: 'POST', headers: { authorization: `Bearer ${on.governance?.adminKey ?? ''}`, 'content-type': 'application/json' }, body: JSON.stringify(payload) }).then(
    (response) => response.json() as Promise<Record<string, unknown>>,
  );
await admin('/tenants', { id: 'bench', name: 'bench', limits: { requestsPerMinute: 1_000_000, tokensPerMinute: 1_000_000_000, concurrentRequests: 100, budget: { amountMicros: 1_000_000_000_000, currency: 'USD', period: 'month' } } });
const key = (await admin('/keys', { tenantId: 'bench' })).apiKey as string;
const rounds: { off: number; on: number }[] = [];
for (let round = 0; round < 3; round += 1) rounds.push({ off: await p50(off, TEST_CLIENT_KEY), on: await p50(on, key) });
await on.close();
started = performance.now();
const again = await startGateway({ catalogue, env, logger: silent, dataDir });
const warmStartMs = performance.now() - started;
await again.close();
started = performance.now();
const offAgain = await startGateway({ catalogue, env, logger: silent });
const offStartMs = performance.now() - started;
await offAgain.close();
await off.close();
await simulator.close();
rmSync(dataDir, { recursive: true, force: true });
const best = (pick: (round: { off: number; on: number }) => number) => Math.min(...rounds.map(pick));
console.log(
  JSON.stringify(
    {
      requests: REQUESTS,
      p50OffMs: Number(best((round) => round.off).toFixed(3)),
      p50OnMs: Number(best((round) => round.on).toFixed(3)),
      ratio: Number((best((round) => round.on) / best((round) => round.off)).toFixed(3)),
      rounds,
      startOffMs: Math.round(offStartMs),
      startOnFirstMs: Math.round(firstStartMs),
      startOnWarmMs: Math.round(warmStartMs),
    },
    null,
    2,
  ),
);
