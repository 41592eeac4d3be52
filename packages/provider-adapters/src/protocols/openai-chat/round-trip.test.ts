import { createProtocolEngineTargetBindingV1, createProtocolEngineV1 } from '@tokenforge/protocol-engine';
import type { AdapterTerminalOutcomeV4, EgressContextV1, NormalizedStreamEventV4 } from '@tokenforge/model-protocol';
import { describe, expect, it } from 'vitest';
import { parseSafeJson, parseSafeJsonBytes } from '../../codec-kit/index.js';
import { createFixtureTransportV1, type FixtureResponseV1 } from '../../testing/fixture-transport.js';
import { createOpenAiChatAdapterFactory } from './adapter.js';
import { decodeOpenAiChatResponse } from './decode-response.js';
import { createOpenAiChatEgressCodec } from './egress.js';
import { encodeOpenAiChatRequest } from './encode-request.js';
import { createOpenAiChatIngressCodec } from './ingress.js';
import { readFixture, runStream } from './test-support/stream-harness.js';

const ingress = createOpenAiChatIngressCodec();
const egress = createOpenAiChatEgressCodec();
const textEncoder = new TextEncoder();
const textDecoder = new TextDecoder();
const context: EgressContextV1 = { responseId: 'chatcmpl-host', modelLabel: 'client-model', createdAtMs: 1_000_000 };

function clientRequest(body: unknown) {
  return { path: '/v1/chat/completions', body: textEncoder.encode(JSON.stringify(body)) };
}

const engine = createProtocolEngineV1({
  registry: { listProtocolFamilies: () => ['openai-chat/v1'], require: () => createOpenAiChatAdapterFactory() },
});

async function executeThroughEngine(clientBody: unknown, response: FixtureResponseV1) {
  const { task, modelLabel } = ingress.decodeRequest(clientRequest(clientBody));
  const transport = createFixtureTransportV1({ responses: [response] });
  const binding = createProtocolEngineTargetBindingV1({
    target: {
      provider: 'opaque',
      providerModel: `upstream-${modelLabel}`,
      connectionRef: 'conn',
      capability: { protocolFamily: 'openai-chat/v1', executionMode: 'stream-capable', taskKinds: ['chat'], tools: true, reasoning: true },
    },
    bindTransport: () => transport,
  });
  return { execution: await engine.execute({ binding, task, signal: new AbortController().signal }), transport };
}

/** Compares two terminals on what survives egress: block kinds and texts (reasoning signatures aside), unified finish, usage. */
function comparable(terminal: AdapterTerminalOutcomeV4): unknown {
  if (terminal.status !== 'completed' || terminal.result.kind !== 'chat') return terminal;
  return {
    content: terminal.result.content.map((part) => (part.type === 'reasoning' ? { type: 'reasoning', text: part.text } : part)),
    finish: terminal.finishReason?.unified,
    usage: terminal.usage,
  };
}

describe('openai-chat round trips', () => {
  it('re-encodes a client request into the same provider body (client body -> task -> wire)', () => {
    const clientBody = {
      model: 'client-model',
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: [{ type: 'text', text: 'Look' }, { type: 'image_url', image_url: { url: 'https://example.test/a.png', detail: 'high' } }] },
        {
          role: 'assistant',
          content: null,
          tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'weather', arguments: '{"city":"Oslo"}' } }],
        },
        { role: 'tool', tool_call_id: 'call_1', content: '5C' },
      ],
      tools: [{ type: 'function', function: { name: 'weather', description: 'Weather', parameters: { type: 'object' }, strict: true } }],
      tool_choice: 'auto',
      response_format: { type: 'json_schema', json_schema: { name: 'answer', schema: { type: 'object' }, strict: true } },
      temperature: 0.3,
      top_p: 0.8,
      seed: 5,
      max_completion_tokens: 64,
      stop: ['END'],
      reasoning_effort: 'high',
      prompt_cache_key: 'tenant',
      stream: true,
      stream_options: { include_usage: true },
    };
    const { task } = ingress.decodeRequest(clientRequest(clientBody));
    expect(encodeOpenAiChatRequest(task, 'client-model').body.value).toEqual(clientBody);
  });

  it.each([
    'vercel-ai__openai-text.chunks.txt',
    'vercel-ai__azure-model-router.1.chunks.txt',
    'vercel-ai__deepseek-tool-call.chunks.txt',
    'vercel-ai__alibaba-tool-call.chunks.txt',
  ])('streams %s through ingress, the engine and egress, and the client sees the same answer', async (name) => {
    const { execution, transport } = await executeThroughEngine(
      { model: 'client-model', stream: true, messages: [{ role: 'user', content: 'Weather in San Francisco?' }] },
      { body: { type: 'chunks', text: readFixture(name), framing: 'openai-chat' } },
    );
    expect(transport.requests[0]?.body).toEqual({
      type: 'json',
      value: {
        model: 'upstream-client-model',
        messages: [{ role: 'user', content: 'Weather in San Francisco?' }],
        stream: true,
        stream_options: { include_usage: true },
      },
    });
    if (execution.kind !== 'stream') throw new Error('expected a stream');
    const encoder = egress.createStreamEncoder?.(context);
    if (encoder === undefined) throw new Error('expected a stream encoder');
    const events: NormalizedStreamEventV4[] = [];
    let wire = '';
    for await (const event of execution.events) {
      events.push(event);
      wire += textDecoder.decode(encoder.encodeEvent(event));
    }
    const terminal = await execution.terminal;
    wire += textDecoder.decode(encoder.encodeTerminal(terminal));
    expect(wire.endsWith('data: [DONE]\n\n')).toBe(true);
    // What the client received decodes, with this family's own strict decoder, to the same answer.
    const reread = await runStream(wire);
    expect(comparable(reread.terminal)).toEqual(comparable(terminal));
  });

  it('returns a recorded sync answer to the client unchanged in meaning', async () => {
    const { execution } = await executeThroughEngine(
      { model: 'client-model', messages: [{ role: 'user', content: 'How many r?' }] },
      { body: { type: 'json', value: parseSafeJson(readFixture('vercel-ai__deepseek-reasoning.json')) } },
    );
    if (execution.kind !== 'response') throw new Error('expected a response');
    const response = egress.encodeResponse(execution.terminal, context);
    expect(response.status).toBe(200);
    const body = parseSafeJsonBytes(response.body) as { id: string; model: string };
    expect(body).toMatchObject({ id: 'chatcmpl-host', model: 'client-model' });
    expect(comparable(decodeOpenAiChatResponse(body).terminal)).toEqual(comparable(execution.terminal));
  });

  it('returns a provider error to the client in its own envelope, without the provider message', async () => {
    const { execution } = await executeThroughEngine(
      { model: 'client-model', messages: [{ role: 'user', content: 'x' }] },
      {
        status: 429,
        headers: { 'retry-after': '3' },
        body: { type: 'json', value: { error: { message: 'Rate limit for org-secret reached', type: 'requests', code: 'rate_limit_exceeded' } } },
      },
    );
    if (execution.kind !== 'response') throw new Error('expected a response');
    const response = egress.encodeResponse(execution.terminal, context);
    expect(response.status).toBe(429);
    expect(response.headers['retry-after']).toBe('3');
    expect(textDecoder.decode(response.body)).not.toContain('org-secret');
  });
});
