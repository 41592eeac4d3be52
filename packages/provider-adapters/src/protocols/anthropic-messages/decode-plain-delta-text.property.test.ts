import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseSafeJson } from '../../codec-kit/index.js';
import { createPlainDeltaTextReader, decodePlainDeltaText } from './decode-plain-delta-text.js';

/** What the general path reads from the parsed event: the fields the plain delta step looks at. */
function parsedFields(text: string): unknown {
  let value: unknown;
  try {
    value = parseSafeJson(text);
  } catch {
    return 'unparsable';
  }
  const event = value as { type?: unknown; index?: unknown; delta?: { type?: unknown; text?: unknown; partial_json?: unknown } | null } | null;
  if (typeof event !== 'object' || event === null || event.type !== 'content_block_delta' || typeof event.delta !== 'object' || event.delta === null) return 'other';
  if (event.delta.type === 'text_delta' && typeof event.delta.text === 'string') return { index: event.index, kind: 'text', fragment: event.delta.text };
  if (event.delta.type === 'input_json_delta' && typeof event.delta.partial_json === 'string') return { index: event.index, kind: 'tool', fragment: event.delta.partial_json };
  return 'other';
}

const fragment = fc.oneof(fc.string({ maxLength: 12 }), fc.string({ unit: 'binary', maxLength: 6 }), fc.constantFrom('"', '\\', '\u0000', '\u2028', '"}}', '{"a":1}', '\ud800'));
const delta = fc.oneof(
  fragment.map((text) => ({ type: 'text_delta', text })),
  fragment.map((partial_json) => ({ type: 'input_json_delta', partial_json })),
  fc.constantFrom({ type: 'thinking_delta', thinking: 'x' }, { type: 'text_delta', text: 1 }, { type: 'text_delta' }, { type: 'input_json_delta', partial_json: null }),
);
const index = fc.oneof(fc.nat(20), fc.constantFrom(1_234_567, 12_345_678, -1, 0.5, 1e21));
/** The compact wire spelling, as the API and JSON.stringify write it. */
const compact = fc.tuple(index, delta).map(([at, body]) => JSON.stringify({ type: 'content_block_delta', index: at, delta: body }));
/** The compact spelling edited at one place: a character inserted, removed or replaced. */
const edited = fc.tuple(compact, fc.nat(), fc.constantFrom('', ' ', '0', '"', '\\', '}', ',', 'x', '\n')).map(([text, at, insert]) => {
  const position = at % (text.length + 1);
  return text.slice(0, position) + insert + text.slice(position + (insert === '' ? 1 : at % 2));
});

describe('decodePlainDeltaText', () => {
  it('reads exactly what parsing the whole event reads, or leaves the text to the general path (property)', () => {
    let read = 0;
    fc.assert(
      fc.property(fc.oneof(compact, edited), (text) => {
        const plain = decodePlainDeltaText(text);
        if (plain === undefined) return;
        read += 1;
        expect(parsedFields(text)).toStrictEqual(plain);
      }),
      { numRuns: 20_000 },
    );
    expect(read).toBeGreaterThan(2000);
  });

  it('reads every compact text or tool delta with a small non-negative integer index (property)', () => {
    fc.assert(
      fc.property(fc.nat(1_000_000), fragment, fc.boolean(), (at, text, tool) => {
        const body = tool ? { type: 'input_json_delta', partial_json: text } : { type: 'text_delta', text };
        expect(decodePlainDeltaText(JSON.stringify({ type: 'content_block_delta', index: at, delta: body }))).toStrictEqual({ index: at, kind: tool ? 'tool' : 'text', fragment: text });
      }),
    );
  });

  it('a stream\'s reader answers exactly what decodePlainDeltaText answers, text after text (property)', () => {
    // Mostly deltas of a few blocks, so a text often continues the block read before it (the remembered prefix).
    const nearIndex = fc.oneof({ arbitrary: fc.nat(2), weight: 8 }, { arbitrary: index, weight: 1 });
    const near = fc.tuple(nearIndex, delta).map(([at, body]) => JSON.stringify({ type: 'content_block_delta', index: at, delta: body }));
    const texts = fc.array(fc.oneof({ arbitrary: near, weight: 6 }, { arbitrary: edited, weight: 2 }, { arbitrary: compact, weight: 1 }), { maxLength: 30 });
    let continued = 0;
    fc.assert(
      fc.property(texts, (sequence) => {
        const read = createPlainDeltaTextReader();
        let previous: { index: number; kind: string } | undefined;
        for (const text of sequence) {
          const expected = decodePlainDeltaText(text);
          expect(read(text)).toStrictEqual(expected);
          if (expected !== undefined && previous?.index === expected.index && previous.kind === expected.kind) continued += 1;
          if (expected !== undefined) previous = expected;
        }
      }),
      { numRuns: 3000 },
    );
    // Not vacuous: many texts continued the block read before them (514-546 a run over five runs).
    expect(continued).toBeGreaterThan(250);
  });

  it('leaves other spellings to the general path', () => {
    for (const text of [
      '{"type":"content_block_delta","index":01,"delta":{"type":"text_delta","text":"a"}}',
      '{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"a","extra":1}}',
      '{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"a" }}',
      '{"type":"content_block_delta", "index":0,"delta":{"type":"text_delta","text":"a"}}',
      '{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"a","text":"b"}}',
      '{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"a"},"__proto__":{}}',
      '{"type":"content_block_delta","index":12345678,"delta":{"type":"text_delta","text":"a"}}',
      '{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"a\u0001"}}',
      '{"type":"content_block_delta","index":0,"delta":{"type":"input_json_delta","text":"a"}}',
      '{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","partial_json":"a"}}',
      '{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"a}}',
      '{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":}}',
      '{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"a"}} ',
    ]) {
      expect(decodePlainDeltaText(text)).toBeUndefined();
    }
  });
});
