import type { EgressContextV1 } from '@tokenforge/model-protocol';
import { describe, expect, it } from 'vitest';
import { parseSafeJson, parseSafeJsonBytes } from '../../codec-kit/index.js';
import { decodeOpenAiResponsesResponse } from './decode-response.js';
import { createOpenAiResponsesEgressCodec } from './egress.js';
import { encodeOpenAiResponsesRequest } from './encode-request.js';
import { decodeOpenAiResponsesClientRequest } from './ingress.js';
import { readFixture, runStream, splitRecordedResponses, typedSse } from './test-support/stream-harness.js';

const context: EgressContextV1 = { responseId: 'resp_gw', modelLabel: 'gw', createdAtMs: 1_000 };
const codec = createOpenAiResponsesEgressCodec();
const decoder = new TextDecoder();

describe('openai-responses round trips', () => {
  it('client request -> task -> provider request keeps every field the family carries', () => {
    const client = {
      model: 'label',
      instructions: 'Be brief.',
      input: [
        { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'Add 1 and 2' }] },
        { type: 'reasoning', summary: [], encrypted_content: 'enc-only' },
        { type: 'function_call', call_id: 'call_1', name: 'add', arguments: '{"a":1,"b":2}' },
        { type: 'function_call_output', call_id: 'call_1', output: '3' },
      ],
      tools: [{ type: 'function', name: 'add', parameters: { type: 'object' }, strict: true }],
      tool_choice: 'auto',
      text: { format: { type: 'json_schema', name: 'sum', schema: { type: 'object' }, strict: true } },
      temperature: 0.3,
      max_output_tokens: 100,
      reasoning: { effort: 'high', summary: 'auto' },
      prompt_cache_key: 'k',
      stream: true,
    };
    const { task, modelLabel } = decodeOpenAiResponsesClientRequest({ path: '/responses', body: new TextEncoder().encode(JSON.stringify(client)) });
    const encoded = encodeOpenAiResponsesRequest(task, modelLabel, { encryptedReasoning: true });
    expect(encoded.body.value).toEqual({ ...client, store: false, include: ['reasoning.encrypted_content'] });
  });

  it('recorded sync body -> terminal -> egress Response -> terminal is stable', () => {
    const first = decodeOpenAiResponsesResponse(parseSafeJson(readFixture('vercel-ai__openai-phase.1.json'))).terminal;
    const written = codec.encodeResponse(first, context);
    const again = decodeOpenAiResponsesResponse(parseSafeJsonBytes(written.body));
    expect(again).toEqual({ terminal: first, providerModel: 'gw' });
  });

  it.each([0, 1, 3])('recorded stream step %i -> events -> egress stream -> the same events and terminal', async (step) => {
    const recorded = await runStream(typedSse(splitRecordedResponses(readFixture('vercel-ai__openai-reasoning-encrypted-content.1.chunks.txt'))[step] ?? ''));
    const encoder = codec.createStreamEncoder?.(context);
    if (encoder === undefined) throw new Error('no stream encoder');
    const body = [...recorded.events.map((event) => encoder.encodeEvent(event)), encoder.encodeTerminal(recorded.terminal)].map((bytes) => decoder.decode(bytes)).join('');
    const replayed = await runStream(body);
    expect(replayed.events).toEqual(recorded.events);
    expect(replayed.terminal).toEqual(recorded.terminal);
  });

  it('a recorded mid-stream failure -> egress error + response.failed -> one failure with the same code', async () => {
    const recorded = await runStream(typedSse(readFixture('vercel-ai__openai-error.1.chunks.txt')));
    const encoder = codec.createStreamEncoder?.(context);
    const replayed = await runStream(decoder.decode(encoder?.encodeTerminal(recorded.terminal)));
    expect(replayed.terminal).toEqual(recorded.terminal);
    expect(replayed.events).toEqual([]);
  });
});
