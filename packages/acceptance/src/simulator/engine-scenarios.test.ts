import { readFileSync } from 'node:fs';
import type { AdapterTerminalOutcomeV4, ProtocolFamily } from '@tokenforge/model-protocol';
import type { ProtocolEngineTargetBindingV1 } from '@tokenforge/protocol-engine';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startProviderSimulator, type ProviderSimulator } from '@tokenforge/provider-simulator';
import { bindSimulator, engine } from './test-support/simulator-client.js';

const CHAT_FAMILIES: ProtocolFamily[] = ['openai-chat/v1', 'anthropic-messages/v1', 'gemini-generate-content/v1', 'openai-responses/v1'];
const families = CHAT_FAMILIES.filter((family) => engine.protocolFamilies.includes(family));
const signal = new AbortController().signal;
const question = [{ role: 'user' as const, content: [{ type: 'text' as const, text: 'hello' }] }];

let simulator: ProviderSimulator;
beforeAll(async () => {
  simulator = await startProviderSimulator();
});
afterAll(async () => {
  await simulator.close();
});

function bind(family: ProtocolFamily, model: string, policy: { bodyIdleTimeoutMs?: number } = {}): ProtocolEngineTargetBindingV1 {
  return bindSimulator(simulator, family, model, { executionMode: 'stream-capable', taskKinds: ['chat'], tools: true, reasoning: true }, policy);
}

async function run(family: ProtocolFamily, model: string, stream: boolean, extra: Record<string, unknown> = {}): Promise<{ terminal: AdapterTerminalOutcomeV4; events: string[] }> {
  const execution = await engine.execute({ binding: bind(family, model), task: { kind: 'chat', messages: question, stream, maxOutputTokens: 512, ...extra }, signal });
  if (execution.kind === 'response') return { terminal: execution.terminal, events: [] };
  if (execution.kind !== 'stream') throw new Error(`unexpected ${execution.kind}`);
  const events: string[] = [];
  for await (const event of execution.events) events.push(event.type);
  return { terminal: await execution.terminal, events };
}

function text(terminal: AdapterTerminalOutcomeV4): string {
  if (terminal.status !== 'completed' || terminal.result.kind !== 'chat') return `<${terminal.status}>`;
  return terminal.result.content.map((part) => (part.type === 'text' ? part.text : '')).join('');
}

const tools = { tools: [{ name: 'get_weather', inputSchema: { type: 'object', properties: { city: { type: 'string' } } } }] };

