import fc from 'fast-check';
import { EGRESS_STREAM_EVENT_TEXT_V1, type AdapterTerminalOutcomeV3, type EgressContextV1, type NormalizedStreamEventV1 } from '@tokenforge/model-protocol';
import { describe, expect, it } from 'vitest';
import { createOpenAiChatStreamEncoder } from './encode-client-stream.js';

// The delta templates are a fast path of the stream encoder: for any context and any events they must write the
// very bytes the general path (the whole chunk object serialised) writes.

const text = fc.oneof(
  fc.string({ maxLength: 8 }),
  fc.string({ unit: 'grapheme', maxLength: 6 }),
  fc.string({ unit: 'binary', maxLength: 6 }),
  fc.constantFrom('"', '\\', '\n', '\r\n', '\u2028', '\ud800', '</script>', '\u0000'),
);
const context: fc.Arbitrary<EgressContextV1> = fc.record({ responseId: text, modelLabel: text, createdAtMs: fc.oneof(fc.integer({ min: 0, max: 4_000_000_000_000 }), fc.constant(-1)) });

const event: fc.Arbitrary<NormalizedStreamEventV1> = fc.oneof(
  { arbitrary: fc.record({ type: fc.constantFrom('text-delta' as const, 'reasoning-delta' as const, 'refusal-delta' as const), index: fc.nat(3), delta: text }), weight: 6 },
  { arbitrary: fc.record({ type: fc.constant('tool-call-start' as const), index: fc.nat(3), toolCallId: text, toolName: text }), weight: 1 },
  { arbitrary: fc.record({ type: fc.constant('tool-call-delta' as const), index: fc.nat(4), delta: text }), weight: 3 },
  { arbitrary: fc.record({ type: fc.constant('tool-call-end' as const), index: fc.nat(3), argumentsText: text }), weight: 1 },
  { arbitrary: fc.record({ type: fc.constantFrom('text-start' as const, 'text-end' as const), index: fc.nat(3) }), weight: 1 },
);

describe('openai-chat stream encoder delta templates', () => {
  it('write the same bytes as the general path for any context and events', () => {
    let templated = 0;
    fc.assert(
      fc.property(context, fc.array(event, { maxLength: 30 }), (ctx, events) => {
        const fast = createOpenAiChatStreamEncoder(ctx);
        const general = createOpenAiChatStreamEncoder(ctx, { deltaTemplates: false });
        let sawFirstFrame = false;
        for (const item of events) {
          const expected = general.encodeEvent(item);
          expect(Buffer.from(fast.encodeEvent(item)).toString('hex')).toBe(Buffer.from(expected).toString('hex'));
          if (expected.byteLength > 0 && sawFirstFrame && item.type.endsWith('-delta')) templated += 1;
          if (expected.byteLength > 0) sawFirstFrame = true;
        }
        const terminal: AdapterTerminalOutcomeV3 = { status: 'completed', result: { kind: 'chat', content: [] }, finishReason: { unified: 'stop' } };
        expect(Buffer.from(fast.encodeTerminal(terminal))).toEqual(Buffer.from(general.encodeTerminal(terminal)));
      }),
      { numRuns: 400 },
    );
    // Not vacuous: most runs wrote deltas after the first chunk, i.e. through the templates.
    expect(templated).toBeGreaterThan(200);
  });

  it('give each event as the text whose UTF-8 bytes the general path writes, for any context and events', () => {
    let written = 0;
    fc.assert(
      fc.property(context, fc.array(event, { maxLength: 30 }), (ctx, events) => {
        const fast = createOpenAiChatStreamEncoder(ctx);
        const general = createOpenAiChatStreamEncoder(ctx, { deltaTemplates: false });
        const eventText = fast[EGRESS_STREAM_EVENT_TEXT_V1];
        if (eventText === undefined) throw new Error('the encoder offers no event text');
        for (const item of events) {
          const expected = general.encodeEvent(item);
          expect(Buffer.from(eventText(item), 'utf8').toString('hex')).toBe(Buffer.from(expected).toString('hex'));
          if (expected.byteLength > 0) written += 1;
        }
        const terminal: AdapterTerminalOutcomeV3 = { status: 'completed', result: { kind: 'chat', content: [] }, finishReason: { unified: 'stop' } };
        expect(Buffer.from(fast.encodeTerminal(terminal))).toEqual(Buffer.from(general.encodeTerminal(terminal)));
        expect(eventText({ type: 'text-delta', index: 0, delta: 'after the end' })).toBe('');
      }),
      { numRuns: 400 },
    );
    expect(written).toBeGreaterThan(800);
  });
});
