import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { SseItem } from '../../codec-kit/index.js';
import { createAnthropicMessagesStreamMachine } from './decode-stream.js';
import { stepOutcome } from '../../test-support/step-outcome.js';

const index = fc.oneof({ arbitrary: fc.constantFrom(0, 1), weight: 20 }, { arbitrary: fc.constantFrom(2, -1, 0.5, '0', null, -0), weight: 1 });
const deltaBody = fc.oneof(
  { arbitrary: fc.record({ type: fc.constant('text_delta'), text: fc.string({ maxLength: 4 }) }), weight: 6 },
  { arbitrary: fc.record({ type: fc.constant('input_json_delta'), partial_json: fc.string({ maxLength: 4 }) }), weight: 6 },
  { arbitrary: fc.record({ type: fc.constant('thinking_delta'), thinking: fc.string({ maxLength: 4 }) }), weight: 1 },
  { arbitrary: fc.record({ type: fc.constant('citations_delta'), citation: fc.constant({}) }), weight: 1 },
  { arbitrary: fc.record({ type: fc.constantFrom('text_delta', 'input_json_delta', 'bogus'), text: fc.constantFrom(1, null), partial_json: fc.constantFrom(1, null) }), weight: 1 },
  { arbitrary: fc.constantFrom(null, [], 'x', 3), weight: 1 },
);

/** Wire events (as JSON values) in every order, mostly well-formed, with the SSE event name matching or not. */
const wireEvent: fc.Arbitrary<{ readonly json: unknown; readonly name: string | undefined }> = fc
  .tuple(
    fc.oneof(
      { arbitrary: fc.record({ type: fc.constant('content_block_delta'), index, delta: deltaBody }), weight: 20 },
      { arbitrary: fc.record({ type: fc.constant('message_start'), message: fc.constant({ id: 'msg_1', model: 'm', usage: { input_tokens: 3, output_tokens: 1 } }) }), weight: 2 },
      { arbitrary: fc.record({ type: fc.constant('content_block_start'), index, content_block: fc.constantFrom({ type: 'text', text: '' }, { type: 'tool_use', id: 'toolu_1', name: 'f', input: {} }, { type: 'thinking', thinking: '', signature: '' }) }), weight: 3 },
      { arbitrary: fc.record({ type: fc.constant('content_block_stop'), index }), weight: 2 },
      { arbitrary: fc.record({ type: fc.constant('message_delta'), delta: fc.constant({ stop_reason: 'end_turn' }), usage: fc.constant({ output_tokens: 5 }) }), weight: 1 },
      { arbitrary: fc.constant({ type: 'message_stop' }), weight: 1 },
      { arbitrary: fc.constant({ type: 'ping' }), weight: 1 },
      { arbitrary: fc.constantFrom([], 'text', 7, null), weight: 1 },
    ),
    fc.oneof({ arbitrary: fc.constant('same'), weight: 12 }, { arbitrary: fc.constantFrom(undefined, 'content_block_delta', 'ping'), weight: 1 }),
  )
  .map(([json, name]) => ({ json, name: name === 'same' ? ((json as { type?: unknown } | null)?.type as string | undefined) : name }));

/** A block started at index 0 or 1 and mostly deltas of its own kind (well-formed or not), then often its stop. */
const blockRun = fc
  .tuple(
    fc.constantFrom(0, 1),
    fc.constantFrom(
      { kind: 'text', block: { type: 'text', text: '' }, delta: (text: string) => ({ type: 'text_delta', text }) },
      { kind: 'tool', block: { type: 'tool_use', id: 'toolu_1', name: 'f', input: {} }, delta: (text: string) => ({ type: 'input_json_delta', partial_json: text }) },
    ),
    fc.array(fc.oneof({ arbitrary: fc.string({ maxLength: 4 }), weight: 12 }, { arbitrary: fc.constant(undefined), weight: 1 }), { maxLength: 8 }),
    fc.array(wireEvent, { maxLength: 1 }),
    fc.boolean(),
  )
  .map(([at, kind, texts, noise, stop]) => [
    { json: { type: 'content_block_start', index: at, content_block: kind.block }, name: 'content_block_start' },
    ...texts.map((text) => ({ json: { type: 'content_block_delta', index: at, delta: text === undefined ? { type: 'bogus' } : kind.delta(text) }, name: 'content_block_delta' })),
    ...noise,
    ...(stop ? [{ json: { type: 'content_block_stop', index: at }, name: 'content_block_stop' }] : []),
  ]);

describe('anthropic-messages stream machine: the plain delta fast path', () => {
  it('gives the same step, or the same error, as the general reader for every frame of any sequence (property)', () => {
    let plainDeltas = 0;
    fc.assert(
      fc.property(fc.array(fc.oneof({ arbitrary: blockRun, weight: 4 }, { arbitrary: wireEvent.map((event) => [event]), weight: 1 }), { minLength: 1, maxLength: 6 }), (runs) => {
        const events = runs.flat();
        const withFastPath = createAnthropicMessagesStreamMachine({ headers: {}, nowMs: 0 });
        const general = createAnthropicMessagesStreamMachine({ headers: {}, nowMs: 0, plainDeltaFastPath: false });
        const frames: SseItem[] = [
          { kind: 'event', event: 'message_start', id: undefined, data: JSON.stringify({ type: 'message_start', message: { id: 'msg_1', usage: { input_tokens: 3, output_tokens: 1 } } }) },
          ...events.map(({ json, name }): SseItem => ({ kind: 'event', event: typeof name === 'string' ? name : undefined, id: undefined, data: JSON.stringify(json) })),
        ];
        for (const frame of frames) {
          const expected = stepOutcome(() => general.onFrame(frame));
          expect(stepOutcome(() => withFastPath.onFrame(frame))).toEqual(expected);
          expect(withFastPath.usageSoFar?.()).toEqual(general.usageSoFar?.());
          const step = (expected as { step?: { events?: { type: string }[]; terminal?: unknown } }).step;
          if (step?.events?.length === 1 && (step.events[0]?.type === 'text-delta' || step.events[0]?.type === 'tool-call-delta')) plainDeltas += 1;
          if ((expected as { threw?: string }).threw !== undefined || step?.terminal !== undefined) break;
        }
      }),
      { numRuns: 3000 },
    );
    // Deltas that continue an open block (the fast path's case) came up often, beside everything else.
    expect(plainDeltas).toBeGreaterThan(2000);
  });
});
