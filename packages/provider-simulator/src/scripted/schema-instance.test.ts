import { describe, expect, it } from 'vitest';
import { schemaInstance } from './schema-instance.js';

describe('schemaInstance', () => {
  it('fills the required properties with small values of their types', () => {
    const schema = {
      type: 'object',
      required: ['pattern', 'limit', 'flags', 'mode', 'deep', 'nested'],
      properties: {
        pattern: { type: 'string' },
        limit: { type: 'integer', minimum: 5 },
        flags: { type: 'array', items: { type: 'string' } },
        mode: { enum: ['fast', 'slow'] },
        deep: { type: 'boolean' },
        nested: { type: 'object', properties: { a: { type: ['null', 'number'] } } },
        optional: { type: 'string' },
      },
    };
    expect(schemaInstance(schema)).toEqual({ pattern: '*', limit: 5, flags: [], mode: 'fast', deep: false, nested: { a: 1 } });
  });

  it('reads Gemini upper-case types, anyOf and const, and treats a missing schema as an empty object', () => {
    expect(schemaInstance({ type: 'OBJECT', properties: { n: { type: 'NUMBER' } }, required: ['n'] })).toEqual({ n: 1 });
    expect(schemaInstance({ anyOf: [{ const: 'x' }, { type: 'number' }] })).toBe('x');
    expect(schemaInstance(undefined)).toEqual({});
  });
});
