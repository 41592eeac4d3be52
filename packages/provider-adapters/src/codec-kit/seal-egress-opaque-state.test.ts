import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { EGRESS_STREAM_EVENT_TEXT_V1, type AdapterTerminalOutcomeV4, type EgressStreamEventTextV1, type NormalizedStreamEventV4 } from '@tokenforge/model-protocol';
import { createAnthropicMessagesEgressCodec } from '../protocols/anthropic-messages/egress.js';
import { createOpenAiChatEgressCodec } from '../protocols/openai-chat/egress.js';
import { createOpenAiResponsesEgressCodec } from '../protocols/openai-responses/egress.js';
import { createOpaqueStateSeal } from './opaque-state-seal.js';
import { sealEgressOpaqueState } from './seal-egress-opaque-state.js';

const seal = createOpaqueStateSeal(new TextEncoder().encode('a host key of at least thirty-two bytes'));
const context = { responseId: 'resp_1', modelLabel: 'm', createdAtMs: 0 };
const decoder = new TextDecoder();

const events: NormalizedStreamEventV4[] = [
  { type: 'reasoning-start', index: 0 },
  { type: 'reasoning-delta', index: 0, delta: 'thinking' },
  { type: 'reasoning-end', index: 0, signature: 'CiQBVKhc-gemini-thought' },
  { type: 'reasoning-redacted', index: 1, data: 'EmwKAhgB-redacted' },
];

function streamed(codec: ReturnType<typeof sealEgressOpaqueState>): string {
  const encoder = codec.createStreamEncoder?.(context);
  if (encoder === undefined) throw new Error('no stream encoder');
  return events.map((event) => decoder.decode(encoder.encodeEvent(event))).join('');
}

describe('sealEgressOpaqueState', () => {
  it('streams another family\'s signature to an Anthropic client inside the sealed wrapper naming that family', () => {
    const text = streamed(sealEgressOpaqueState(createAnthropicMessagesEgressCodec(), { sourceFamily: 'gemini-generate-content/v1', seal }));
    const signature = /"signature_delta","signature":"([^"]+)"/.exec(text)?.[1] as string;
    expect(signature).not.toContain('CiQBVKhc');
    expect(seal.open(signature)).toEqual({ family: 'gemini-generate-content/v1', value: 'CiQBVKhc-gemini-thought' });
    const data = /"redacted_thinking","data":"([^"]+)"/.exec(text)?.[1] as string;
    expect(seal.open(data)).toEqual({ family: 'gemini-generate-content/v1', value: 'EmwKAhgB-redacted' });
  });

  it('passes the dialect\'s own family\'s values unchanged', () => {
    const codec = createAnthropicMessagesEgressCodec();
    expect(sealEgressOpaqueState(codec, { sourceFamily: 'anthropic-messages/v1', seal })).toBe(codec);
  });

  it('without a seal leaves another family\'s values out of a stream, never forwarding them', () => {
    const text = streamed(sealEgressOpaqueState(createAnthropicMessagesEgressCodec(), { sourceFamily: 'gemini-generate-content/v1', seal: undefined }));
    expect(text).not.toContain('CiQBVKhc');
    expect(text).not.toContain('redacted_thinking');
    expect(text).not.toContain('signature_delta');
  });

  it('carries an Anthropic signature to a Responses client as sealed encrypted_content on the completed response', () => {
    const codec = sealEgressOpaqueState(createOpenAiResponsesEgressCodec(), { sourceFamily: 'anthropic-messages/v1', seal });
    const body = JSON.parse(
      decoder.decode(
        codec.encodeResponse({ status: 'completed', result: { kind: 'chat', content: [{ type: 'reasoning', text: 't', signature: 'EqQBCkYIBxgC' }] }, finishReason: { unified: 'stop' } }, context).body,
      ),
    ) as { output: { type: string; encrypted_content?: string }[] };
    const item = body.output.find((entry) => entry.type === 'reasoning');
    expect(seal.open(item?.encrypted_content as string)).toEqual({ family: 'anthropic-messages/v1', value: 'EqQBCkYIBxgC' });
  });
});

describe('sealEgressOpaqueState with compaction (V4 outputs)', () => {
  it('leaves another family\'s compaction out of a stream and of a whole answer, sealed or not', () => {
    const codec = sealEgressOpaqueState(createAnthropicMessagesEgressCodec(), { sourceFamily: 'openai-responses/v1', seal });
    const encoder = codec.createStreamEncoder?.(context);
    if (encoder === undefined) throw new Error('no stream encoder');
    expect(encoder.encodeEvent({ type: 'compaction', index: 0, data: 'gAAAA-openai-compaction', id: 'cmp_1' })).toHaveLength(0);
    const whole = codec.encodeResponse(
      { status: 'completed', result: { kind: 'chat', content: [{ type: 'compaction', data: 'gAAAA-openai-compaction' }, { type: 'text', text: 'ok' }] }, finishReason: { unified: 'stop' } },
      context,
    );
    const body = decoder.decode(whole.body);
    expect(body).not.toContain('gAAAA-openai-compaction');
    expect(body).toContain('"ok"');
  });

  it('tells the host each part type it left out, and nothing for the family\'s own compaction', () => {
    const leftOut: string[] = [];
    const codec = sealEgressOpaqueState(createAnthropicMessagesEgressCodec(), { sourceFamily: 'openai-responses/v1', seal: undefined, onLeftOut: (type) => leftOut.push(type) });
    const encoder = codec.createStreamEncoder?.(context);
    encoder?.encodeEvent({ type: 'compaction', index: 0, data: 'gAAAA-openai-compaction', id: 'cmp_1' });
    encoder?.encodeEvent({ type: 'reasoning-redacted', index: 1, data: 'EmwKAhgB-redacted' });
    expect(leftOut).toEqual(['compaction', 'redacted-reasoning']);
    const own: string[] = [];
    const same = sealEgressOpaqueState(createAnthropicMessagesEgressCodec(), { sourceFamily: 'anthropic-messages/v1', seal, onLeftOut: (type) => own.push(type) });
    const body = decoder.decode(same.encodeResponse({ status: 'completed', result: { kind: 'chat', content: [{ type: 'compaction', data: 'summary' }] }, finishReason: { unified: 'stop' } }, context).body);
    expect(body).toContain('{"type":"compaction","content":"summary"}');
    expect(own).toEqual([]);
  });
});

