import { CONTRACT_BOUNDS_V1 as BOUNDS, adapterTerminalOutcomeSchema } from '@tokenforge/model-protocol';
import { describe, expect, it } from 'vitest';
import { decodeAnthropicMessagesResponse } from '../protocols/anthropic-messages/decode-response.js';
import { decodeGeminiResponse } from '../protocols/gemini-generate-content/decode-response.js';
import { decodeOpenAiChatResponse } from '../protocols/openai-chat/decode-response.js';
import { decodeOpenAiResponsesResponse } from '../protocols/openai-responses/decode-response.js';

/*
 * The wire readers bound tool-call ids and names by the contract's own limits: a call at the bound decodes to a
 * terminal the schema accepts, a call one character beyond it is a protocol violation (never a terminal the
 * engine would then refuse). A reader that tightens or loosens either bound fails here.
 */

type Decode = (id: string, name: string) => unknown;

const FAMILIES: Record<string, Decode> = {
  'openai-chat': (id, name) =>
    decodeOpenAiChatResponse({
      choices: [{ index: 0, finish_reason: 'tool_calls', message: { role: 'assistant', content: null, tool_calls: [{ id, type: 'function', function: { name, arguments: '{}' } }] } }],
    }).terminal,
  'openai-responses': (id, name) =>
    decodeOpenAiResponsesResponse({ status: 'completed', output: [{ type: 'function_call', id: 'fc_1', call_id: id, name, arguments: '{}' }] }).terminal,
  'anthropic-messages': (id, name) =>
    decodeAnthropicMessagesResponse({
      body: { type: 'message', role: 'assistant', content: [{ type: 'tool_use', id, name, input: {} }], stop_reason: 'tool_use', usage: { input_tokens: 1, output_tokens: 1 } },
      headers: {},
      status: 200,
      nowMs: 0,
    }).terminal,
  'gemini-generate-content': (id, name) =>
    decodeGeminiResponse({ candidates: [{ content: { role: 'model', parts: [{ functionCall: { id, name, args: {} } }] }, finishReason: 'STOP' }] }).terminal,
};

function outcome(run: () => unknown): 'schema-valid' | 'schema-invalid' | 'protocol-violation' {
  let terminal: unknown;
  try {
    terminal = run();
  } catch {
    return 'protocol-violation';
  }
  if (typeof terminal === 'object' && terminal !== null && (terminal as { status?: unknown }).status === 'failed') {
    const failure = (terminal as { failure?: { code?: unknown } }).failure;
    if (failure?.code === 'protocol-violation') return 'protocol-violation';
  }
  return adapterTerminalOutcomeSchema.safeParse(terminal).success ? 'schema-valid' : 'schema-invalid';
}

describe.each(Object.entries(FAMILIES))('%s wire readers and the contract bounds', (_family, decode) => {
  const id = (length: number): string => 'c'.repeat(length);
  const name = (length: number): string => 'n'.repeat(length);

  it('a tool call id at the bound decodes, one beyond is a protocol violation', () => {
    expect(outcome(() => decode(id(BOUNDS.toolCallIdMaxLength), 'weather'))).toBe('schema-valid');
    expect(outcome(() => decode(id(BOUNDS.toolCallIdMaxLength + 1), 'weather'))).toBe('protocol-violation');
  });

  it('a tool name at the bound decodes, one beyond is a protocol violation', () => {
    expect(outcome(() => decode('call_1', name(BOUNDS.toolNameMaxLength)))).toBe('schema-valid');
    expect(outcome(() => decode('call_1', name(BOUNDS.toolNameMaxLength + 1)))).toBe('protocol-violation');
  });
});
