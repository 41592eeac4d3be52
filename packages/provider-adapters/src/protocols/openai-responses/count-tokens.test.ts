import { describe, expect, it } from 'vitest';
import type { ProviderAdapterTargetV1, ProviderDiagnosticV3, TokenCountTaskV3 } from '@tokenforge/model-protocol';
import { createFixtureTransportV1, type FixtureResponseV1 } from '../../testing/fixture-transport.js';
import { tokenCountChatTask } from '../../codec-kit/index.js';
import { createOpenAiResponsesAdapterFactory } from './adapter.js';
import { encodeOpenAiResponsesRequest } from './encode-request.js';

const target: ProviderAdapterTargetV1 = {
  providerModel: 'gpt-5',
  capability: { protocolFamily: 'openai-responses/v1', executionMode: 'stream-capable', taskKinds: ['chat', 'token-count'] },
};

const task: TokenCountTaskV3 = {
  kind: 'token-count',
  system: [{ type: 'text', text: 'Be kind.' }],
  messages: [{ role: 'user', content: [{ type: 'text', text: 'Hello, how are you?' }] }],
  tools: [{ name: 'weather', description: 'Weather of a city', inputSchema: { type: 'object', properties: { city: { type: 'string' } } } }],
  toolChoice: { type: 'auto' },
  reasoning: { effort: 'low' },
};

async function execute(response: FixtureResponseV1, diagnostics: ProviderDiagnosticV3[] = []) {
  const transport = createFixtureTransportV1({ responses: [response] });
  const adapter = createOpenAiResponsesAdapterFactory().createAdapter();
  const execution = await adapter.execute({ task, target, transport, signal: new AbortController().signal, reportDiagnostic: (d) => diagnostics.push(d) });
  return { execution, transport };
}

describe('openai-responses token counting', () => {
  it('posts the Responses encoding of the input to /responses/input_tokens, without store, include or stream', async () => {
    const { execution, transport } = await execute({
      headers: { 'x-request-id': 'req_count' },
      body: { type: 'json', value: { object: 'response.input_tokens', input_tokens: 412 } },
    });
    // The chat encoder of the same input is the reference: the count body is its counted members.
    const chat = encodeOpenAiResponsesRequest(tokenCountChatTask(task), 'gpt-5').body.value;
    const INPUT = chat.input;
    const TOOLS = chat.tools;
    const REASONING = chat.reasoning;
    expect(REASONING).toBeDefined();
    expect(TOOLS).toHaveLength(1);
    expect(transport.requests).toEqual([
      {
        method: 'POST',
        path: '/responses/input_tokens',
        headers: { accept: 'application/json' },
        body: {
          type: 'json',
          value: {
            model: 'gpt-5',
            instructions: 'Be kind.',
            input: INPUT,
            tools: TOOLS,
            tool_choice: 'auto',
            reasoning: REASONING,
          },
        },
      },
    ]);
    expect(execution).toMatchObject({
      kind: 'response',
      acceptance: { state: 'accepted' },
      responseMetadata: { providerRequestId: 'req_count' },
      terminal: { status: 'completed', result: { kind: 'token-count', inputTokens: 412 } },
    });
  });

  it.each([
    ['a missing count', {}],
    ['a negative count', { input_tokens: -1 }],
    ['a fractional count', { input_tokens: 1.5 }],
    ['a string count', { input_tokens: '12' }],
    ['an array body', [1]],
    ['another object type', { object: 'response', input_tokens: 3 }],
  ])('ends %s as a protocol violation with a diagnostic, never as zero', async (_label, value) => {
    const diagnostics: ProviderDiagnosticV3[] = [];
    const { execution } = await execute({ body: { type: 'json', value } }, diagnostics);
    expect(execution).toMatchObject({ kind: 'response', acceptance: { state: 'unknown' }, terminal: { status: 'failed', failure: { code: 'protocol-violation' } } });
    expect(diagnostics).toHaveLength(1);
    expect(diagnostics[0]).toMatchObject({ code: 'protocol-violation' });
  });

  it('maps a provider refusal of the count like any other answer', async () => {
    const { execution } = await execute({
      status: 400,
      body: { type: 'json', value: { error: { type: 'invalid_request_error', code: null, message: 'bad', param: null } } },
    });
    expect(execution).toMatchObject({ acceptance: { state: 'not-accepted' }, terminal: { status: 'failed', failure: { code: 'invalid-request' } } });
  });
});
