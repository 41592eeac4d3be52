import { readFileSync } from 'node:fs';
import { createProtocolEngineTargetBindingV1, createProtocolEngineV1 } from '@tokenforge/protocol-engine';
import { describe, expect, it } from 'vitest';
import type { AdapterStreamPartV1, EgressContextV1, NormalizedStreamEventV4, ProviderDispatchTargetV2 } from '@tokenforge/model-protocol';
import { createTokenForgeProtocolSuiteV1 } from '../../suite/create-protocol-suite-v1.js';
import { createFixtureTransportV1, type FixtureResponseV1 } from '../../testing/fixture-transport.js';
import { frameRecordedChunksV1 } from '../../testing/frame-recorded-chunks.js';
import { decodeAnthropicMessagesStream } from './decode-stream.js';
import { createAnthropicMessagesSuiteEntryV1 } from './suite-entry.js';

/*
 * A gateway speaking Anthropic to its clients and to the provider: client bytes → ingress → task → engine with the
 * Anthropic adapter (fixture transport replaying recorded traffic) → terminal and events → egress → client bytes.
 * What the client receives must carry what the provider said.
 */

const suite = createTokenForgeProtocolSuiteV1({ entries: [createAnthropicMessagesSuiteEntryV1()] });
const engine = createProtocolEngineV1({ registry: suite.registry });
const codecs = suite.codecsFor('anthropic-messages/v1');
const encoder = new TextEncoder();
const decoder = new TextDecoder();
const context: EgressContextV1 = { responseId: 'msg_gateway', modelLabel: 'client-model', createdAtMs: 0 };
const target: ProviderDispatchTargetV2 = {
  provider: 'provider',
  providerModel: 'provider-model',
  connectionRef: 'connection',
  capability: { protocolFamily: 'anthropic-messages/v1', executionMode: 'stream-capable', taskKinds: ['chat'], tools: true, reasoning: true },
};

function fixtureText(name: string): string {
  return readFileSync(new URL(`./__fixtures__/${name}`, import.meta.url), 'utf8');
}

async function serve(clientBody: unknown, response: FixtureResponseV1) {
  if (codecs === undefined) throw new Error('anthropic-messages must take part in direct HTTP');
  const { task, modelLabel } = codecs.ingress.decodeRequest({ path: '/v1/messages', body: encoder.encode(JSON.stringify(clientBody)) });
  const transport = createFixtureTransportV1({ responses: [response] });
  const binding = createProtocolEngineTargetBindingV1({ target, bindTransport: () => transport });
  const execution = await engine.execute({ binding, task, signal: new AbortController().signal });
  return { execution, modelLabel, transport, egress: codecs.egress };
}

async function decodeSse(bytes: Uint8Array) {
  const body: AsyncIterable<Uint8Array> = {
    async *[Symbol.asyncIterator]() {
      yield bytes;
    },
  };
  const parts: AdapterStreamPartV1[] = [];
  for await (const part of decodeAnthropicMessagesStream({ body, headers: {}, nowMs: 0, signal: new AbortController().signal })) parts.push(part);
  return parts;
}

describe('anthropic-messages gateway round trip through the engine', () => {
  it('serves a sync tool call: the client gets the provider message with its own id and model label', async () => {
    const recorded = JSON.parse(fixtureText('vercel-ai__anthropic-json-tool.1.json')) as Record<string, unknown>;
    const { execution, modelLabel, transport, egress } = await serve(
      {
        model: 'client-model',
        max_tokens: 300,
        messages: [{ role: 'user', content: 'Weather as JSON' }],
        tools: [{ name: 'json', input_schema: { type: 'object' } }],
        tool_choice: { type: 'tool', name: 'json' },
      },
      { body: { type: 'json', value: recorded } },
    );
    expect(modelLabel).toBe('client-model');
    expect(transport.requests[0]?.body).toEqual({
      type: 'json',
      value: {
        model: 'provider-model',
        max_tokens: 300,
        messages: [{ role: 'user', content: [{ type: 'text', text: 'Weather as JSON' }] }],
        tools: [{ name: 'json', input_schema: { type: 'object' } }],
        tool_choice: { type: 'tool', name: 'json' },
      },
    });
    if (execution.kind !== 'response') throw new Error('expected a response');
    const response = egress.encodeResponse(execution.terminal, context);
    expect(response.status).toBe(200);
    expect(JSON.parse(decoder.decode(response.body))).toEqual({
      id: 'msg_gateway',
      type: 'message',
      role: 'assistant',
      model: 'client-model',
      content: recorded.content,
      stop_reason: 'tool_use',
      stop_sequence: null,
      usage: {
        input_tokens: 1151,
        output_tokens: 87,
        cache_creation_input_tokens: 0,
        cache_read_input_tokens: 0,
        cache_creation: { ephemeral_5m_input_tokens: 0, ephemeral_1h_input_tokens: 0 },
        service_tier: 'standard',
      },
    });
  });

  it('serves a stream: the client SSE decodes to the same blocks, stop reason and usage as the provider SSE', async () => {
    const chunks = fixtureText('constructed__anthropic-thinking-tool.chunks.txt');
    const { execution, egress } = await serve(
      { model: 'client-model', max_tokens: 8000, thinking: { type: 'enabled', budget_tokens: 2048 }, stream: true, messages: [{ role: 'user', content: 'Weather?' }] },
      { body: { type: 'chunks', text: chunks, framing: 'typed-sse' } },
    );
    if (execution.kind !== 'stream') throw new Error('expected a stream');
    const stream = egress.createStreamEncoder?.(context);
    if (stream === undefined) throw new Error('no stream encoder');
    const written: string[] = [];
    const events: NormalizedStreamEventV4[] = [];
    for await (const event of execution.events) {
      events.push(event);
      written.push(decoder.decode(stream.encodeEvent(event)));
    }
    const terminal = await execution.terminal;
    written.push(decoder.decode(stream.encodeTerminal(terminal)));

    const provider = await decodeSse(encoder.encode(frameRecordedChunksV1(chunks, { framing: 'typed-sse' }).join('')));
    const client = await decodeSse(encoder.encode(written.join('')));
    const content = (parts: AdapterStreamPartV1[]) => parts.filter((part) => part.type !== 'usage');
    expect(content(client).slice(0, -1)).toEqual(content(provider).slice(0, -1));
    const providerTerminal = provider.at(-1);
    const clientTerminal = client.at(-1);
    if (providerTerminal?.type !== 'terminal' || clientTerminal?.type !== 'terminal') throw new Error('missing terminal');
    // Every usage figure survives, the thinking_tokens breakdown included.
    expect(clientTerminal.outcome).toEqual(providerTerminal.outcome);
    expect(clientTerminal.outcome).toMatchObject({ usage: { inputTokens: 1120, outputTokens: 85, reasoningOutputTokens: 40 } });
  });

  it('serves a provider rate limit as an Anthropic 429 with retry-after', async () => {
    const { execution, egress } = await serve(
      { model: 'client-model', max_tokens: 10, messages: [{ role: 'user', content: 'Hi' }] },
      { status: 429, headers: { 'retry-after': '7' }, body: { type: 'text', text: fixtureText('constructed__anthropic-error-rate-limit.json') } },
    );
    if (execution.kind !== 'response') throw new Error('expected a response');
    const response = egress.encodeResponse(execution.terminal, context);
    expect(response.status).toBe(429);
    expect(response.headers['retry-after']).toBe('7');
    expect(JSON.parse(decoder.decode(response.body))).toMatchObject({ type: 'error', error: { type: 'rate_limit_error' } });
  });
});
