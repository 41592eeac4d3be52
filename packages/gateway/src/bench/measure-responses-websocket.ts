/**
 * One Responses turn through the gateway to the simulator, over `POST /v1/responses` (SSE, keep-alive) and as a
 * `response.create` on one open WebSocket: the median and p90 time until the terminal event, sequential turns.
 * Run: npx --yes pnpm@12.4.2 exec tsx packages/gateway/src/bench/measure-responses-websocket.ts
 */
import { startProviderSimulator } from '@tokenforge/provider-simulator';
import WebSocket from 'ws';
import { startGateway } from '../start-gateway.js';

const TURNS = 300;
const FAMILY = 'openai-responses/v1';
const CLIENT_KEY = 'bench-client-key-0123456789';
const simulator = await startProviderSimulator();
const credentials = simulator.credentialsFor(FAMILY);
if (credentials?.type !== 'api-key') throw new Error(`the simulator has no API key for ${FAMILY}`);
const catalogue = {
  version: 1,
  clientKeys: [{ id: 'bench', env: 'BENCH_CLIENT_KEY' }],
  models: [
    {
      name: 'resp',
      taskKind: 'chat',
      targets: [{ provider: 'simulator', family: FAMILY, model: 'gpt-4.1-mini', baseUrl: simulator.baseUrlFor(FAMILY) ?? simulator.url, credentials: { apiKeyEnv: 'BENCH_SIMULATOR_KEY' }, network: { allowLoopback: true } }],
    },
  ],
};
const env = { BENCH_CLIENT_KEY: CLIENT_KEY, BENCH_SIMULATOR_KEY: credentials.apiKey };
const gateway = await startGateway({ catalogue, env, logger: { write: () => undefined } });
const body = { model: 'resp', input: 'hi', store: false };

const percentile = (values: number[], fraction: number): number => [...values].sort((a, b) => a - b)[Math.floor(values.length * fraction)] ?? Number.NaN;

async function measure(turn: () => Promise<void>): Promise<number[]> {
  for (let index = 0; index < 30; index += 1) await turn();
  const times: number[] = [];
  for (let index = 0; index < TURNS; index += 1) {
    const started = performance.now();
    await turn();
    times.push(performance.now() - started);
  }
  return times;
}

const http = await measure(async () => {
  const response = await fetch(`${gateway.url}/v1/responses`, {
    method: 'POST',
    headers: { authorization: `Bearer ${CLIENT_KEY}`, 'content-type': 'application/json' },
    body: JSON.stringify({ ...body, stream: true }),
  });
  await response.text();
});

const socket = new WebSocket(`${gateway.url.replace('http', 'ws')}/v1/responses`, { headers: { authorization: `Bearer ${CLIENT_KEY}` } });
await new Promise((resolve) => socket.once('open', resolve));
const websocket = await measure(
  () =>
    new Promise<void>((resolve) => {
      const onMessage = (data: WebSocket.RawData): void => {
        if (String(data).startsWith('{"type":"response.completed"')) {
          socket.off('message', onMessage);
          resolve();
        }
      };
      socket.on('message', onMessage);
      socket.send(JSON.stringify({ type: 'response.create', ...body }));
    }),
);
socket.close();
await gateway.close();
await simulator.close();
const show = (times: number[]): string => `p50 ${percentile(times, 0.5).toFixed(2)} ms, p90 ${percentile(times, 0.9).toFixed(2)} ms`;
console.log(`one Responses turn, ${TURNS} sequential: POST+SSE ${show(http)}; WebSocket response.create ${show(websocket)}`);
