import { taskEnvelopeV2Schema } from '@tokenforge/model-protocol';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fastParseChatTask } from './fast-parse-chat-task.js';
import { parseTask } from './check-task-against-capability.js';
import { assertAgreesWithSchema, editAt, noisyBuilders, type Loose } from '../../test-support/schema-arbitraries.js';

/**
 * Chat tasks where each field is valid except with odds `1 / noise` (junk, an absent required key, an undeclared
 * key, an out-of-range bound, a part its role may not hold): low noise mostly builds invalid tasks, high noise
 * mostly valid ones, so both answers of the fast parser are exercised.
 */
function chatTasks(noise: number): fc.Arbitrary<Loose> {
  const { rarely, object, bounded } = noisyBuilders(noise);
  const text = fc.string({ maxLength: 12 });
  const cacheControl = object({ type: fc.constant('ephemeral') }, { ttlSeconds: rarely(fc.integer({ min: 1, max: 86_400 }), fc.constantFrom(0, 86_401, 1.5)) });
  const mediaSource = fc.oneof(
    object({ type: fc.constant('url'), url: bounded(1, 32_768_000) }),
    object({ type: fc.constant('base64'), mediaType: bounded(3, 255), data: bounded(1, 1e9) }),
  );
  const textPart = object({ type: fc.constant('text'), text }, { cacheControl });
  const imagePart = object({ type: fc.constant('image'), source: mediaSource }, { detail: rarely(fc.constantFrom('low', 'high', 'auto'), fc.constant('max')), cacheControl });
  const userPart = fc.oneof(
    textPart,
    imagePart,
    object({ type: fc.constant('document'), source: mediaSource }, { title: bounded(0, 1024), cacheControl }),
    object({ type: fc.constant('audio'), source: mediaSource }),
  );
  const assistantPart = fc.oneof(
    textPart,
    object({ type: fc.constant('tool-call'), toolCallId: bounded(1, 512), toolName: bounded(1, 256), argumentsText: text }, { signature: bounded(1, 1e9) }),
    object({ type: fc.constant('reasoning'), text }, { signature: bounded(1, 1e9) }),
    object({ type: fc.constant('redacted-reasoning'), data: bounded(1, 1e9) }),
  );
  const toolPart = object(
    { type: fc.constant('tool-result'), toolCallId: bounded(1, 512), toolName: bounded(1, 256), content: fc.array(fc.oneof(textPart, imagePart), { maxLength: 2 }) },
    { isError: fc.boolean() },
  );
  const anyPart = fc.oneof(userPart, assistantPart, toolPart);
  const parts = (allowed: fc.Arbitrary<Loose>) => rarely(fc.array(rarely(allowed, anyPart), { minLength: 1, maxLength: 3 }), fc.constant([]));
  const message = fc.oneof(
    object({ role: fc.constant('user'), content: parts(userPart) }),
    object({ role: fc.constant('assistant'), content: parts(assistantPart) }),
    object({ role: fc.constant('tool'), content: parts(toolPart) }),
    object({ role: fc.constant('system'), content: parts(textPart) }),
  );
  const toolName = rarely(fc.stringMatching(/^[A-Za-z_][A-Za-z0-9_.-]{0,10}$/), fc.constantFrom('1bad', 'has space', `a${'b'.repeat(128)}`));
  const record = rarely(
    fc.oneof(fc.dictionary(fc.string({ maxLength: 6 }), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 3 }), fc.constant(Object.assign(Object.create(null) as Loose, { type: 'object' }))),
    fc.constantFrom(JSON.parse('{"__proto__": {"a": 1}, "b": 2}') as unknown, new Map(), { [Symbol('s')]: 1, type: 'object' }, []),
  );
  const tool = object({ name: toolName, inputSchema: record }, { description: bounded(0, 16_384), strict: fc.boolean(), cacheControl });
  const toolChoice = fc.oneof(
    object({ type: rarely(fc.constantFrom('auto', 'none', 'required'), fc.constant('any')) }),
    object({ type: fc.constant('tool'), toolName: bounded(1, 128) }),
  );
  const responseFormat = fc.oneof(
    object({ type: fc.constant('text') }),
    object({ type: fc.constant('json') }, { schema: record, name: rarely(fc.stringMatching(/^[A-Za-z0-9_-]{1,64}$/), fc.constantFrom('', 'a b')), strict: fc.boolean() }),
  );
  const number = (min: number, max: number) =>
    rarely(fc.oneof(fc.double({ min, max, noNaN: true }), fc.integer({ min: Math.ceil(min), max: Math.floor(max) })), fc.constantFrom(min - 0.5, max + 0.5));
  const integer = (min: number, max: number) => rarely(fc.integer({ min, max }), fc.constantFrom(min - 1, max + 1, min + 0.5));
  const sampling = object(
    {},
    {
      temperature: number(0, 2),
      topP: number(0, 1),
      topK: integer(1, 50),
      frequencyPenalty: number(-2, 2),
      presencePenalty: number(-2, 2),
      seed: rarely(fc.integer(), fc.constantFrom(2 ** 53, -(2 ** 53), 0.5)),
    },
  );
  return object(
    { kind: fc.constant('chat'), messages: rarely(fc.array(message, { minLength: 1, maxLength: 3 }), fc.constant([])), stream: fc.boolean() },
    {
      idempotencyKey: rarely(fc.stringMatching(/^[A-Za-z0-9._:-]{1,20}$/), fc.constantFrom('', 'no spaces', 'k'.repeat(129))),
      system: fc.array(rarely(textPart, imagePart), { maxLength: 2 }),
      tools: fc.array(tool, { maxLength: 2 }),
      toolChoice,
      responseFormat,
      sampling,
      maxOutputTokens: integer(1, 100),
      stopSequences: rarely(fc.array(fc.string({ minLength: 1, maxLength: 3 }), { maxLength: 16 }), fc.constantFrom([''], new Array<string>(17).fill('s'))),
      reasoning: object({}, { effort: rarely(fc.constantFrom('minimal', 'low', 'medium', 'high'), fc.constant('max')), budgetTokens: integer(0, 10), includeReasoning: fc.boolean() }),
      caching: object({}, { promptCacheKey: bounded(1, 256) }),
    },
  );
}

