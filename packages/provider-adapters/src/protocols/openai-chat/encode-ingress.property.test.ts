import fc from 'fast-check';
import { taskEnvelopeV2Schema, type ChatContentPartV2, type ChatMessageV2, type ChatTaskV2 } from '@tokenforge/model-protocol';
import { describe, expect, it } from 'vitest';
import { encodeOpenAiChatRequest } from './encode-request.js';
import { decodeOpenAiChatClientRequest } from './ingress.js';

// The provider request and the client request are the same dialect: a task this family can express, encoded and
// read back by the ingress codec, must come back unchanged. Generated tasks stay inside what both directions keep
// (the documented lossy rules, such as dropped reasoning or a budget mapped to an effort, are tested elsewhere).

const text = fc.string({ minLength: 1, maxLength: 20 });
const base64 = fc.constantFrom('iVBORw0KGgo=', 'UklGRg==', 'JVBERi0xLjQ=', 'SUQz');
const textPart = text.map((value) => ({ type: 'text', text: value }) as const);

const userPart: fc.Arbitrary<ChatContentPartV2> = fc.oneof(
  textPart,
  fc.record({
    type: fc.constant('image' as const),
    source: fc.oneof(
      fc.constantFrom('https://example.test/a.png', 'https://example.test/b.jpg').map((url) => ({ type: 'url' as const, url })),
      fc.record({ type: fc.constant('base64' as const), mediaType: fc.constantFrom('image/png', 'image/jpeg'), data: base64 }),
    ),
    detail: fc.constantFrom('low', 'high', 'auto'),
  }),
  fc.record({
    type: fc.constant('audio' as const),
    source: fc.record({ type: fc.constant('base64' as const), mediaType: fc.constantFrom('audio/wav', 'audio/mpeg'), data: base64 }),
  }),
  fc.record({
    type: fc.constant('document' as const),
    source: fc.record({ type: fc.constant('base64' as const), mediaType: fc.constant('application/pdf'), data: base64 }),
    title: fc.constantFrom('a.pdf', 'report.pdf'),
  }),
);

const userMessage = fc.array(userPart, { minLength: 1, maxLength: 4 }).map((content): ChatMessageV2 => ({ role: 'user', content }));

/** An assistant turn with tool calls, answered by one tool message, with unique call ids. */
const toolTurn = (turn: number): fc.Arbitrary<ChatMessageV2[]> =>
  fc
    .record({
      texts: fc.array(textPart, { maxLength: 2 }),
      calls: fc.array(fc.record({ name: fc.constantFrom('weather', 'time'), args: fc.constantFrom('{}', '{"a":1}', '') }), { minLength: 1, maxLength: 3 }),
      results: fc.array(text, { minLength: 3, maxLength: 3 }),
    })
    .map(({ texts, calls, results }) => {
      const toolCalls = calls.map((call, index) => ({
        type: 'tool-call' as const,
        toolCallId: `call_${turn}_${index}`,
        toolName: call.name,
        argumentsText: call.args,
      }));
      return [
        { role: 'assistant', content: [...texts, ...toolCalls] },
        {
          role: 'tool',
          content: toolCalls.map((call, index) => ({
            type: 'tool-result' as const,
            toolCallId: call.toolCallId,
            toolName: call.toolName,
            content: [{ type: 'text' as const, text: results[index] as string }],
          })),
        },
      ];
    });

const assistantText = fc.array(textPart, { minLength: 1, maxLength: 3 }).map((content): ChatMessageV2 => ({ role: 'assistant', content }));

const conversation = fc
  .tuple(userMessage, fc.option(toolTurn(0), { nil: undefined }), fc.option(assistantText, { nil: undefined }), fc.option(userMessage, { nil: undefined }))
  .map(([first, tools, reply, last]) => [first, ...(tools ?? []), ...(reply === undefined ? [] : [reply]), ...(last === undefined ? [] : [last])]);

const TOOLS: ChatTaskV2['tools'] = [
  { name: 'weather', description: 'Weather', inputSchema: { type: 'object', properties: { city: { type: 'string' } } }, strict: true },
  { name: 'time', inputSchema: { type: 'object', properties: {} } },
];

const task: fc.Arbitrary<ChatTaskV2> = fc
  .record(
    {
      system: fc.array(textPart, { minLength: 1, maxLength: 2 }),
      messages: conversation,
      withTools: fc.boolean(),
      toolChoice: fc.constantFrom({ type: 'auto' }, { type: 'none' }, { type: 'required' }, { type: 'tool', toolName: 'time' }),
      responseFormat: fc.constantFrom({ type: 'json' }, { type: 'json', name: 'answer', schema: { type: 'object' }, strict: true }, { type: 'json', name: 'n', schema: {} }),
      sampling: fc.record(
        {
          temperature: fc.constantFrom(0, 0.5, 2),
          topP: fc.constantFrom(0.1, 1),
          frequencyPenalty: fc.constantFrom(-2, 0.5),
          presencePenalty: fc.constantFrom(0, 1.5),
          seed: fc.integer({ min: -5, max: 5 }),
        },
        { requiredKeys: [] },
      ),
      maxOutputTokens: fc.integer({ min: 1, max: 100_000 }),
      stopSequences: fc.array(text, { minLength: 1, maxLength: 4 }),
      reasoning: fc.constantFrom('minimal', 'low', 'medium', 'high').map((effort) => ({ effort })),
      caching: fc.constantFrom('k1', 'tenant:2').map((promptCacheKey) => ({ promptCacheKey })),
      stream: fc.boolean(),
    },
    { requiredKeys: ['messages', 'stream', 'withTools'] },
  )
  .map(({ withTools, toolChoice, sampling, ...rest }) => {
    const usesTools = withTools || rest.messages.some((message) => message.role === 'tool');
    const candidate = {
      kind: 'chat' as const,
      ...rest,
      ...(usesTools ? { tools: structuredClone(TOOLS) } : {}),
      ...(usesTools && toolChoice !== undefined ? { toolChoice } : {}),
      ...(sampling !== undefined && Object.keys(sampling).length > 0 ? { sampling } : {}),
    };
    return taskEnvelopeV2Schema.parse(candidate) as ChatTaskV2;
  });

describe('openai-chat encoder and ingress agree', () => {
  it('generates tasks that exercise media, tool turns and controls', () => {
    const samples = fc.sample(task, { numRuns: 200, seed: 7 });
    expect(samples.some((sample) => sample.messages.some((message) => message.role === 'tool'))).toBe(true);
    expect(samples.some((sample) => sample.messages.some((message) => message.content.some((part) => part.type === 'document')))).toBe(true);
    expect(samples.some((sample) => sample.stream && sample.sampling !== undefined && sample.toolChoice !== undefined)).toBe(true);
  });

  it('reads back every task it encodes', () => {
    fc.assert(
      fc.property(task, (original) => {
        const wire = encodeOpenAiChatRequest(original, 'client-model').body.value;
        const decoded = decodeOpenAiChatClientRequest({ path: '/v1/chat/completions', body: new TextEncoder().encode(JSON.stringify(wire)) });
        expect(decoded.modelLabel).toBe('client-model');
        expect(decoded.task).toEqual(original);
      }),
      { numRuns: 300 },
    );
  });
});
