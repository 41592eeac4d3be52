import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { SseItem } from '../../codec-kit/index.js';
import { createOpenAiChatStreamMachine } from './decode-stream.js';
import { stepOutcome } from '../../test-support/step-outcome.js';

type Json = Record<string, unknown>;

const nullish = fc.constantFrom(undefined, null);
/** Delta members: mostly absent, sometimes null, sometimes a value of the right or the wrong type. */
const member = (value: fc.Arbitrary<unknown>) =>
  fc.oneof({ arbitrary: fc.constant(ABSENT), weight: 60 }, { arbitrary: nullish, weight: 2 }, { arbitrary: value, weight: 1 }, { arbitrary: fc.constantFrom(1, [], {}, true), weight: 1 });
const ABSENT = Symbol('absent');

const delta = fc
  .record({
    content: fc.oneof({ arbitrary: fc.string({ minLength: 1, maxLength: 6 }), weight: 30 }, { arbitrary: fc.constantFrom('', null, undefined, 7), weight: 1 }),
    role: member(fc.constantFrom('assistant', '', 'user')),
    refusal: member(fc.string({ maxLength: 4 })),
    reasoning_content: member(fc.string({ maxLength: 4 })),
    reasoning: member(fc.string({ maxLength: 4 })),
    tool_calls: member(fc.constant([{ index: 0, id: 'call_1', function: { name: 'f', arguments: '{}' } }])),
    function_call: member(fc.constant({ name: 'g', arguments: '{}' })),
    extra: member(fc.string()),
  })
  .map((fields) => Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== ABSENT)));

const choice = fc
  .tuple(
    fc.record({
    index: fc.oneof({ arbitrary: fc.constant(0), weight: 40 }, { arbitrary: fc.constantFrom(1, undefined, null, -1, '0'), weight: 1 }),
    delta: fc.oneof({ arbitrary: delta, weight: 40 }, { arbitrary: fc.constantFrom(null, undefined, [], 'x'), weight: 1 }),
    finish_reason: fc.oneof({ arbitrary: nullish, weight: 40 }, { arbitrary: fc.constantFrom('stop', 'length', 'tool_calls', 'content_filter', 5), weight: 1 }),
    logprobs: fc.constant(null),
    }),
    fc.boolean(),
  )
  // An `undefined` member is sometimes left out, sometimes present.
  .map(([fields, keepUndefined]) => Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined || keepUndefined)));

const chunkJson: fc.Arbitrary<Json | unknown> = fc.oneof(
  {
    arbitrary: fc.record({
      id: fc.constant('chatcmpl-1'),
      object: fc.constant('chat.completion.chunk'),
      model: fc.oneof({ arbitrary: fc.constant('gpt-x'), weight: 40 }, { arbitrary: fc.constantFrom(null, 5, undefined), weight: 1 }),
      choices: fc.oneof({ arbitrary: fc.tuple(choice), weight: 40 }, { arbitrary: fc.constantFrom([], null, 'x'), weight: 1 }, { arbitrary: fc.array(choice, { minLength: 2, maxLength: 2 }), weight: 1 }),
      usage: fc.oneof({ arbitrary: fc.constant(undefined), weight: 40 }, { arbitrary: fc.constantFrom(null, { prompt_tokens: 3, completion_tokens: 2, total_tokens: 5 }, 'x'), weight: 1 }),
      error: fc.oneof({ arbitrary: fc.constant(undefined), weight: 20 }, { arbitrary: fc.constantFrom(null, false, { message: 'm', type: 't' }), weight: 1 }),
    }),
    weight: 20,
  },
  { arbitrary: fc.constantFrom([], 'text', 5, null), weight: 1 },
);

const frame: fc.Arbitrary<SseItem> = fc.oneof(
  { arbitrary: chunkJson.map((json): SseItem => ({ kind: 'event', event: undefined, id: undefined, data: JSON.stringify(json) ?? 'null' })), weight: 30 },
  { arbitrary: fc.constant<SseItem>({ kind: 'event', event: undefined, id: undefined, data: '[DONE]' }), weight: 1 },
);

describe('openai-chat stream machine: the plain text fast path', () => {
  it('gives the same step, or the same error, as the general reader for every frame of any sequence (property)', () => {
    let fast = 0;
    fc.assert(
      fc.property(fc.array(frame, { minLength: 1, maxLength: 16 }), (frames) => {
        const withFastPath = createOpenAiChatStreamMachine();
        const general = createOpenAiChatStreamMachine({ plainTextFastPath: false });
        for (const item of frames) {
          const expected = stepOutcome(() => general.onFrame(item));
          expect(stepOutcome(() => withFastPath.onFrame(item))).toEqual(expected);
          expect(withFastPath.usageSoFar?.()).toEqual(general.usageSoFar?.());
          const step = (expected as { step?: { events?: { type: string }[] } }).step;
          if (step?.events?.length === 1 && step.events[0]?.type === 'text-delta') fast += 1;
          if ((expected as { threw?: string }).threw !== undefined) break;
        }
        expect(stepOutcome(() => withFastPath.onEnd?.())).toEqual(stepOutcome(() => general.onEnd?.()));
      }),
      { numRuns: 3000 },
    );
    // Plain text deltas (the fast path's case) came up often, beside everything else.
    expect(fast).toBeGreaterThan(3000);
  });
});
