import { createHttpProviderTransport } from '@tokenforge/http-transport';
import type { ProtocolCapabilityV3, ProtocolFamily, TokenCountTaskV3 } from '@tokenforge/model-protocol';
import { createProtocolEngineTargetBindingV1, type ProtocolEngineTargetBindingV1 } from '@tokenforge/protocol-engine';
import { startProviderSimulator, type ProviderSimulator } from '@tokenforge/provider-simulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engine, suite } from './test-support/simulator-client.js';

/*
 * Token counting through the engine, the builtin families and http-transport against the simulator's counting
 * endpoints: the count is the simulator's, decoded by each family's counting decoder, and a family without a
 * counting endpoint (or a target that does not declare the kind) is refused, never answered with a zero.
 */

const COUNTING: readonly ProtocolFamily[] = ['anthropic-messages/v1', 'openai-responses/v1', 'gemini-generate-content/v1'];
const MODELS: Readonly<Record<string, string>> = {
  'anthropic-messages/v1': 'claude-sonnet-4-5',
  'openai-responses/v1': 'gpt-5-mini',
  'gemini-generate-content/v1': 'gemini-2.5-flash',
  'openai-chat/v1': 'gpt-4.1-mini',
};
const signal = new AbortController().signal;

let simulator: ProviderSimulator;
beforeAll(async () => {
  simulator = await startProviderSimulator();
});
afterAll(async () => {
  await simulator.close();
});

function bind(family: ProtocolFamily, taskKinds: ProtocolCapabilityV3['taskKinds'], model = MODELS[family] ?? 'm'): ProtocolEngineTargetBindingV1 {
  const baseUrl = simulator.baseUrlFor(family);
  const credentials = simulator.credentialsFor(family);
  if (baseUrl === undefined || credentials === undefined) throw new Error('unknown family');
  const transport = createHttpProviderTransport({
    baseUrl,
    credentials,
    metadata: suite.transportMetadataFor(family),
    policy: { allowedAddressCategories: ['loopback'], allowInsecureHttpToLoopback: true },
  });
  const capability: ProtocolCapabilityV3 = { protocolFamily: family, executionMode: 'stream-capable', taskKinds, tools: true, reasoning: true };
  return createProtocolEngineTargetBindingV1({
    target: { provider: 'simulator', providerModel: model, connectionRef: 'simulator', capability },
    bindTransport: () => transport,
  });
}

const task = (text: string, extra: Partial<TokenCountTaskV3> = {}): TokenCountTaskV3 => ({
  kind: 'token-count',
  system: [{ type: 'text', text: 'Be brief.' }],
  messages: [{ role: 'user', content: [{ type: 'text', text }] }],
  ...extra,
});

async function count(binding: ProtocolEngineTargetBindingV1, input: TokenCountTaskV3) {
  const execution = await engine.execute({ binding, task: input, signal });
  if (execution.kind !== 'response') throw new Error(`unexpected ${execution.kind}`);
  return execution.terminal;
}

function inputTokens(terminal: Awaited<ReturnType<typeof count>>): number {
  if (terminal.status !== 'completed' || terminal.result.kind !== 'token-count') throw new Error(`not a count: ${JSON.stringify(terminal)}`);
  return terminal.result.inputTokens;
}

describe.each(COUNTING)('%s token counting through engine + http-transport + simulator', (family) => {
  it('answers the provider count, deterministic and growing with the input and the tools', async () => {
    const binding = bind(family, ['chat', 'token-count']);
    const short = inputTokens(await count(binding, task('hi')));
    expect(short).toBeGreaterThan(0);
    expect(inputTokens(await count(binding, task('hi')))).toBe(short);
    const long = inputTokens(await count(binding, task('hi there, a much longer question about the weather in Paris')));
    expect(long).toBeGreaterThan(short);
    const withTools = inputTokens(await count(binding, task('hi', { tools: [{ name: 'get_weather', inputSchema: { type: 'object', properties: { city: { type: 'string' } } } }] })));
    expect(withTools).toBeGreaterThan(short);
    const paths = simulator.requests.filter((request) => request.status === 200).map((request) => request.path);
    expect(paths.some((path) => /count_tokens$|input_tokens$|:countTokens$/.test(path))).toBe(true);
  });

  it('a provider error on the counting endpoint is a failure, never a count', async () => {
    const terminal = await count(bind(family, ['chat', 'token-count'], 'error.503'), task('hi'));
    expect(terminal).toMatchObject({ status: 'failed', failure: { retryable: true } });
  });

  it('a target that does not declare token-count is refused before anything is sent', async () => {
    const before = simulator.requests.length;
    await expect(engine.execute({ binding: bind(family, ['chat']), task: task('hi'), signal })).rejects.toMatchObject({ code: 'PROTOCOL_ENGINE_TARGET_TASK_MISMATCH' });
    expect(simulator.requests.length).toBe(before);
  });
});

describe('a family without a counting endpoint', () => {
  it('openai-chat declared as counting still sends nothing and fails unsupported', async () => {
    const before = simulator.requests.length;
    const terminal = await count(bind('openai-chat/v1', ['chat', 'token-count']), task('hi'));
    expect(terminal).toMatchObject({ status: 'failed', failure: { code: 'unsupported', retryable: false } });
    expect(simulator.requests.length).toBe(before);
  });
});
