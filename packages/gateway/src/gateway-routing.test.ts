import { createServer, type Server } from 'node:net';
import type { AddressInfo } from 'node:net';
import Anthropic from '@anthropic-ai/sdk';
import { startProviderSimulator, type ProviderSimulator } from '@tokenforge/provider-simulator';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGateway, type RunningGateway } from './start-gateway.js';
import { createLogCapture, eventually } from './test-support/log-capture.js';
import { simulatorCatalogue, TEST_CLIENT_KEY } from './test-support/simulator-catalogue.js';

let simulator: ProviderSimulator;
let gateway: RunningGateway;
let resetServer: Server;
const log = createLogCapture();

const CHAT = 'openai-chat/v1';
const ANTHROPIC = 'anthropic-messages/v1';

beforeAll(async () => {
  simulator = await startProviderSimulator();
  // A provider that takes the connection and resets it before any response head.
  resetServer = createServer((socket) => socket.once('data', () => socket.resetAndDestroy()));
  await new Promise<void>((resolve) => resetServer.listen(0, '127.0.0.1', resolve));
  const resetUrl = `http://127.0.0.1:${(resetServer.address() as AddressInfo).port}/v1`;
  const { catalogue, env } = simulatorCatalogue(
    simulator,
    [
      { name: 'after-429', taskKind: 'chat', targets: [{ family: CHAT, model: 'error.429.1' }, { family: ANTHROPIC, model: 'claude-ok' }] },
      { name: 'after-500', taskKind: 'chat', targets: [{ family: CHAT, model: 'error.500' }, { family: ANTHROPIC, model: 'claude-ok' }] },
      { name: 'after-reset', taskKind: 'chat', targets: [{ family: CHAT, model: 'gpt-ok', baseUrl: resetUrl }, { family: ANTHROPIC, model: 'claude-ok' }] },
      { name: 'after-stall', taskKind: 'chat', targets: [{ family: CHAT, model: 'stall', timeouts: { bodyIdleMs: 300 } }, { family: ANTHROPIC, model: 'claude-ok' }] },
      { name: 'mid-stream', taskKind: 'chat', targets: [{ family: CHAT, model: 'mid-stream-error' }, { family: ANTHROPIC, model: 'claude-ok' }] },
      { name: 'bad-request', taskKind: 'chat', targets: [{ family: CHAT, model: 'error.400' }, { family: ANTHROPIC, model: 'claude-ok' }] },
      { name: 'only-429', taskKind: 'chat', targets: [{ family: CHAT, model: 'error.429.1' }] },
      { name: 'stalled', taskKind: 'chat', targets: [{ family: CHAT, model: 'stall' }] },
      { name: 'truncated', taskKind: 'chat', targets: [{ family: CHAT, model: 'truncated' }] },
    ],
    { retryBudgetMs: 3000, maxAttempts: 3, drainTimeoutMs: 1000 },
  );
  gateway = await startGateway({ catalogue, env, logger: log });
});
afterAll(async () => {
  await gateway.close();
  await simulator.close();
  await new Promise<void>((resolve) => resetServer.close(() => resolve()));
});

const openAi = (): OpenAI => new OpenAI({ apiKey: TEST_CLIENT_KEY, baseURL: `${gateway.url}/v1`, maxRetries: 0 });
const anthropic = (): Anthropic => new Anthropic({ apiKey: TEST_CLIENT_KEY, baseURL: gateway.url, maxRetries: 0 });

/** The operator log line of `model` since `from` (lines are written just after their responses). */
async function lineFor(model: string, from: number): Promise<Record<string, unknown>> {
  const find = (): Record<string, unknown> | undefined => log.requests().slice(from).find((entry) => entry.model === model);
  await eventually(() => find() !== undefined).catch(() => undefined);
  const line = find();
  if (line === undefined) throw new Error(`no log line for ${model}`);
  return line;
}
const outcomes = (line: Record<string, unknown>): string[] => (line.attempts as { outcome: string }[]).map((attempt) => attempt.outcome);

