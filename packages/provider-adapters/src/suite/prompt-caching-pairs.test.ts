import { describe, expect, it } from 'vitest';
import type { AdapterTerminalOutcomeV4, EgressCodecV1, IngressCodecV1, TaskEnvelopeV4 } from '@tokenforge/model-protocol';
import { decodeAnthropicMessagesResponse } from '../protocols/anthropic-messages/decode-response.js';
import { createAnthropicMessagesEgressCodec } from '../protocols/anthropic-messages/egress.js';
import { encodeAnthropicMessagesRequest } from '../protocols/anthropic-messages/encode-request.js';
import { createAnthropicMessagesIngressCodec } from '../protocols/anthropic-messages/ingress.js';
import { decodeGeminiResponse } from '../protocols/gemini-generate-content/decode-response.js';
import { createGeminiGenerateContentEgressCodec } from '../protocols/gemini-generate-content/egress.js';
import { decodeOpenAiChatResponse } from '../protocols/openai-chat/decode-response.js';
import { createOpenAiChatEgressCodec } from '../protocols/openai-chat/egress.js';
import { createOpenAiChatIngressCodec } from '../protocols/openai-chat/ingress.js';
import { decodeOpenAiResponsesResponse } from '../protocols/openai-responses/decode-response.js';
import { createOpenAiResponsesEgressCodec } from '../protocols/openai-responses/egress.js';

/*
 * Prompt caching across translation. Breakpoints: Anthropic's `cache_control`
 * (https://docs.claude.com/en/docs/build-with-claude/prompt-caching) from an Anthropic client, and the same object on
 * chat text parts as OpenAI-compatible routers take it
 * (https://openrouter.ai/docs/client-sdks/typescript/models/anthropiccachecontroldirective.md), reach an Anthropic
 * target. Usage: each family's documented cache figures (Anthropic `cache_read_input_tokens` /
 * `cache_creation_input_tokens`; OpenAI `prompt_tokens_details.cached_tokens`,
 * https://platform.openai.com/docs/guides/prompt-caching; Responses `input_tokens_details.cached_tokens`; Gemini
 * `usageMetadata.cachedContentTokenCount`, https://ai.google.dev/api/generate-content#UsageMetadata) reach every
 * client dialect's own field.
 */

const encoder = new TextEncoder();
const decoder = new TextDecoder();
type Json = Record<string, unknown>;

function decode(ingress: IngressCodecV1, path: string, body: Json): TaskEnvelopeV4 {
  return ingress.decodeRequest({ path, body: encoder.encode(JSON.stringify(body)) }).task;
}

function toAnthropic(task: TaskEnvelopeV4): Json {
  if (task.kind !== 'chat') throw new Error('expected a chat task');
  return encodeAnthropicMessagesRequest(task, { model: 'claude-x' }) as unknown as Json;
}

describe('cache_control breakpoints reach an Anthropic target', () => {
  it('from an Anthropic client: on system, message text and tool result, with their ttl', () => {
    const task = decode(createAnthropicMessagesIngressCodec(), '/v1/messages', {
      model: 'm',
      max_tokens: 10,
      system: [{ type: 'text', text: 'Long instructions', cache_control: { type: 'ephemeral', ttl: '1h' } }],
      messages: [
        { role: 'user', content: [{ type: 'text', text: 'Long document', cache_control: { type: 'ephemeral' } }] },
        { role: 'assistant', content: [{ type: 'tool_use', id: 't1', name: 'f', input: {} }] },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1', content: 'result', cache_control: { type: 'ephemeral', ttl: '5m' } }] },
      ],
    });
    const body = toAnthropic(task);
    expect(body.system).toEqual([{ type: 'text', text: 'Long instructions', cache_control: { type: 'ephemeral', ttl: '1h' } }]);
    const messages = body.messages as { content: Json[] }[];
    expect(messages[0]?.content[0]).toEqual({ type: 'text', text: 'Long document', cache_control: { type: 'ephemeral' } });
    expect(messages[2]?.content[0]).toMatchObject({ type: 'tool_result', tool_use_id: 't1', cache_control: { type: 'ephemeral', ttl: '5m' } });
  });

  it('from an OpenAI chat client: router-style cache_control on system, user and tool text parts', () => {
    const task = decode(createOpenAiChatIngressCodec(), '/v1/chat/completions', {
      model: 'm',
      messages: [
        { role: 'system', content: [{ type: 'text', text: 'Long instructions', cache_control: { type: 'ephemeral', ttl: '1h' } }] },
        { role: 'user', content: [{ type: 'text', text: 'Long document', cache_control: { type: 'ephemeral' } }, { type: 'text', text: 'Question?' }] },
        { role: 'assistant', content: null, tool_calls: [{ id: 't1', type: 'function', function: { name: 'f', arguments: '{}' } }] },
        { role: 'tool', tool_call_id: 't1', content: [{ type: 'text', text: 'result', cache_control: { type: 'ephemeral', ttl: '5m' } }] },
      ],
    });
    const body = toAnthropic(task);
    expect(body.system).toEqual([{ type: 'text', text: 'Long instructions', cache_control: { type: 'ephemeral', ttl: '1h' } }]);
    const messages = body.messages as { content: Json[] }[];
    expect(messages[0]?.content).toEqual([{ type: 'text', text: 'Long document', cache_control: { type: 'ephemeral' } }, { type: 'text', text: 'Question?' }]);
    expect(JSON.stringify(messages[2]?.content)).toContain('"cache_control":{"type":"ephemeral","ttl":"5m"}');
  });

  it('refuses a chat cache_control Anthropic would refuse, naming the field', () => {
    const ingress = createOpenAiChatIngressCodec();
    const bad = (cacheControl: unknown) => () =>
      decode(ingress, '/v1/chat/completions', { model: 'm', messages: [{ role: 'user', content: [{ type: 'text', text: 'x', cache_control: cacheControl }] }] });
    expect(bad({ type: 'persistent' })).toThrow(/messages\.0\.content\.0\.cache_control\.type/);
    expect(bad({ type: 'ephemeral', ttl: '2h' })).toThrow(/cache_control\.ttl/);
  });
});

