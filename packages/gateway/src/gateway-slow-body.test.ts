import { connect, type Socket } from 'node:net';
import { startProviderSimulator, type ProviderSimulator } from '@tokenforge/provider-simulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGateway, type RunningGateway } from './start-gateway.js';
import { createLogCapture, eventually } from './test-support/log-capture.js';
import { simulatorCatalogue, TEST_CLIENT_KEY } from './test-support/simulator-catalogue.js';

const IDLE_MS = 3000;
const TOTAL_MS = 7000;
let simulator: ProviderSimulator;
let gateway: RunningGateway;
const log = createLogCapture();

beforeAll(async () => {
  simulator = await startProviderSimulator();
  const { catalogue, env } = simulatorCatalogue(
    simulator,
    [
      { name: 'chat', taskKind: 'chat', targets: [{ family: 'openai-chat/v1', model: 'gpt-4.1-mini' }] },
      { name: 'claude', taskKind: 'chat', targets: [{ family: 'anthropic-messages/v1', model: 'claude-sonnet-4-5' }] },
    ],
    { maxConcurrentRequests: 8, bodyIdleTimeoutMs: IDLE_MS, bodyTimeoutMs: TOTAL_MS },
  );
  gateway = await startGateway({ catalogue, env, logger: log });
});
afterAll(async () => {
  await gateway.close();
  await simulator.close();
});

/** A raw connection that sends a request head declaring `Content-Length: 100000`, then what `drip` writes. */
interface SlowClient {
  readonly socket: Socket;
  /** The whole answer, once the gateway closed the connection; and when its first byte arrived. */
  readonly answer: Promise<{ text: string; firstByteAfterMs: number }>;
}

function slowClient(path: string, headers: Record<string, string>): SlowClient {
  const { hostname, host, port } = new URL(gateway.url);
  const socket = connect({ host: hostname, port: Number(port) });
  const started = performance.now();
  let firstByteAfterMs = -1;
  let text = '';
  socket.setEncoding('utf8');
  socket.on('data', (chunk: string) => {
    if (firstByteAfterMs < 0) firstByteAfterMs = performance.now() - started;
    text += chunk;
  });
  socket.on('error', () => {});
  const head = [`POST ${path} HTTP/1.1`, `Host: ${host}`, 'Content-Type: application/json', 'Content-Length: 100000', ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`)];
  socket.write(`${head.join('\r\n')}\r\n\r\n{`);
  const answer = new Promise<{ text: string; firstByteAfterMs: number }>((resolve) => socket.once('close', () => resolve({ text, firstByteAfterMs })));
  return { socket, answer };
}

const statusOf = (text: string): number => Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1]);
const bodyOf = (text: string): unknown => JSON.parse(text.slice(text.indexOf('\r\n\r\n') + 4));
const chat = () =>
  fetch(`${gateway.url}/v1/chat/completions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${TEST_CLIENT_KEY}`, 'content-type': 'application/json' },
    body: JSON.stringify({ model: 'chat', messages: [{ role: 'user', content: 'hi' }] }),
  });

describe('slow request bodies (issue #30 item 2)', () => {
  it('eight slowloris bodies (a byte every 2 s) hold no slot: other requests are served, and the bodies get 408 at bodyTimeoutMs', async () => {
    const slow = Array.from({ length: 8 }, () => slowClient('/v1/chat/completions', { Authorization: `Bearer ${TEST_CLIENT_KEY}` }));
    const drip = setInterval(() => {
      for (const client of slow) if (!client.socket.destroyed) client.socket.write(' ');
    }, 2000);
    try {
      await new Promise((resolve) => setTimeout(resolve, 2500));
      expect(gateway.inFlight).toBe(0);
      const answers = await Promise.all(Array.from({ length: 8 }, chat));
      expect(answers.map((answer) => answer.status)).toEqual(Array.from({ length: 8 }, () => 200));
      const refused = await Promise.all(slow.map((client) => client.answer));
      for (const { text, firstByteAfterMs } of refused) {
        expect(statusOf(text)).toBe(408);
        expect(bodyOf(text)).toMatchObject({ error: { type: 'invalid_request_error', code: 'request_timeout' } });
        expect(firstByteAfterMs).toBeGreaterThanOrEqual(TOTAL_MS - 50);
        expect(firstByteAfterMs).toBeLessThan(TOTAL_MS + 2000);
      }
    } finally {
      clearInterval(drip);
    }
    await eventually(() => log.requests().filter((line) => line.outcome === 'refused:body-timeout-total').length === 8);
    expect(log.requests().find((line) => line.outcome === 'refused:body-timeout-total')).toMatchObject({ status: 408, client: 'main' });
  }, 20_000);

  it('a body that stops answers 408 in the client’s dialect after bodyIdleTimeoutMs, and closes the connection', async () => {
    const openAi = slowClient('/v1/chat/completions', { Authorization: `Bearer ${TEST_CLIENT_KEY}` });
    const anthropic = slowClient('/v1/messages', { 'x-api-key': TEST_CLIENT_KEY });
    const gemini = slowClient(`/v1beta/models/chat:generateContent`, { 'x-goog-api-key': TEST_CLIENT_KEY });
    const [openAiAnswer, anthropicAnswer, geminiAnswer] = await Promise.all([openAi.answer, anthropic.answer, gemini.answer]);
    for (const { text, firstByteAfterMs } of [openAiAnswer, anthropicAnswer, geminiAnswer]) {
      expect(statusOf(text)).toBe(408);
      expect(text.toLowerCase()).toContain('connection: close');
      expect(firstByteAfterMs).toBeGreaterThanOrEqual(IDLE_MS - 50);
      expect(firstByteAfterMs).toBeLessThan(IDLE_MS + 2000);
    }
    expect(bodyOf(openAiAnswer.text)).toMatchObject({ error: { code: 'request_timeout', message: 'The gateway did not receive the request body in time.' } });
    expect(bodyOf(anthropicAnswer.text)).toMatchObject({ type: 'error', error: { type: 'timeout_error' } });
    expect(bodyOf(geminiAnswer.text)).toMatchObject({ error: { code: 408, status: 'DEADLINE_EXCEEDED' } });
    await eventually(() => log.requests().filter((line) => line.outcome === 'refused:body-timeout-idle').length === 3);
    expect(gateway.inFlight).toBe(0);
  }, 20_000);
});