describe('fallback before the first byte', () => {
  it('honours retry-after on the same target within the budget, then falls back', async () => {
    const from = log.requests().length;
    const started = Date.now();
    const completion = await openAi().chat.completions.create({ model: 'after-429', messages: [{ role: 'user', content: 'hi' }] });
    expect(completion.choices[0]?.message.content?.length).toBeGreaterThan(0);
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);
    const line = await lineFor('after-429', from);
    expect(outcomes(line)).toEqual(['rate-limited', 'rate-limited', 'ok']);
    // The provider's wait is in the operator log beside each attempt that carried one.
    expect((line.attempts as { retryAfterMs?: number }[]).map((attempt) => attempt.retryAfterMs)).toEqual([1000, 1000, undefined]);
    expect(line.target).toMatchObject({ family: ANTHROPIC });
  });

  it.each([
    ['after-500', 'a 500 answer'],
    ['after-reset', 'a reset before the response head'],
    ['after-stall', 'a stalled body'],
  ])('%s: %s falls back, sync and stream', async (model) => {
    const from = log.requests().length;
    const completion = await openAi().chat.completions.create({ model, messages: [{ role: 'user', content: 'hi' }] });
    expect(completion.choices[0]?.finish_reason).toBe('stop');
    let text = '';
    for await (const chunk of await openAi().chat.completions.create({ model, messages: [{ role: 'user', content: 'hi' }], stream: true })) {
      text += chunk.choices[0]?.delta.content ?? '';
    }
    expect(text).toBe(completion.choices[0]?.message.content);
    await eventually(() => log.requests().slice(from).filter((entry) => entry.model === model).length === 2);
    for (const line of log.requests().slice(from).filter((entry) => entry.model === model)) {
      const seen = outcomes(line);
      expect(seen.at(-1)).toBe('ok');
      expect(seen.length).toBe(2);
      expect(seen[0]).not.toBe('ok');
    }
  });

  it('does not fall back on a non-retryable failure', async () => {
    const from = log.requests().length;
    await expect(openAi().chat.completions.create({ model: 'bad-request', messages: [{ role: 'user', content: 'hi' }] })).rejects.toMatchObject({ status: 400 });
    expect(outcomes(await lineFor('bad-request', from))).toEqual(['invalid-request']);
  });

  it('gives the dialect error with retry-after when every attempt is rate limited', async () => {
    const response = await fetch(`${gateway.url}/v1/messages`, {
      method: 'POST',
      headers: { 'x-api-key': TEST_CLIENT_KEY, 'anthropic-version': '2023-06-01', 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'only-429', max_tokens: 16, messages: [{ role: 'user', content: 'hi' }] }),
    });
    expect(response.status).toBe(429);
    expect(response.headers.get('retry-after')).toBe('1');
    expect(await response.json()).toMatchObject({ type: 'error', error: { type: 'rate_limit_error' } });
  });
});

describe('after the first byte', () => {
  it('a mid-stream error reaches the client in-stream and is never restarted', async () => {
    const from = log.requests().length;
    const stream = anthropic().messages.stream({ model: 'mid-stream', max_tokens: 64, messages: [{ role: 'user', content: 'hi' }] });
    let text = '';
    stream.on('text', (delta) => {
      text += delta;
    });
    await expect(stream.finalMessage()).rejects.toThrow();
    expect(text.length).toBeGreaterThan(0);
    await eventually(() => log.requests().slice(from).some((entry) => entry.model === 'mid-stream'));
    const line = await lineFor('mid-stream', from);
    expect(outcomes(line)).toEqual(['ok']);
    expect(String(line.outcome)).toMatch(/^failed-in-stream:/);
  });
});

describe('client abort', () => {
  it('closes the provider connection when the client goes away mid-stream', async () => {
    const before = simulator.requests.length;
    const controller = new AbortController();
    const pending = fetch(`${gateway.url}/v1/chat/completions`, {
      method: 'POST',
      signal: controller.signal,
      headers: { authorization: `Bearer ${TEST_CLIENT_KEY}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'stalled', stream: true, messages: [{ role: 'user', content: 'hi' }] }),
    });
    // The simulator records a request when its response closes: a stalled one only closes when the gateway leaves.
    await eventually(() => gateway.inFlight === 1);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(simulator.requests.slice(before).some((request) => request.path === '/v1/chat/completions')).toBe(false);
    controller.abort();
    await expect(pending).rejects.toThrow();
    await eventually(() => simulator.requests.slice(before).some((request) => request.path === '/v1/chat/completions'));
    await eventually(() => gateway.inFlight === 0);
  });
});

describe('why an attempt failed, in the operator log', () => {
  it('writes the family diagnostic beside the failed attempt, never the body', async () => {
    const from = log.requests().length;
    const sync = await openAi()
      .chat.completions.create({ model: 'truncated', messages: [{ role: 'user', content: 'hi' }] })
      .catch((caught: unknown) => caught);
    expect(sync).toBeInstanceOf(OpenAI.APIError);
    await eventually(() => log.requests().slice(from).some((entry) => entry.model === 'truncated'));
    const line = await lineFor('truncated', from);
    const [attempt] = line.attempts as { outcome: string; diagnostics?: { code: string; rule: string }[] }[];
    expect(attempt?.outcome).toBe('truncated-stream');
    expect(attempt?.diagnostics).toEqual([{ code: 'truncated-stream', rule: 'transport after-send: connection-lost' }]);
    expect(JSON.stringify(line)).not.toContain('"hi"');
  });
});
