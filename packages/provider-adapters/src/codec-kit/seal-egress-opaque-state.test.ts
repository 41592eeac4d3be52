import { describe, expect, it } from 'vitest';
import type { NormalizedStreamEventV4 } from '@tokenforge/model-protocol';
import { createAnthropicMessagesEgressCodec } from '../protocols/anthropic-messages/egress.js';
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
