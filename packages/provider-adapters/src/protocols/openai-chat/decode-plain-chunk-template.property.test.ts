import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseSafeJson, type SseItem } from '../../codec-kit/index.js';
import { learnPlainChunkTemplate, readPlainChunkContent } from './decode-plain-chunk-template.js';
import { createOpenAiChatStreamMachine } from './decode-stream.js';
import { stepOutcome } from '../../test-support/step-outcome.js';

type Json = Record<string, unknown>;

/** Raw text put where a content string goes: valid literals of every kind, and text that is not one literal. */
const rawLiteral = fc.oneof(
  { arbitrary: fc.string({ unit: 'grapheme', maxLength: 8 }).map((text) => JSON.stringify(text)), weight: 12 },
  { arbitrary: fc.string({ unit: 'binary', maxLength: 6 }).map((text) => JSON.stringify(text)), weight: 3 },
  { arbitrary: fc.string({ unit: fc.constantFrom('a', '"', '\\', 'u', '0', '4', '1', '\n', '\u0001', ' ', ',', ':', '}', 'é'), maxLength: 8 }).map((text) => `"${text}"`), weight: 2 },
  { arbitrary: fc.constantFrom('""', '"a"b"', '"a","role":"user"', '"a"}', '1', 'null', ' "a"', '"a" ', '"\\u00e9\\/"', '"\\x"', '"a', 'a"', '"\\"', '"\\\\"'), weight: 2 },
);

const CHOICE_TAIL_MEMBERS: [string, unknown][] = [
  ['logprobs', null],
  ['finish_reason', null],
];

/** How one server writes its plain chunks: member order, extra members, OpenAI's padding, spacing. */
const shape = fc.record({
  order: fc.shuffledSubarray(['id', 'object', 'created', 'model', 'system_fingerprint', 'service_tier', 'usage', 'choices'], { minLength: 8, maxLength: 8 }),
  model: fc.constantFrom('gpt-x', 'tok', 'a "quoted" model', 'content'),
  choiceFirst: fc.boolean(),
  deltaExtra: fc.option(fc.constantFrom<[string, unknown]>(['x', 1], ['content_type', 'text'], ['role', null]), { nil: undefined }),
  obfuscation: fc.boolean(),
  spaced: fc.boolean(),
});

type Shape = typeof shape extends fc.Arbitrary<infer T> ? T : never;

/** The chunk text of `s` with `literal` written as the content's raw text. */
function chunkText(s: Shape, literal: string, padding: string, created: number): string {
  const delta: Json = { content: '\u0000CONTENT\u0000' };
  if (s.deltaExtra !== undefined) delta[s.deltaExtra[0]] = s.deltaExtra[1];
  const choiceEntries: [string, unknown][] = [['index', 0], ['delta', delta], ...CHOICE_TAIL_MEMBERS];
  const choice = Object.fromEntries(s.choiceFirst ? choiceEntries : [...choiceEntries].reverse());
  const values: Json = { id: 'chatcmpl-1', object: 'chat.completion.chunk', created, model: s.model, system_fingerprint: 'fp_1', service_tier: 'default', usage: null, choices: [choice] };
  const chunk: Json = Object.fromEntries(s.order.map((key) => [key, values[key]]));
  if (s.obfuscation) chunk.obfuscation = padding;
  return JSON.stringify(chunk, null, s.spaced ? 1 : undefined).replace('"\\u0000CONTENT\\u0000"', literal);
}

function singleLiteral(text: string): boolean {
  try {
    return text.startsWith('"') && text.endsWith('"') && typeof JSON.parse(text) === 'string';
  } catch {
    return false;
  }
}

const event = (data: string): SseItem => ({ kind: 'event', event: undefined, id: undefined, data });
const ROLE_CHUNK = JSON.stringify({ id: 'chatcmpl-1', object: 'chat.completion.chunk', choices: [{ index: 0, delta: { role: 'assistant', content: '' }, finish_reason: null }] });
const FINISH_CHUNK = JSON.stringify({ id: 'chatcmpl-1', object: 'chat.completion.chunk', choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] });
const REFUSAL_CHUNK = JSON.stringify({ id: 'chatcmpl-1', choices: [{ index: 0, delta: { refusal: 'no' }, finish_reason: null }] });

/** A frame of a stream: mostly the server's plain chunks, sometimes a changed head, another kind of chunk, or the end. */
const frame = (s: Shape): fc.Arbitrary<string> =>
  fc.oneof(
    { arbitrary: fc.tuple(rawLiteral, fc.string({ unit: fc.constantFrom('a', 'Z', '9', '"', '\\'), maxLength: 6 })).map(([literal, padding]) => chunkText(s, literal, padding, 1)), weight: 30 },
    { arbitrary: rawLiteral.map((literal) => chunkText(s, literal, 'pad', 2)), weight: 2 },
    { arbitrary: rawLiteral.map((literal) => chunkText(s, literal, 'pad', 1).slice(0, -1)), weight: 1 },
    { arbitrary: fc.constantFrom(ROLE_CHUNK, FINISH_CHUNK, REFUSAL_CHUNK, '[DONE]'), weight: 2 },
  );

