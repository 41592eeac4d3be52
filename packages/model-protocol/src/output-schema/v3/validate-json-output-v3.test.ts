import { describe, expect, it } from 'vitest';
import { validateJsonOutputTextV3, validateJsonOutputV3 } from './validate-json-output-v3.js';

const weather = {
  type: 'object',
  properties: {
    city: { type: 'string', minLength: 1, maxLength: 40 },
    unit: { type: 'string', enum: ['c', 'f'] },
    days: { type: 'array', items: { type: 'integer', minimum: 0, maximum: 6 }, maxItems: 3 },
    note: { anyOf: [{ type: 'string' }, { type: 'null' }] },
  },
  required: ['city', 'unit', 'days', 'note'],
  additionalProperties: false,
};

describe('validateJsonOutputV3', () => {
  it('accepts an output that matches, and ignores annotations', () => {
    const annotated = { ...weather, title: 'Weather', description: 'd', $schema: 'https://json-schema.org/draft/2020-12/schema' };
    expect(validateJsonOutputV3(annotated, { city: 'Paris', unit: 'c', days: [0, 6], note: null })).toEqual({ status: 'valid' });
  });

  it.each([
    [{ unit: 'c', days: [], note: null }, '$', 'required property "city" missing'],
    [{ city: '', unit: 'c', days: [], note: null }, '$.city', 'shorter than 1 characters'],
    [{ city: 'x', unit: 'k', days: [], note: null }, '$.unit', 'not one of the allowed values'],
    [{ city: 'x', unit: 'c', days: [1.5], note: null }, '$.days[0]', 'expected integer'],
    [{ city: 'x', unit: 'c', days: [7], note: null }, '$.days[0]', 'greater than 6'],
    [{ city: 'x', unit: 'c', days: [1, 2, 3, 4], note: null }, '$.days', 'more than 3 items'],
    [{ city: 'x', unit: 'c', days: [], note: 3 }, '$.note', 'matches none of the allowed shapes'],
    [{ city: 'x', unit: 'c', days: [], note: null, extra: true }, '$.extra', 'property not allowed'],
    [['not', 'an', 'object'], '$', 'expected object'],
  ])('names the path and rule of a mismatch (%j)', (value, path, rule) => {
    expect(validateJsonOutputV3(weather, value)).toEqual({ status: 'mismatch', path, rule });
  });

  it('never puts an output value in the verdict', () => {
    const verdict = validateJsonOutputV3(weather, { city: 'a secret city name that is far too long for the schema', unit: 'c', days: [], note: null });
    expect(JSON.stringify(verdict)).not.toContain('secret');
  });

  it('follows local $ref, counts code points and takes nullable and type lists', () => {
    const schema = { $defs: { name: { type: 'string', maxLength: 2 } }, type: 'object', properties: { a: { $ref: '#/$defs/name' }, b: { type: ['integer', 'null'] }, c: { type: 'string', nullable: true } } };
    expect(validateJsonOutputV3(schema, { a: '😀😀', b: null, c: null })).toEqual({ status: 'valid' });
    expect(validateJsonOutputV3(schema, { a: 'abc' })).toMatchObject({ status: 'mismatch', path: '$.a' });
    expect(validateJsonOutputV3({ oneOf: [{ type: 'integer' }, { type: 'number' }] }, 2)).toMatchObject({ status: 'mismatch', rule: 'matches more than one shape' });
  });

  it('answers unsupported for what it does not check, never valid or mismatch', () => {
    expect(validateJsonOutputV3({ type: 'string', pattern: '^(a+)+$' }, 'aaaa')).toEqual({ status: 'unsupported', keyword: 'pattern', schemaPath: '#' });
    expect(validateJsonOutputV3({ $ref: 'https://example.com/schema' }, 1)).toMatchObject({ status: 'unsupported', keyword: '$ref' });
    expect(validateJsonOutputV3({ type: 'uuid' }, 'x')).toMatchObject({ status: 'unsupported', keyword: 'type' });
  });

  it('bounds recursion and work: a self-referencing schema over deep data is unsupported, not a stack overflow', () => {
    let deep: unknown = 0;
    for (let level = 0; level < 1000; level += 1) deep = [deep];
    expect(validateJsonOutputV3({ anyOf: [{ type: 'integer' }, { type: 'array', items: { $ref: '#' } }] }, deep)).toMatchObject({ status: 'unsupported' });
    const wide = { anyOf: Array.from({ length: 50 }, () => ({ $ref: '#' })) };
    expect(validateJsonOutputV3(wide, 1)).toMatchObject({ status: 'unsupported' });
  });

  it('parses text first: text that is not JSON is a mismatch at the root', () => {
    expect(validateJsonOutputTextV3(weather, '{"city": "Paris"')).toEqual({ status: 'mismatch', path: '$', rule: 'the output is not JSON' });
    expect(validateJsonOutputTextV3({ type: 'object' }, '{"__proto__": {"polluted": true}}')).toEqual({ status: 'valid' });
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});
