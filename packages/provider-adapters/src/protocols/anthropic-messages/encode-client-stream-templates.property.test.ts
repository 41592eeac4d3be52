import fc from 'fast-check';
import { EGRESS_STREAM_EVENT_TEXT_V1, type AdapterTerminalOutcomeV3, type EgressContextV1, type NormalizedStreamEventV1 } from '@tokenforge/model-protocol';
import { describe, expect, it } from 'vitest';
import { createAnthropicMessagesStreamEncoder } from './encode-client-stream.js';

// The delta templates (text, refusal, reasoning, tool arguments) are a fast path of the stream encoder: for any context and any events (well-formed or
// not) it must write the very bytes, or throw the very error, the general path does.

const text = fc.oneof(
  fc.string({ maxLength: 8 }),
  fc.string({ unit: 'grapheme', maxLength: 6 }),
  fc.string({ unit: 'binary', maxLength: 6 }),
  fc.constantFrom('', '"', '\\', '\n', '\r\n', '\u2028', '\ud800', '\u0000'),
);
const context: fc.Arbitrary<EgressContextV1> = fc.record({ responseId: text, modelLabel: text, createdAtMs: fc.integer({ min: 0, max: 4_000_000_000_000 }) });
const index = fc.nat(2);
const event: fc.Arbitrary<NormalizedStreamEventV1> = fc.oneof(
  { arbitrary: fc.record({ type: fc.constantFrom('text-delta' as const, 'refusal-delta' as const), index, delta: text }), weight: 8 },
  { arbitrary: fc.record({ type: fc.constantFrom('text-start' as const, 'refusal-start' as const, 'text-end' as const, 'reasoning-start' as const, 'tool-call-end' as const), index, argumentsText: text }) as fc.Arbitrary<NormalizedStreamEventV1>, weight: 2 },
  { arbitrary: fc.record({ type: fc.constant('tool-call-start' as const), index, toolCallId: text, toolName: text }), weight: 1 },
  { arbitrary: fc.record({ type: fc.constant('reasoning-delta' as const), index, delta: text }), weight: 3 },
  { arbitrary: fc.record({ type: fc.constant('tool-call-delta' as const), index, delta: text }), weight: 3 },
  // A tool block's end after its deltas: the end writes the whole arguments only when no delta was written.
  { arbitrary: fc.record({ type: fc.constant('tool-call-end' as const), index: fc.constant(2), argumentsText: text }), weight: 1 },
  { arbitrary: fc.record({ type: fc.constant('usage' as const), usage: fc.record({ inputTokens: fc.nat(99), outputTokens: fc.nat(99), totalTokens: fc.nat(200) }) }), weight: 1 },
);

/** The first events: a text block, or one block of each kind (so reasoning and tool deltas find theirs open). */
const opening: fc.Arbitrary<NormalizedStreamEventV1[]> = fc.constantFrom(
  [{ type: 'text-start', index: 0 }],
  [{ type: 'text-start', index: 0 }, { type: 'reasoning-start', index: 1 }, { type: 'tool-call-start', index: 2, toolCallId: 'toolu_1', toolName: 'f' }],
);

function written(run: () => Uint8Array): string {
  try {
    return Buffer.from(run()).toString('hex');
  } catch (error) {
    return `threw ${String(error)}`;
  }
}

describe('anthropic-messages stream encoder delta template', () => {
  it('writes the same bytes (or throws the same error) as the general path for any context and events', () => {
    let templated = 0;
    let otherTemplated = 0;
    fc.assert(
      fc.property(context, opening, fc.array(event, { maxLength: 30 }), (ctx, opened, events) => {
        const fast = createAnthropicMessagesStreamEncoder(ctx);
        const general = createAnthropicMessagesStreamEncoder(ctx, { deltaTemplates: false });
        let started = false;
        for (const item of [...opened, ...events]) {
          const expected = written(() => general.encodeEvent(item));
          expect(written(() => fast.encodeEvent(item))).toBe(expected);
          if (started && !expected.startsWith('threw') && (item.type === 'text-delta' || item.type === 'refusal-delta')) templated += 1;
          if (started && !expected.startsWith('threw') && expected.length > 0 && (item.type === 'reasoning-delta' || item.type === 'tool-call-delta')) otherTemplated += 1;
          started = true;
        }
        const terminal: AdapterTerminalOutcomeV3 = { status: 'completed', result: { kind: 'chat', content: [] }, finishReason: { unified: 'stop' } };
        expect(written(() => fast.encodeTerminal(terminal))).toBe(written(() => general.encodeTerminal(terminal)));
      }),
      { numRuns: 400 },
    );
    // Not vacuous: many deltas went through the template, reasoning and tool-argument ones among them.
    expect(templated).toBeGreaterThan(200);
    // About 100-116 reasoning and tool-argument deltas a run over seven runs; the bound sits well below.
    expect(otherTemplated).toBeGreaterThan(50);
  });

  it('gives each event as the text whose UTF-8 bytes the general path writes (or throws the same error), for any context and events', () => {
    let writtenEvents = 0;
    fc.assert(
      fc.property(context, fc.array(event, { maxLength: 30 }), (ctx, events) => {
        const fast = createAnthropicMessagesStreamEncoder(ctx);
        const general = createAnthropicMessagesStreamEncoder(ctx, { deltaTemplates: false });
        const eventText = fast[EGRESS_STREAM_EVENT_TEXT_V1];
        if (eventText === undefined) throw new Error('the encoder offers no event text');
        for (const item of [{ type: 'text-start', index: 0 } as NormalizedStreamEventV1, ...events]) {
          const expected = written(() => general.encodeEvent(item));
          expect(written(() => Buffer.from(eventText(item), 'utf8'))).toBe(expected);
          if (!expected.startsWith('threw') && expected.length > 0) writtenEvents += 1;
        }
        const terminal: AdapterTerminalOutcomeV3 = { status: 'completed', result: { kind: 'chat', content: [] }, finishReason: { unified: 'stop' } };
        expect(written(() => fast.encodeTerminal(terminal))).toBe(written(() => general.encodeTerminal(terminal)));
      }),
      { numRuns: 400 },
    );
    // Not vacuous: about 1,030 events a run are written (997-1,061 over six runs); the bound sits far below that.
    expect(writtenEvents).toBeGreaterThan(600);
  });
});
