import { describe, expect, it } from 'vitest';
import type { ChatTaskV4, EgressContextV1 } from '@tokenforge/model-protocol';
import { decodeOpenAiResponsesResponse } from './decode-response.js';
import { createOpenAiResponsesEgressCodec } from './egress.js';
import { createOpenAiResponsesStreamEncoder } from './encode-client-stream.js';
import { encodeOpenAiResponsesRequest } from './encode-request.js';
import { decodeOpenAiResponsesClientRequest } from './ingress.js';
import { completed, opening, responseObject, textMessage } from './test-support/constructed-events.js';
import fc from 'fast-check';
import { readFixture, runStream, splitBytes, sse, typedSse } from './test-support/stream-harness.js';
import { parseSafeJson } from '../../codec-kit/index.js';

/*
 * Compaction a Responses provider emits, built from https://developers.openai.com/api/docs/guides/compaction
 * ("setting `context_management` with `compact_threshold`"; "the response stream includes the encrypted compaction
 * item", `{"type":"compaction","id":"cmp_…","encrypted_content":"…"}`, appended to the next input as it came) and
 * the request form `context_management: [{"type":"compaction","compact_threshold":200000}]`.
 */

const ITEM = { id: 'cmp_68d2a1f0b7c48190a3c1', type: 'compaction', encrypted_content: 'gAAAAABo0qHwY29tcGFjdGVkLWhpc3Rvcnk=' };
const CONTEXT: EgressContextV1 = { responseId: 'resp_gw', modelLabel: 'gpt', createdAtMs: 0 };
const encoder = new TextEncoder();
const decoder = new TextDecoder();
const message = { id: 'msg_1', type: 'message', status: 'completed', role: 'assistant', content: [{ type: 'output_text', annotations: [], text: 'Next step.' }] };

function sseData(bytes: string): Record<string, unknown>[] {
  return bytes
    .split('\n')
    .filter((line) => line.startsWith('data: '))
    .map((line) => JSON.parse(line.slice(6)) as Record<string, unknown>);
}

describe('openai-responses: compaction the provider emits', () => {
  it('decodes a compaction output item into a compaction part with its id, and writes the same item back to a Responses client', () => {
    const { terminal } = decodeOpenAiResponsesResponse(responseObject('completed', { output: [ITEM, message] }));
    expect(terminal).toMatchObject({
      status: 'completed',
      result: { content: [{ type: 'compaction', data: ITEM.encrypted_content, id: ITEM.id }, { type: 'text', text: 'Next step.' }] },
    });
    const written = JSON.parse(decoder.decode(createOpenAiResponsesEgressCodec().encodeResponse(terminal, CONTEXT).body)) as { output: unknown[] };
    expect(JSON.stringify(written.output[0])).toBe(JSON.stringify(ITEM));
  });

  it('refuses a whole compaction item without its encrypted_content', () => {
    const { terminal } = decodeOpenAiResponsesResponse(responseObject('completed', { output: [{ id: ITEM.id, type: 'compaction' }] }));
    expect(terminal).toMatchObject({ status: 'failed', failure: { code: 'protocol-violation' } });
  });

  it('decodes a streamed compaction item into one whole event at output_item.done and streams the same item back', async () => {
    const run = await runStream(
      sse([
        ...opening(),
        { type: 'response.output_item.added', output_index: 0, item: { id: ITEM.id, type: 'compaction' } },
        { type: 'response.output_item.done', output_index: 0, item: ITEM },
        ...textMessage('msg_1', 1, ['Next', ' step.']),
        completed([ITEM, message]),
      ]),
    );
    expect(run.events[0]).toEqual({ type: 'compaction', index: 0, data: ITEM.encrypted_content, id: ITEM.id });
    expect(run.terminal).toMatchObject({ status: 'completed', result: { content: [{ type: 'compaction', data: ITEM.encrypted_content, id: ITEM.id }, { type: 'text', text: 'Next step.' }] } });

    const stream = createOpenAiResponsesStreamEncoder(CONTEXT);
    const out = run.events.map((event) => decoder.decode(stream.encodeEvent(event))).join('') + decoder.decode(stream.encodeTerminal(run.terminal));
    const written = sseData(out);
    const done = written.find((event) => event.type === 'response.output_item.done');
    expect(JSON.stringify(done?.item)).toBe(JSON.stringify(ITEM));
    const final = written.at(-1) as { response: { output: unknown[] } };
    expect(JSON.stringify(final.response.output[0])).toBe(JSON.stringify(ITEM));
  });

  it('fails a stream whose compaction item never ends before the terminal', async () => {
    const run = await runStream(sse([...opening(), { type: 'response.output_item.added', output_index: 0, item: { id: ITEM.id, type: 'compaction' } }, completed([])]));
    expect(run.terminal).toMatchObject({ status: 'failed', failure: { code: 'protocol-violation' } });
  });

  it('reads context_management compaction with its threshold and sends it on as it came', () => {
    const request = { model: 'm', input: 'hi', context_management: [{ type: 'compaction', compact_threshold: 200000 }] };
    const task = decodeOpenAiResponsesClientRequest({ path: '/responses', body: encoder.encode(JSON.stringify(request)) }).task as ChatTaskV4;
    expect(task.compaction).toEqual({ triggerInputTokens: 200000 });
    const sent = encodeOpenAiResponsesRequest(task, 'm').body.value;
    expect(JSON.stringify(sent.context_management)).toBe(JSON.stringify(request.context_management));
    const without = decodeOpenAiResponsesClientRequest({ path: '/responses', body: encoder.encode(JSON.stringify({ model: 'm', input: 'hi' })) }).task as ChatTaskV4;
    expect(encodeOpenAiResponsesRequest(without, 'm').body.value).not.toHaveProperty('context_management');
  });

  it('reads the constructed fixtures the simulator serves (constructed__openai-responses-compaction), sync and stream alike', async () => {
    const sync = decodeOpenAiResponsesResponse(parseSafeJson(readFixture('constructed__openai-responses-compaction.json'))).terminal;
    const streamed = await runStream(typedSse(readFixture('constructed__openai-responses-compaction.chunks.txt')));
    expect(sync).toMatchObject({ status: 'completed', result: { content: [{ type: 'compaction', id: 'cmp_constructed_01' }, { type: 'text' }] } });
    expect(streamed.terminal).toEqual(sync);
  });

  it('any split of the compaction stream\'s bytes gives the same events and terminal', async () => {
    const bytes = encoder.encode(typedSse(readFixture('constructed__openai-responses-compaction.chunks.txt')));
    const reference = await runStream([bytes]);
    await fc.assert(
      fc.asyncProperty(fc.array(fc.integer({ min: 1, max: bytes.byteLength - 1 }), { maxLength: 30 }), async (cuts) => {
        const result = await runStream(splitBytes(bytes, cuts));
        expect(result.events).toEqual(reference.events);
        expect(result.terminal).toEqual(reference.terminal);
      }),
      { numRuns: 40 },
    );
  });
});