describe.each(families)('%s through engine + http-transport', (family) => {
  it.each([false, true])('text (stream %s): the synthesized chunks add up', async (stream) => {
    const { terminal, events } = await run(family, 'text.25', stream);
    expect(terminal).toMatchObject({ status: 'completed', finishReason: { unified: 'stop' } });
    expect(text(terminal)).toBe(`Simulated${Array.from({ length: 24 }, (_, index) => ` token${index + 1}`).join('')}`);
    if (stream) expect(events.filter((type) => type === 'text-delta').length).toBeGreaterThanOrEqual(25);
  });

  it.each([false, true])('tool-call (stream %s): one get_weather call with its arguments', async (stream) => {
    const { terminal } = await run(family, 'tool-call', stream, tools);
    expect(terminal).toMatchObject({ status: 'completed', finishReason: { unified: 'tool-calls' } });
    const call = terminal.status === 'completed' && terminal.result.kind === 'chat' ? terminal.result.content.find((part) => part.type === 'tool-call') : undefined;
    expect(call).toMatchObject({ toolName: 'get_weather' });
    expect(JSON.parse((call as { argumentsText: string }).argumentsText)).toEqual({ city: 'Paris' });
  });

  it.each([false, true])('reasoning (stream %s): a reasoning part before the text', async (stream) => {
    const { terminal } = await run(family, 'reasoning', stream, { maxOutputTokens: 4096, reasoning: { budgetTokens: 1024, includeReasoning: true } });
    expect(terminal.status === 'failed' ? terminal.failure : terminal.status).toBe('completed');
    const parts = terminal.status === 'completed' && terminal.result.kind === 'chat' ? terminal.result.content : [];
    expect(parts.map((part) => part.type)).toEqual(['reasoning', 'text']);
    expect(parts[0]).toMatchObject({ text: 'Let me think about this.' });
  });

  it.each([false, true])('error.429.7 (stream %s): a rate-limited failure with the Retry-After hint', async (stream) => {
    const { terminal } = await run(family, 'error.429.7', stream);
    expect(terminal).toMatchObject({ status: 'failed', failure: { code: 'rate-limited', retryable: true, retryAfterMs: 7000 } });
  });

  it('error.503: a retryable provider failure', async () => {
    const { terminal } = await run(family, 'error.503', false);
    expect(terminal).toMatchObject({ status: 'failed', failure: { retryable: true } });
  });

  it('mid-stream-error: the stream ends failed after some text', async () => {
    const { terminal, events } = await run(family, 'mid-stream-error', true);
    expect(terminal.status).toBe('failed');
    expect(events).toContain('text-delta');
  });

  it.each([false, true])('truncated (stream %s): never a success', async (stream) => {
    const { terminal } = await run(family, 'truncated', stream).catch((error: unknown) => ({ terminal: { status: 'thrown', error } as never, events: [] }));
    expect(terminal.status).not.toBe('completed');
  });

  it('slow-first-byte.300: completes, no earlier than the delay', async () => {
    const started = performance.now();
    const { terminal } = await run(family, 'slow-first-byte.300', true);
    expect(terminal.status).toBe('completed');
    expect(performance.now() - started).toBeGreaterThanOrEqual(290);
  });

  it('stall.300: the body pauses mid-way, then completes', async () => {
    const started = performance.now();
    const { terminal } = await run(family, 'stall.300', true);
    expect(text(terminal)).toBe('Hello from the simulator.');
    expect(performance.now() - started).toBeGreaterThanOrEqual(290);
  });

  it('an authentication failure with a wrong key', async () => {
    const binding = bindSimulator(simulator, family, 'text', { executionMode: 'stream-capable', taskKinds: ['chat'] }, {}, { type: 'api-key', apiKey: 'wrong-key' });
    const execution = await engine.execute({ binding, task: { kind: 'chat', messages: question, stream: false }, signal });
    expect(execution).toMatchObject({ kind: 'response', terminal: { status: 'failed' } });
    if (execution.kind === 'response' && execution.terminal.status === 'failed') {
      expect(['authentication', 'invalid-request']).toContain(execution.terminal.failure.code);
    }
  });
});

describe('stall without an end', () => {
  it.runIf(families.includes('openai-chat/v1'))('a body that stops until the client leaves fails on the transport idle timeout', async () => {
    const execution = await engine.execute({ binding: bind('openai-chat/v1', 'stall', { bodyIdleTimeoutMs: 300 }), task: { kind: 'chat', messages: question, stream: true }, signal });
    if (execution.kind !== 'stream') throw new Error('expected a stream');
    await expect(
      (async () => {
        for await (const _event of execution.events) {
          // drain
        }
        return execution.terminal;
      })(),
    ).resolves.toMatchObject({ status: 'failed' });
  }, 10_000);
});

describe('recorded scenarios', () => {
  it.runIf(families.includes('openai-chat/v1'))('recorded.vercel-ai__openai-text streams the fixture through the engine', async () => {
    const lines = readFileSync(new URL('../../../provider-simulator/fixtures/openai-chat/vercel-ai__openai-text.chunks.txt', import.meta.url), 'utf8')
      .split('\n')
      .filter((line) => line.trim().length > 0)
      .map((line) => JSON.parse(line) as { choices: { delta?: { content?: string } }[] });
    const expected = lines.map((chunk) => chunk.choices[0]?.delta?.content ?? '').join('');
    const { terminal } = await run('openai-chat/v1', 'recorded.vercel-ai__openai-text', true);
    expect(text(terminal)).toBe(expected);
  });

  it.runIf(families.includes('anthropic-messages/v1'))('recorded.constructed__anthropic-error-rate-limit answers 429 with the recorded envelope', async () => {
    const { terminal } = await run('anthropic-messages/v1', 'recorded.constructed__anthropic-error-rate-limit', false);
    expect(terminal).toMatchObject({ status: 'failed', failure: { code: 'rate-limited' } });
  });

  it.runIf(families.includes('anthropic-messages/v1'))('error.529 on anthropic is overloaded', async () => {
    const { terminal } = await run('anthropic-messages/v1', 'error.529', true);
    expect(terminal).toMatchObject({ status: 'failed', failure: { code: 'overloaded', retryable: true } });
  });
});
