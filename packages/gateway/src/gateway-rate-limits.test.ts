import Anthropic from '@anthropic-ai/sdk';
import { startProviderSimulator, type ProviderSimulator } from '@tokenforge/provider-simulator';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGateway, type RunningGateway } from './start-gateway.js';
import { createLogCapture, nextRequestLineReader } from './test-support/log-capture.js';
import { simulatorCatalogue, TEST_CLIENT_KEY } from './test-support/simulator-catalogue.js';

let simulator: ProviderSimulator;
let gateway: RunningGateway;
const log = createLogCapture();

beforeAll(async () => {
  simulator = await startProviderSimulator();
  const { catalogue, env } = simulatorCatalogue(simulator, [
    { name: 'open', taskKind: 'chat', targets: [{ family: 'openai-chat/v1', model: 'text', passRateLimitHeaders: true }] },
    { name: 'closed', taskKind: 'chat', targets: [{ family: 'openai-chat/v1', model: 'text' }] },
    { name: 'claude-open', taskKind: 'chat', targets: [{ family: 'anthropic-messages/v1', model: 'text', passRateLimitHeaders: true }] },
    { name: 'busy-open', taskKind: 'chat', targets: [{ family: 'openai-chat/v1', model: 'error.429.7', passRateLimitHeaders: true }] },
    {
      name: 'fallback-open',
      taskKind: 'chat',
      targets: [
        { family: 'openai-chat/v1', model: 'error.503', passRateLimitHeaders: true },
        { family: 'openai-chat/v1', model: 'text', passRateLimitHeaders: true },
      ],
    },
  ]);
  gateway = await startGateway({ catalogue, env, logger: log });
});
afterAll(async () => {
  await gateway.close();
  await simulator.close();
});

const openai = () => new OpenAI({ apiKey: TEST_CLIENT_KEY, baseURL: `${gateway.url}/v1`, maxRetries: 0 });
const anthropic = () => new Anthropic({ apiKey: TEST_CLIENT_KEY, baseURL: gateway.url, maxRetries: 0 });
const rateLimitHeaders = (headers: Headers): Record<string, string> =>
  Object.fromEntries([...headers].filter(([name]) => name.startsWith('x-ratelimit-') || name.startsWith('anthropic-ratelimit-')));
const nextLogLine = nextRequestLineReader(log);

describe('rate-limit facts through the gateway', () => {
  it('an opted-in target passes its OpenAI rate limits to an OpenAI client, rewritten from the normalized facts', async () => {
    const { response } = await openai().chat.completions.create({ model: 'open', messages: [{ role: 'user', content: 'hi' }] }).withResponse();
    const passed = rateLimitHeaders(response.headers);
    expect(passed['x-ratelimit-limit-requests']).toBe('500');
    expect(Number(passed['x-ratelimit-remaining-requests'])).toBeLessThan(500);
    expect(passed['x-ratelimit-limit-tokens']).toBe('200000');
    expect(passed['x-ratelimit-remaining-tokens']).toBe('199976');
    expect(passed['x-ratelimit-reset-requests']).toMatch(/^\d+(?:\.\d+)?(?:ms|s|m)/);
    expect((await nextLogLine()).rateLimits).toMatchObject({ requests: { limit: 500 }, tokens: { limit: 200_000, remaining: 199_976 } });
  });

  it('without the opt-in the client sees none, and the operator log still has them', async () => {
    const { response } = await openai().chat.completions.create({ model: 'closed', messages: [{ role: 'user', content: 'hi' }] }).withResponse();
    expect(rateLimitHeaders(response.headers)).toEqual({});
    expect((await nextLogLine()).rateLimits).toMatchObject({ requests: { limit: 500 }, tokens: { limit: 200_000 } });
  });

  it('an Anthropic client gets the Anthropic windows of an Anthropic target, and none of an OpenAI target', async () => {
    const { response } = await anthropic().messages.create({ model: 'claude-open', max_tokens: 16, messages: [{ role: 'user', content: 'hi' }] }).withResponse();
    const passed = rateLimitHeaders(response.headers);
    expect(passed['anthropic-ratelimit-requests-limit']).toBe('500');
    expect(passed['anthropic-ratelimit-input-tokens-limit']).toBe('100000');
    expect(passed['anthropic-ratelimit-output-tokens-remaining']).toBe('19992');
    expect(Date.parse(passed['anthropic-ratelimit-tokens-reset'] ?? '')).toBeGreaterThan(Date.now() - 5000);
    await nextLogLine();
    const cross = await anthropic().messages.create({ model: 'open', max_tokens: 16, messages: [{ role: 'user', content: 'hi' }] }).withResponse();
    expect(rateLimitHeaders(cross.response.headers)).toEqual({});
    expect((await nextLogLine()).rateLimits).toMatchObject({ requests: { limit: 500 } });
  });

  it('a refused request carries the target’s rate limits and its retry-after', async () => {
    const failure = await openai()
      .chat.completions.create({ model: 'busy-open', messages: [{ role: 'user', content: 'hi' }] })
      .catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(OpenAI.RateLimitError);
    const headers = (failure as InstanceType<typeof OpenAI.RateLimitError>).headers;
    expect(headers.get('retry-after')).toBe('7');
    expect(headers.get('x-ratelimit-limit-requests')).toBe('500');
    expect((await nextLogLine())).toMatchObject({ outcome: 'failed:rate-limited', rateLimits: { retryAfterMs: 7000, requests: { limit: 500 } } });
  });

  it('after a fallback the client sees no rate limits: they would be another account’s', async () => {
    const { response } = await openai().chat.completions.create({ model: 'fallback-open', messages: [{ role: 'user', content: 'hi' }] }).withResponse();
    expect(response.status).toBe(200);
    expect(rateLimitHeaders(response.headers)).toEqual({});
    const line = await nextLogLine();
    const attempts = line.attempts as { target: unknown; outcome: string }[];
    expect(attempts.at(-1)?.target).not.toEqual(attempts[0]?.target);
    expect(attempts.at(-1)?.outcome).toBe('ok');
    expect(line.rateLimits).toMatchObject({ requests: { limit: 500 } });
  });
});
