import { isCodecErrorV1 } from '@tokenforge/model-protocol';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseSafeJson, parseSafeJsonScanned } from './safe-json.js';

type Outcome = { readonly value: unknown } | { readonly code: string };

function outcomeOf(run: () => unknown): Outcome {
  try {
    return { value: run() };
  } catch (error) {
    if (isCodecErrorV1(error)) return { code: error.code };
    throw error;
  }
}

/**
 * The rules checked on the parsed value instead of the text: the deepest nesting, `__proto__` own keys, and
 * `prototype` own keys of an object held by a `constructor` key. For input JSON.parse refuses, any codec error
 * is fine. Returns the acceptable outcomes.
 */
function reference(text: string, maxDepth: number): { readonly value: unknown } | { readonly codes: readonly string[] } {
  let value: unknown;
  try {
    value = JSON.parse(text.replace(/^\ufeff/, ''));
  } catch {
    return { codes: ['malformed-json', 'nesting-too-deep', 'forbidden-key'] };
  }
  const codes: string[] = [];
  const stack: { node: unknown; depth: number; heldByConstructor: boolean }[] = [{ node: value, depth: 0, heldByConstructor: false }];
  while (stack.length > 0) {
    const { node, depth, heldByConstructor } = stack.pop() as (typeof stack)[number];
    if (typeof node !== 'object' || node === null) continue;
    if (depth + 1 > maxDepth) codes.push('nesting-too-deep');
    if (Array.isArray(node)) {
      for (const item of node) stack.push({ node: item, depth: depth + 1, heldByConstructor: false });
      continue;
    }
    for (const key of Object.keys(node)) {
      if (key === '__proto__' || (key === 'prototype' && heldByConstructor)) codes.push('forbidden-key');
      stack.push({ node: (node as Record<string, unknown>)[key], depth: depth + 1, heldByConstructor: key === 'constructor' });
    }
  }
  return codes.length === 0 ? { value } : { codes };
}

const hostileKey = fc.constantFrom('__proto__', 'constructor', 'prototype', 'constructors', 'x_prototype', 'proto', '__proto', 'a');
const key = fc.oneof({ weight: 2, arbitrary: fc.string({ maxLength: 8 }) }, { weight: 3, arbitrary: hostileKey });
const { node } = fc.letrec((tie) => ({
  node: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.jsonValue({ maxDepth: 1 }),
    fc.array(tie('node'), { maxLength: 4 }),
    // fromEntries defines own properties, `__proto__` included, which JSON.stringify then writes as keys.
    fc.array(fc.tuple(key, tie('node')), { maxLength: 4 }).map((entries) => Object.fromEntries(entries) as unknown),
  ),
}));

/** Writes some letters of the checked names as `\u` escapes, which the fast path must notice. */
function escapeSome(text: string, mask: number): string {
  let count = 0;
  return text.replace(/"(__proto__|constructor|prototype)"/g, (whole: string, name: string) => {
    count += 1;
    if (((mask >> count % 30) & 1) === 0) return whole;
    const position = count % name.length;
    const escaped = `\\u${name.charCodeAt(position).toString(16).padStart(4, '0')}`;
    return `"${name.slice(0, position)}${escaped}${name.slice(position + 1)}"`;
  });
}

const document = fc
  .record({
    value: node,
    wrap: fc.nat({ max: 12 }),
    wrapWith: fc.constantFrom(['[', ']'], ['{"constructor":', '}'], ['{"a":', '}']),
    indent: fc.constantFrom(undefined, 1),
    escapeMask: fc.nat(),
    bom: fc.boolean(),
  })
  .map(({ value, wrap, wrapWith, indent, escapeMask, bom }) => {
    const [open, close] = wrapWith as [string, string];
    const body = escapeSome(JSON.stringify(value, null, indent) ?? 'null', escapeMask);
    return `${bom ? '\ufeff' : ''}${open.repeat(wrap)}${body}${close.repeat(wrap)}`;
  });

const hostileText = fc.oneof(
  fc.string(),
  fc
    .array(fc.constantFrom('{', '}', '[', ']', '"', '\\', '\\u', ':', ',', '1', ' ', '"__proto__"', '"constructor"', '"prototype"', 'proto'), { maxLength: 50 })
    .map((parts) => parts.join('')),
  fc.nat({ max: 200 }).map((depth) => '['.repeat(depth)),
  fc.nat({ max: 200 }).map((depth) => `${'{"constructor":'.repeat(depth)}{"prototype":1}${'}'.repeat(depth)}`),
);