const stream = shape.chain((s) => fc.tuple(fc.constant(s), fc.array(frame(s), { minLength: 1, maxLength: 24 })));

describe('openai-chat stream machine: plain chunks read from their template', () => {
  it('gives the same step, or the same error, as the general reader for every frame of generated streams (property)', () => {
    let templated = 0;
    fc.assert(
      fc.property(stream, ([, frames]) => {
        let fast = createOpenAiChatStreamMachine();
        let general = createOpenAiChatStreamMachine({ plainTextFastPath: false });
        const fresh = (): void => {
          fast = createOpenAiChatStreamMachine();
          general = createOpenAiChatStreamMachine({ plainTextFastPath: false });
          expect(fast.onFrame(event(ROLE_CHUNK))).toEqual(general.onFrame(event(ROLE_CHUNK)));
        };
        fresh();
        for (const data of frames) {
          const expected = stepOutcome(() => general.onFrame(event(data)));
          expect(stepOutcome(() => fast.onFrame(event(data)))).toEqual(expected);
          expect(fast.usageSoFar?.()).toEqual(general.usageSoFar?.());
          const step = (expected as { step?: { events?: { type: string }[]; terminal?: unknown } }).step;
          if (step?.events?.length === 1 && step.events[0]?.type === 'text-delta') templated += 1;
          // A stream ends at an error or a terminal: the rest of the frames go to a new stream.
          if ((expected as { threw?: string }).threw !== undefined || step?.terminal !== undefined) fresh();
        }
      }),
      { numRuns: 4000 },
    );
    expect(templated).toBeGreaterThan(8_000);
  });

  it('reads a chunk of the learned template to exactly what the full parse gives, for any raw content text (property)', () => {
    let read = 0;
    fc.assert(
      fc.property(shape, rawLiteral, rawLiteral, fc.string({ maxLength: 6 }), (s, learned, literal, padding) => {
        const learnedText = chunkText(s, learned, 'pad0', 1);
        let learnedContent: unknown;
        try {
          learnedContent = (JSON.parse(learnedText) as { choices: [{ delta: { content: unknown } }] }).choices[0].delta.content;
        } catch {
          return;
        }
        if (typeof learnedContent !== 'string' || learnedContent.length === 0) return;
        const contentOf = (value: unknown): string | undefined => {
          const content = (value as { choices?: [{ delta?: { content?: unknown } }] }).choices?.[0]?.delta?.content;
          return typeof content === 'string' ? content : undefined;
        };
        const template = learnPlainChunkTemplate(learnedText, learnedContent, parseSafeJson, contentOf);
        if (template === undefined) return;
        const text = chunkText(s, literal, padding, 1);
        let expected: unknown;
        try {
          expected = contentOf(JSON.parse(text));
        } catch {
          expected = undefined;
        }
        const got = readPlainChunkContent(text, template);
        if (got !== undefined) {
          read += 1;
          expect(got).toBe(expected);
        }
        // A text the template cannot read is left to the general reader; a valid chunk of the same shape is always read.
        if (expected !== undefined && singleLiteral(learned) && singleLiteral(literal) && !(s.spaced && s.obfuscation)) expect(got).toBe(expected);
      }),
      { numRuns: 5000 },
    );
    expect(read).toBeGreaterThan(1500);
  });

  it('learns no template from a chunk whose content literal is spelled otherwise, and declines a chunk with another head', () => {
    const contentOf = (value: unknown): string | undefined => (value as { choices: [{ delta: { content?: string } }] }).choices[0].delta.content;
    expect(learnPlainChunkTemplate('{"choices":[{"index":0,"delta":{"content":"\\u0041"}}]}', 'A', parseSafeJson, contentOf)).toBeUndefined();
    const template = learnPlainChunkTemplate('{"model":"m","choices":[{"index":0,"delta":{"content":"m"}}],"obfuscation":"ab"}', 'm', parseSafeJson, contentOf);
    expect(template).toEqual({ head: '{"model":"m","choices":[{"index":0,"delta":{"content":', middle: '}}],"obfuscation":', varyingLast: true });
    expect(readPlainChunkContent('{"model":"m","choices":[{"index":0,"delta":{"content":"hi"}}],"obfuscation":"xyz1"}', template!)).toBe('hi');
    expect(readPlainChunkContent('{"model":"n","choices":[{"index":0,"delta":{"content":"hi"}}],"obfuscation":"xyz1"}', template!)).toBeUndefined();
  });
});
