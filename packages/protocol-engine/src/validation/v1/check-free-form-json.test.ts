import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createProtocolEngineV1 } from '../../engine/v1/create-protocol-engine-v1.js';
import { isProtocolEngineErrorV1 } from '../../error/v1/protocol-engine-error-v1.js';
import { chatCapability, chatTask, completedChat, countingBinding, makeTarget, newSignal, registryOf, respondWith, syncFactory } from '../../test-support/fakes.js';
import { checkFreeFormJson } from './check-free-form-json.js';

function cycle(): Record<string, unknown> {
  const schema: Record<string, unknown> = { type: 'object' };
  schema.self = schema;
  return schema;
}

const UNSERIALIZABLE: readonly (readonly [string, () => unknown])[] = [
  ['a BigInt', () => 10n],
  ['a cycle', () => cycle()],
  ['a throwing toJSON', () => ({ toJSON: () => { throw new Error('toJSON'); } })],
  ['a harmless-looking toJSON', () => ({ toJSON: () => ({ type: 'string' }) })],
  ['NaN', () => Number.NaN],
  ['Infinity', () => Number.POSITIVE_INFINITY],
  ['a function', () => () => 1],
  ['a symbol', () => Symbol('s')],
  ['a Date', () => new Date(0)],
  ['a Map', () => new Map()],
  ['undefined inside an array', () => [1, undefined]],
  ['a throwing getter', () => Object.defineProperty({}, 'type', { enumerable: true, get: () => { throw new Error('getter'); } })],
  ['nesting deeper than 256', () => { let value: unknown = {}; for (let depth = 0; depth < 300; depth += 1) value = { items: value }; return value; }],
];

function setup() {
  const factory = syncFactory(respondWith(completedChat()));
  const engine = createProtocolEngineV1({ registry: registryOf([factory]) });
  const bound = countingBinding(makeTarget(chatCapability({ tools: true, structuredOutput: true })));
  return { engine, factory, ...bound };
}

describe('free-form JSON members of a task', () => {
  it.each(UNSERIALIZABLE)('refuses %s in a tool inputSchema or responseFormat.schema as INPUT_INVALID before any adapter runs', async (_label, make) => {
    for (const place of ['inputSchema', 'schema'] as const) {
      const { engine, factory, binding, calls } = setup();
      const hostile = { type: 'object', properties: { q: { default: make() } } };
      const task =
        place === 'inputSchema'
          ? chatTask({ tools: [{ name: 'lookup', inputSchema: hostile }] })
          : chatTask({ responseFormat: { type: 'json', schema: hostile } });
      let error: unknown;
      try {
        await engine.execute({ task, binding, signal: newSignal() });
      } catch (caught) {
        error = caught;
      }
      expect(isProtocolEngineErrorV1(error)).toBe(true);
      expect(error).toMatchObject({ code: 'PROTOCOL_ENGINE_INPUT_INVALID', phase: 'input' });
      expect(factory.inputs).toHaveLength(0);
      expect(calls.count).toBe(0);
    }
  });

  it('hands the adapter a plain copy equal to any JSON value, so it serializes what was checked', () => {
    fc.assert(
      fc.property(fc.dictionary(fc.string(), fc.jsonValue()), fc.dictionary(fc.string(), fc.jsonValue()), (inputSchema, schema) => {
        const task = chatTask({ tools: [{ name: 'lookup', inputSchema }], responseFormat: { type: 'json', schema } });
        const checked = checkFreeFormJson(task);
        if (checked.kind !== 'chat') throw new Error('unreachable');
        expect(JSON.stringify(checked.tools?.[0]?.inputSchema)).toBe(JSON.stringify(inputSchema));
        expect(JSON.stringify(checked.responseFormat)).toBe(JSON.stringify({ type: 'json', schema }));
        if (Object.keys(inputSchema).length > 0) expect(checked.tools?.[0]?.inputSchema).not.toBe(inputSchema);
      }),
    );
  });

  it('refuses an unserializable value planted anywhere inside an otherwise valid schema', () => {
    const withPlant = fc
      .tuple(fc.dictionary(fc.string({ minLength: 1 }), fc.jsonValue(), { minKeys: 1 }), fc.constantFrom(...UNSERIALIZABLE), fc.nat())
      .map(([schema, [, make], seed]) => {
        const keys = Object.keys(schema);
        const key = keys[seed % keys.length] as string;
        return { ...schema, [key]: { nested: [make()] } };
      });
    fc.assert(
      fc.property(withPlant, (inputSchema) => {
        expect(() => checkFreeFormJson(chatTask({ tools: [{ name: 'lookup', inputSchema }] }))).toThrow(
          expect.objectContaining({ code: 'PROTOCOL_ENGINE_INPUT_INVALID' }),
        );
      }),
    );
  });

  it('keeps shared (acyclic) references and a __proto__ key as data', () => {
    const shared = { type: 'string' };
    const inputSchema = JSON.parse('{"type":"object","__proto__":{"polluted":true}}') as Record<string, unknown>;
    inputSchema.properties = { a: shared, b: shared };
    const checked = checkFreeFormJson(chatTask({ tools: [{ name: 'lookup', inputSchema }] }));
    if (checked.kind !== 'chat') throw new Error('unreachable');
    const copy = checked.tools?.[0]?.inputSchema as Record<string, unknown>;
    expect(Object.getPrototypeOf(copy)).toBe(Object.prototype);
    expect(Object.keys(copy)).toContain('__proto__');
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(copy.properties).toEqual({ a: { type: 'string' }, b: { type: 'string' } });
  });
});