/** One documented answer per provider family with cache reads (and, for Anthropic, cache writes). */
const PROVIDER_ANSWERS: Record<string, { terminal: () => AdapterTerminalOutcomeV4; read: number; write: number | undefined }> = {
  anthropic: {
    terminal: () =>
      decodeAnthropicMessagesResponse({
        body: {
          id: 'msg_1',
          type: 'message',
          role: 'assistant',
          model: 'claude-x',
          content: [{ type: 'text', text: 'Hi' }],
          stop_reason: 'end_turn',
          stop_sequence: null,
          usage: { input_tokens: 50, cache_creation_input_tokens: 1000, cache_read_input_tokens: 2000, output_tokens: 10 },
        },
        headers: {},
        status: 200,
        nowMs: 0,
      }).terminal,
    read: 2000,
    write: 1000,
  },
  'openai-chat': {
    terminal: () =>
      decodeOpenAiChatResponse({
        id: 'c1',
        object: 'chat.completion',
        created: 1,
        model: 'gpt-x',
        choices: [{ index: 0, message: { role: 'assistant', content: 'Hi' }, finish_reason: 'stop' }],
        usage: { prompt_tokens: 2006, completion_tokens: 300, total_tokens: 2306, prompt_tokens_details: { cached_tokens: 1920 } },
      }).terminal,
    read: 1920,
    write: undefined,
  },
  'openai-responses': {
    terminal: () =>
      decodeOpenAiResponsesResponse({
        id: 'resp_1',
        object: 'response',
        status: 'completed',
        model: 'gpt-x',
        output: [{ type: 'message', id: 'm1', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: 'Hi', annotations: [] }] }],
        usage: { input_tokens: 2006, input_tokens_details: { cached_tokens: 1920 }, output_tokens: 300, output_tokens_details: { reasoning_tokens: 0 }, total_tokens: 2306 },
      }).terminal,
    read: 1920,
    write: undefined,
  },
  gemini: {
    terminal: () =>
      decodeGeminiResponse({
        candidates: [{ content: { role: 'model', parts: [{ text: 'Hi' }] }, finishReason: 'STOP', index: 0 }],
        usageMetadata: { promptTokenCount: 2006, cachedContentTokenCount: 1920, candidatesTokenCount: 300, totalTokenCount: 2306 },
        modelVersion: 'gemini-x',
      }).terminal,
    read: 1920,
    write: undefined,
  },
};

/** Each client dialect's cache fields, as its egress writes them (`undefined` where the dialect has no field). */
const CLIENT_DIALECTS: Record<string, { egress: EgressCodecV1; read: (body: Json) => unknown; write: ((body: Json) => unknown) | undefined }> = {
  'openai-chat': {
    egress: createOpenAiChatEgressCodec(),
    read: (body) => ((body.usage as Json).prompt_tokens_details as Json | undefined)?.cached_tokens,
    write: (body) => ((body.usage as Json).prompt_tokens_details as Json | undefined)?.cache_write_tokens,
  },
  'openai-responses': {
    egress: createOpenAiResponsesEgressCodec(),
    read: (body) => ((body.usage as Json).input_tokens_details as Json | undefined)?.cached_tokens,
    write: (body) => ((body.usage as Json).input_tokens_details as Json | undefined)?.cache_write_tokens,
  },
  anthropic: {
    egress: createAnthropicMessagesEgressCodec(),
    read: (body) => (body.usage as Json).cache_read_input_tokens,
    write: (body) => (body.usage as Json).cache_creation_input_tokens,
  },
  gemini: {
    egress: createGeminiGenerateContentEgressCodec(),
    read: (body) => (body.usageMetadata as Json).cachedContentTokenCount,
    write: undefined,
  },
};

describe('cache reads and writes reach every client dialect that has a field for them', () => {
  for (const [provider, answer] of Object.entries(PROVIDER_ANSWERS)) {
    for (const [client, dialect] of Object.entries(CLIENT_DIALECTS)) {
      it(`${provider} answer → ${client} client`, () => {
        const response = dialect.egress.encodeResponse(answer.terminal(), { responseId: 'r1', modelLabel: 'm', createdAtMs: 0 });
        const body = JSON.parse(decoder.decode(response.body)) as Json;
        expect(dialect.read(body)).toBe(answer.read);
        // A dialect with a write field shows the provider's writes; `null` (Anthropic) or absent when none were reported.
        if (dialect.write !== undefined) expect(dialect.write(body) ?? undefined).toBe(answer.write);
        else expect(JSON.stringify(body)).not.toContain('1000');
      });
    }
  }
});
