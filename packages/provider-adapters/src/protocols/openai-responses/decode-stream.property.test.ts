import fc from 'fast-check';
import { adapterTerminalOutcomeSchema } from '@tokenforge/model-protocol';
import { describe, expect, it } from 'vitest';
import { OPENAI_RESPONSES_HARMLESS_EVENT_TYPES, OPENAI_RESPONSES_MAPPED_EVENT_TYPES } from './stream-event-types.js';
import { readFixture, runStream, splitBytes, splitRecordedResponses, sse, typedSse } from './test-support/stream-harness.js';

const encoder = new TextEncoder();
const steps = splitRecordedResponses(readFixture('vercel-ai__openai-reasoning-encrypted-content.1.chunks.txt'));

describe('openai-responses stream properties', () => {
  it('any split of the recorded bytes (and CRLF line endings) gives the same events and terminal', async () => {
    const bytes = encoder.encode(typedSse(steps[0] ?? ''));
    const reference = await runStream([bytes]);
    expect(reference.terminal.status).toBe('completed');
    await fc.assert(
      fc.asyncProperty(fc.array(fc.integer({ min: 1, max: bytes.byteLength - 1 }), { maxLength: 40 }), fc.boolean(), async (cuts, crlf) => {
        const source = crlf ? encoder.encode(typedSse(steps[0] ?? '').replaceAll('\n', '\r\n')) : bytes;
        const result = await runStream(splitBytes(source, cuts));
        expect(result.events).toEqual(reference.events);
        expect(result.terminal).toEqual(reference.terminal);
      }),
      { numRuns: 60 },
    );
  });

  it('random events of known and unknown types with hostile fields end in exactly one valid terminal, never a throw', async () => {
    const known = [...OPENAI_RESPONSES_MAPPED_EVENT_TYPES, ...OPENAI_RESPONSES_HARMLESS_EVENT_TYPES];
    const field = fc.oneof(fc.string(), fc.integer(), fc.constant(null), fc.boolean(), fc.array(fc.string(), { maxLength: 2 }), fc.dictionary(fc.string(), fc.string(), { maxKeys: 2 }));
    const item = fc.record(
      {
        id: fc.oneof(fc.constant('item_1'), fc.constant('item_2'), fc.string()),
        type: fc.constantFrom('message', 'reasoning', 'function_call', 'web_search_call', 'compaction', 'hologram'),
        call_id: fc.oneof(fc.constant('call_1'), field),
        name: fc.oneof(fc.constant('f'), field),
        arguments: fc.oneof(fc.constant('{}'), field),
        content: fc.oneof(fc.constant([]), fc.constant([{ type: 'output_text', text: 'x' }]), field),
        summary: fc.oneof(fc.constant([]), field),
        encrypted_content: fc.oneof(fc.constant('enc'), field),
        role: fc.constantFrom('assistant', 'user'),
      },
      { requiredKeys: ['type'] },
    );
    const event = fc.record(
      {
        type: fc.oneof(fc.constantFrom(...known), fc.string()),
        sequence_number: fc.oneof(fc.nat(), field),
        item_id: fc.oneof(fc.constant('item_1'), fc.constant('item_2'), field),
        output_index: fc.oneof(fc.nat({ max: 3 }), field),
        content_index: fc.oneof(fc.nat({ max: 2 }), field),
        summary_index: fc.oneof(fc.nat({ max: 2 }), field),
        delta: fc.oneof(fc.string(), field),
        text: fc.oneof(fc.string(), field),
        arguments: fc.oneof(fc.string(), field),
        item,
        part: fc.oneof(fc.constant({ type: 'output_text', text: '' }), fc.constant({ type: 'summary_text', text: '' }), field),
        response: fc.oneof(
          fc.record({ status: fc.constantFrom('completed', 'incomplete', 'failed', 'queued'), output: fc.oneof(fc.constant([]), field), usage: fc.oneof(fc.constant(null), field) }),
          field,
        ),
        error: fc.oneof(fc.record({ code: field, message: field }), field),
      },
      { requiredKeys: ['type'] },
    );
    await fc.assert(
      fc.asyncProperty(fc.array(fc.oneof(event, fc.string()), { maxLength: 12 }), async (events) => {
        const result = await runStream(sse(events));
        expect(adapterTerminalOutcomeSchema.safeParse(result.terminal).success).toBe(true);
        expect(result.released).toBe(true);
      }),
      { numRuns: 300 },
    );
  });
});