describe('parseSafeJson fast path', () => {
  it('gives exactly the outcome of the full character scan, and one the parsed-value reference allows, on generated JSON', () => {
    fc.assert(
      fc.property(document, fc.integer({ min: 1, max: 20 }), (text, maxDepth) => {
        const fast = outcomeOf(() => parseSafeJson(text, { maxDepth }));
        expect(fast).toEqual(outcomeOf(() => parseSafeJsonScanned(text, { maxDepth })));
        const expected = reference(text, maxDepth);
        if ('value' in expected) expect(fast).toEqual({ value: expected.value });
        else expect('code' in fast ? fast.code : 'accepted').toBeOneOf([...expected.codes]);
      }),
      { numRuns: 3000 },
    );
  });

  it('gives exactly the outcome of the full character scan on hostile text', () => {
    fc.assert(
      fc.property(hostileText, fc.integer({ min: 1, max: 80 }), (text, maxDepth) => {
        const fast = outcomeOf(() => parseSafeJson(text, { maxDepth }));
        expect(fast).toEqual(outcomeOf(() => parseSafeJsonScanned(text, { maxDepth })));
        const expected = reference(text, maxDepth);
        if ('value' in expected) expect(fast).toEqual({ value: expected.value });
        else expect('code' in fast ? fast.code : 'accepted').toBeOneOf([...expected.codes]);
      }),
      { numRuns: 3000 },
    );
  });

  it('agrees with the scan on fast-check JSON text and JSON values', () => {
    fc.assert(
      fc.property(fc.oneof(fc.json({ maxDepth: 6 }), fc.jsonValue({ maxDepth: 6 }).map((value) => JSON.stringify(value))), (text) => {
        expect(outcomeOf(() => parseSafeJson(text, { maxDepth: 4 }))).toEqual(outcomeOf(() => parseSafeJsonScanned(text, { maxDepth: 4 })));
        expect(outcomeOf(() => parseSafeJson(text))).toEqual(outcomeOf(() => parseSafeJsonScanned(text)));
      }),
      { numRuns: 1000 },
    );
  });

  it('refuses deep input by the scan, in nesting-too-deep, however it is written', () => {
    for (const text of ['['.repeat(65), `${'{"a":'.repeat(65)}1${'}'.repeat(65)}`, `[${'[]'.repeat(100)}${'['.repeat(64)}`]) {
      expect(outcomeOf(() => parseSafeJson(text))).toEqual({ code: 'nesting-too-deep' });
    }
    // Sixty-four opening brackets, all shallow: the fast path (and the scan) accept it.
    expect(parseSafeJson(`[${'[],'.repeat(63)}1]`)).toHaveLength(64);
  });

  it('measures the depth of a parsed document with many brackets and no key hazard, as the scan would', () => {
    const rows = JSON.stringify({ data: Array.from({ length: 200 }, (_, index) => ({ index, embedding: [index, 0.5, [1, { a: [] }]] })) });
    expect(parseSafeJson(rows)).toEqual(JSON.parse(rows));
    for (const maxDepth of [5, 6, 7, 8]) {
      expect(outcomeOf(() => parseSafeJson(rows, { maxDepth }))).toEqual(outcomeOf(() => parseSafeJsonScanned(rows, { maxDepth })));
    }
    expect(outcomeOf(() => parseSafeJson(rows, { maxDepth: 6 }))).toEqual({ code: 'nesting-too-deep' });
    expect(parseSafeJson(rows, { maxDepth: 7 })).toEqual(JSON.parse(rows));
    const deep = `${'['.repeat(10_000)}${']'.repeat(10_000)}`;
    expect(outcomeOf(() => parseSafeJson(deep))).toEqual({ code: 'nesting-too-deep' });
    expect(outcomeOf(() => parseSafeJson(`${'['.repeat(10_000)}${']'.repeat(9_999)}`))).toEqual({ code: 'nesting-too-deep' });
  });

  it('measures depth on the text like the scan when strings hold brackets, quotes and backslashes', () => {
    const tricky = fc.string({ unit: fc.constantFrom('[', ']', '{', '}', '"', '\\', 'a', ':', ',', ' '), maxLength: 12 });
    const { value } = fc.letrec((tie) => ({
      value: fc.oneof(
        { depthSize: 'small', withCrossShrink: true },
        tricky,
        fc.integer(),
        fc.array(tie('value'), { maxLength: 4 }),
        fc.array(fc.tuple(tricky, tie('value')), { maxLength: 4 }).map((entries) => Object.fromEntries(entries) as unknown),
      ),
    }));
    fc.assert(
      fc.property(value, fc.nat({ max: 8 }), fc.integer({ min: 1, max: 12 }), (inner, wrap, maxDepth) => {
        const text = `${'['.repeat(wrap)}${JSON.stringify(inner)}${']'.repeat(wrap)}`;
        expect(outcomeOf(() => parseSafeJson(text, { maxDepth }))).toEqual(outcomeOf(() => parseSafeJsonScanned(text, { maxDepth })));
      }),
      { numRuns: 500 },
    );
  });

  it('gives the outcome of the scan on long texts too, where forbidden keys are searched from quotes', () => {
    const padding = fc.stringMatching(/^[A-Za-z0-9+/]{4096,4200}$/);
    fc.assert(
      fc.property(document, padding, fc.integer({ min: 2, max: 20 }), (text, filler, maxDepth) => {
        const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
        const long = `[${JSON.stringify(filler)},${body}]`;
        expect(long.length).toBeGreaterThanOrEqual(4096);
        expect(outcomeOf(() => parseSafeJson(long, { maxDepth }))).toEqual(outcomeOf(() => parseSafeJsonScanned(long, { maxDepth })));
      }),
      { numRuns: 300 },
    );
    const filler = 'p'.repeat(5000);
    expect(outcomeOf(() => parseSafeJson(`{"v":"${filler}","__proto__":1}`))).toEqual({ code: 'forbidden-key' });
    expect(outcomeOf(() => parseSafeJson(`{"v":"${filler}","constructor":{"prototype":1}}`))).toEqual({ code: 'forbidden-key' });
    expect(parseSafeJson(`{"v":"${filler}","note":"prototype of __proto__"}`)).toMatchObject({ note: 'prototype of __proto__' });
  });
});