describe('sealEgressOpaqueState keeps the stream encoder\'s text form', () => {
  const awkward = fc.oneof(fc.string({ maxLength: 8 }), fc.string({ unit: 'binary', maxLength: 6 }), fc.constantFrom('', '"', '\\', '\n', '\u2028', '\ud800', '\u0000'));
  const index = fc.nat(2);
  const event: fc.Arbitrary<NormalizedStreamEventV4> = fc.oneof(
    { arbitrary: fc.record({ type: fc.constantFrom('text-delta' as const, 'reasoning-delta' as const, 'tool-call-delta' as const), index, delta: awkward }), weight: 6 },
    { arbitrary: fc.record({ type: fc.constantFrom('text-start' as const, 'text-end' as const, 'reasoning-start' as const), index }), weight: 2 },
    { arbitrary: fc.record({ type: fc.constant('reasoning-end' as const), index, signature: awkward }), weight: 1 },
    { arbitrary: fc.record({ type: fc.constant('tool-call-start' as const), index, toolCallId: awkward, toolName: awkward }), weight: 1 },
    { arbitrary: fc.record({ type: fc.constant('tool-call-end' as const), index, argumentsText: awkward, signature: awkward }), weight: 1 },
    { arbitrary: fc.record({ type: fc.constant('reasoning-redacted' as const), index, data: awkward }), weight: 1 },
    { arbitrary: fc.record({ type: fc.constant('compaction' as const), index, data: awkward }), weight: 1 },
  );
  const codecs = [createAnthropicMessagesEgressCodec(), createOpenAiChatEgressCodec()];

  function written(run: () => Uint8Array): string {
    try {
      return Buffer.from(run()).toString('hex');
    } catch (error) {
      return `threw ${String(error)}`;
    }
  }

  it('gives each event as the text whose UTF-8 bytes its encodeEvent writes (or throws the same error), sealed or not', () => {
    let writtenEvents = 0;
    fc.assert(
      fc.property(fc.constantFrom(...codecs), fc.boolean(), fc.array(event, { maxLength: 30 }), (codec, sealed, events) => {
        const source = { sourceFamily: 'gemini-generate-content/v1' as const, seal: sealed ? seal : undefined };
        const byText = sealEgressOpaqueState(codec, source).createStreamEncoder?.(context);
        const byBytes = sealEgressOpaqueState(codec, source).createStreamEncoder?.(context);
        if (byText === undefined || byBytes === undefined) throw new Error('no stream encoder');
        const eventText = (byText as EgressStreamEventTextV1)[EGRESS_STREAM_EVENT_TEXT_V1];
        if (eventText === undefined) throw new Error('the wrapped encoder offers no event text');
        for (const item of events) {
          const expected = written(() => byBytes.encodeEvent(item));
          expect(written(() => Buffer.from(eventText.call(byText, item), 'utf8'))).toBe(expected);
          if (!expected.startsWith('threw') && expected.length > 0) writtenEvents += 1;
        }
        const terminal: AdapterTerminalOutcomeV4 = { status: 'completed', result: { kind: 'chat', content: [] }, finishReason: { unified: 'stop' } };
        expect(written(() => byText.encodeTerminal(terminal))).toBe(written(() => byBytes.encodeTerminal(terminal)));
      }),
      { numRuns: 300 },
    );
    // Not vacuous: many events were written through the text form.
    expect(writtenEvents).toBeGreaterThan(300);
  });

  it('leaves a compaction and an unsealed signature out of the text as it does out of the bytes', () => {
    const encoder = sealEgressOpaqueState(createOpenAiChatEgressCodec(), { sourceFamily: 'anthropic-messages/v1', seal: undefined }).createStreamEncoder?.(context);
    const eventText = (encoder as EgressStreamEventTextV1 | undefined)?.[EGRESS_STREAM_EVENT_TEXT_V1];
    if (encoder === undefined || eventText === undefined) throw new Error('the wrapped encoder offers no event text');
    const text = [
      { type: 'tool-call-start', index: 0, toolCallId: 'call_1', toolName: 'f' },
      { type: 'tool-call-end', index: 0, argumentsText: '{}', signature: 'EqQBCkYIBxgC-anthropic' },
      { type: 'compaction', index: 1, data: 'summary-of-another-family' },
    ].map((item) => eventText.call(encoder, item as NormalizedStreamEventV4)).join('');
    expect(text).toContain('"call_1"');
    expect(text).not.toContain('EqQBCkYIBxgC');
    expect(text).not.toContain('summary-of-another-family');
  });
});