function holdsProtoKey(value: unknown): boolean {
  if (typeof value !== 'object' || value === null) return false;
  if (Object.hasOwn(value, '__proto__')) return true;
  return Object.values(value).some(holdsProtoKey);
}

describe('fastParseChatTask', () => {
  it('decides exactly the tasks the schema accepts, with the same output (property)', () => {
    assertAgreesWithSchema({
      inputs: fc.oneof(chatTasks(8), chatTasks(40), chatTasks(400)),
      fast: fastParseChatTask,
      schema: taskEnvelopeV2Schema,
      // A tool schema with an own `__proto__` key is the one valid input left to the schema on purpose.
      covers: (task) => !holdsProtoKey(task),
      numRuns: 6000,
      leastEach: 200,
    });
  });

  it('agrees with the schema at every bound, one field changed at a time', () => {
    const base = (): Loose => ({
      kind: 'chat',
      idempotencyKey: 'req-1',
      system: [{ type: 'text', text: 'be brief' }],
      messages: [
        { role: 'user', content: [{ type: 'text', text: 'hi' }, { type: 'image', source: { type: 'url', url: 'https://x.test/a.png' }, detail: 'low' }, { type: 'document', source: { type: 'base64', mediaType: 'application/pdf', data: 'JVBER' }, title: 't', cacheControl: { type: 'ephemeral', ttlSeconds: 60 } }, { type: 'audio', source: { type: 'url', url: 'https://x.test/a.wav' } }] },
        { role: 'assistant', content: [{ type: 'reasoning', text: 'r', signature: 's' }, { type: 'redacted-reasoning', data: 'd' }, { type: 'tool-call', toolCallId: 'c1', toolName: 'weather', argumentsText: '{}' }] },
        { role: 'tool', content: [{ type: 'tool-result', toolCallId: 'c1', toolName: 'weather', content: [{ type: 'text', text: 'sunny' }], isError: false }] },
      ],
      tools: [{ name: 'weather', description: 'd', inputSchema: { type: 'object' }, strict: true, cacheControl: { type: 'ephemeral' } }],
      toolChoice: { type: 'tool', toolName: 'weather' },
      responseFormat: { type: 'json', schema: { type: 'object' }, name: 'answer', strict: true },
      sampling: { temperature: 1, topP: 0.5, topK: 3, frequencyPenalty: 0, presencePenalty: 0, seed: 7 },
      maxOutputTokens: 100,
      stopSequences: ['END'],
      reasoning: { effort: 'low', budgetTokens: 0, includeReasoning: true },
      caching: { promptCacheKey: 'k' },
      stream: false,
    });
    const edits: [string, (string | number)[], string, unknown][] = [
      ['temperature above 2', ['sampling'], 'temperature', 2.000001],
      ['temperature at 2', ['sampling'], 'temperature', 2],
      ['topP below 0', ['sampling'], 'topP', -0.1],
      ['topK at 0', ['sampling'], 'topK', 0],
      ['seed unsafe', ['sampling'], 'seed', 2 ** 53],
      ['penalty at -2', ['sampling'], 'frequencyPenalty', -2],
      ['penalty beyond -2', ['sampling'], 'presencePenalty', -2.5],
      ['maxOutputTokens 0', [], 'maxOutputTokens', 0],
      ['maxOutputTokens fractional', [], 'maxOutputTokens', 1.5],
      ['17 stop sequences', [], 'stopSequences', new Array<string>(17).fill('s')],
      ['16 stop sequences', [], 'stopSequences', new Array<string>(16).fill('s')],
      ['empty stop sequence', [], 'stopSequences', ['']],
      ['ttl 0', ['messages', 0, 'content', 2, 'cacheControl'], 'ttlSeconds', 0],
      ['ttl 86401', ['messages', 0, 'content', 2, 'cacheControl'], 'ttlSeconds', 86_401],
      ['title 1024', ['messages', 0, 'content', 2], 'title', 'x'.repeat(1024)],
      ['title 1025', ['messages', 0, 'content', 2], 'title', 'x'.repeat(1025)],
      ['media type too short', ['messages', 0, 'content', 2, 'source'], 'mediaType', 'ab'],
      ['empty base64', ['messages', 0, 'content', 2, 'source'], 'data', ''],
      ['unknown detail', ['messages', 0, 'content', 1], 'detail', 'max'],
      ['empty tool call id', ['messages', 1, 'content', 2], 'toolCallId', ''],
      ['tool call id 513', ['messages', 1, 'content', 2], 'toolCallId', 'c'.repeat(513)],
      ['tool name 257', ['messages', 2, 'content', 0], 'toolName', 't'.repeat(257)],
      ['empty signature', ['messages', 1, 'content', 0], 'signature', ''],
      ['empty redacted data', ['messages', 1, 'content', 1], 'data', ''],
      ['isError not boolean', ['messages', 2, 'content', 0], 'isError', 'no'],
      ['image in a user message', ['messages', 0], 'role', 'assistant'],
      ['declared tool name 128', ['tools', 0], 'name', `a${'b'.repeat(127)}`],
      ['declared tool name 129', ['tools', 0], 'name', `a${'b'.repeat(128)}`],
      ['declared tool name with a digit first', ['tools', 0], 'name', '1tool'],
      ['description 16385', ['tools', 0], 'description', 'd'.repeat(16_385)],
      ['input schema an array', ['tools', 0], 'inputSchema', []],
      ['tool choice name 129', ['toolChoice'], 'toolName', 't'.repeat(129)],
      ['format name with a space', ['responseFormat'], 'name', 'a b'],
      ['format name 65', ['responseFormat'], 'name', 'n'.repeat(65)],
      ['unknown effort', ['reasoning'], 'effort', 'max'],
      ['negative budget', ['reasoning'], 'budgetTokens', -1],
      ['cache key 257', ['caching'], 'promptCacheKey', 'k'.repeat(257)],
      ['idempotency key with a space', [], 'idempotencyKey', 'a b'],
      ['idempotency key 129', [], 'idempotencyKey', 'k'.repeat(129)],
      ['stream missing', [], 'stream', undefined],
      ['undeclared key', ['sampling'], 'temperatures', 1],
    ];
    const baseline = base();
    expect(fastParseChatTask(baseline)).toStrictEqual(taskEnvelopeV2Schema.parse(baseline));
    for (const [label, path, key, value] of edits) {
      const task = base();
      editAt(task, path, key, value);
      const schema = taskEnvelopeV2Schema.safeParse(task);
      // Each edit starts from the valid baseline, so a refusal is that edit's own.
      expect(taskEnvelopeV2Schema.safeParse(base()).success).toBe(true);
      expect({ label, decided: fastParseChatTask(task) !== undefined }).toStrictEqual({ label, decided: schema.success });
      if (schema.success) expect(fastParseChatTask(task)).toStrictEqual(schema.data);
    }
  });

  it('never copies a __proto__ key: such a tool schema goes to the schema, whose output keeps a plain prototype', () => {
    const task = { kind: 'chat', messages: [{ role: 'user', content: [{ type: 'text', text: 'x' }] }], tools: [{ name: 'w', inputSchema: JSON.parse('{"__proto__": {"polluted": true}, "type": "object"}') as Loose }], stream: false };
    expect(fastParseChatTask(task)).toBeUndefined();
    const parsed = parseTask(task) as { tools: { inputSchema: Loose }[] };
    expect(Object.getPrototypeOf(parsed.tools[0]?.inputSchema)).toBe(Object.prototype);
    expect(parsed.tools[0]?.inputSchema.polluted).toBeUndefined();
  });

  it('copies: the output shares no object with the input except tool schema values', () => {
    const inputSchema = { type: 'object', properties: { city: { type: 'string' } } };
    const task = {
      kind: 'chat',
      messages: [{ role: 'user', content: [{ type: 'text', text: 'hi', cacheControl: { type: 'ephemeral' } }] }],
      tools: [{ name: 'weather', inputSchema }],
      stream: true,
    };
    const parsed = fastParseChatTask(task) as unknown as { messages: Loose[]; tools: { inputSchema: Loose }[] };
    expect(parsed).toStrictEqual(task);
    expect(parsed.messages[0]).not.toBe(task.messages[0]);
    expect(parsed.tools[0]?.inputSchema).not.toBe(inputSchema);
    // As with the schema's z.unknown(), values inside the tool schema are the caller's own.
    expect(parsed.tools[0]?.inputSchema.properties).toBe(inputSchema.properties);
  });

  it('leaves every other kind and every non-plain input to the schema', () => {
    class Task {
      kind = 'chat';
      messages = [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }];
      stream = false;
    }
    expect(fastParseChatTask(new Task())).toBeUndefined();
    expect(fastParseChatTask({ kind: 'embedding', inputs: ['a'] })).toBeUndefined();
    expect(fastParseChatTask(null)).toBeUndefined();
    expect(fastParseChatTask('chat')).toBeUndefined();
    expect(fastParseChatTask([{ kind: 'chat' }])).toBeUndefined();
    const withHole = { kind: 'chat', messages: new Array(1), stream: false };
    expect(fastParseChatTask(withHole)).toBeUndefined();
  });

  it('parseTask still answers a refused task with the schema error and its path', () => {
    const task = { kind: 'chat', messages: [{ role: 'user', content: [{ type: 'tool-call', toolCallId: 'c', toolName: 't', argumentsText: '{}' }] }], stream: false };
    expect(() => parseTask(task)).toThrow(expect.objectContaining({ code: 'PROTOCOL_ENGINE_INPUT_INVALID', message: expect.stringContaining('messages.0.content.0.type') }));
    const valid = { ...task, messages: [{ role: 'assistant', content: task.messages[0]?.content }] };
    expect(parseTask(valid)).toStrictEqual(taskEnvelopeV2Schema.parse(valid));
  });
});
