import { describe, expect, it } from 'vitest';
import type { ProviderAdapterTargetV1, ProviderDiagnosticV3, TokenCountTaskV3 } from '@tokenforge/model-protocol';
import { createFixtureTransportV1, type FixtureResponseV1 } from '../../testing/fixture-transport.js';
import { createAnthropicMessagesAdapterFactory } from './adapter.js';

const target: ProviderAdapterTargetV1 = {
  providerModel: 'claude-sonnet-4-5',
  capability: { protocolFamily: 'anthropic-messages/v1', executionMode: 'stream-capable', taskKinds: ['chat', 'token-count'] },
};

const task: TokenCountTaskV3 = {
  kind: 'token-count',
  system: [{ type: 'text', text: 'Be kind.' }],
  messages: [{ role: 'user', content: [{ type: 'text', text: 'Hello, how are you?' }] }],
  tools: [{ name: 'weather', description: 'Weather of a city', inputSchema: { type: 'object', properties: { city: { type: 'string' } } } }],
  toolChoice: { type: 'auto' },
  reasoning: { budgetTokens: 2048 },
};

async function execute(response: FixtureResponseV1, diagnostics: ProviderDiagnosticV3[] = []) {
  const transport = createFixtureTransportV1({ responses: [response] });
  const adapter = createAnthropicMessagesAdapterFactory().createAdapter();
  const execution = await adapter.execute({ task, target, transport, signal: new AbortController().signal, reportDiagnostic: (d) => diagnostics.push(d) });
  return { execution, transport };
}

describe('anthropic-messages token counting', () => {
  it('posts the Messages encoding of the input to /v1/messages/count_tokens, without max_tokens or stream', async () => {
    const { execution, transport } = await execute({ headers: { 'request-id': 'req_count' }, body: { type: 'json', value: { input_tokens: 412 } } });
    expect(transport.requests).toEqual([
      {
        method: 'POST',
        path: '/v1/messages/count_tokens',
        headers: { accept: 'application/json' },
        body: {
          type: 'json',
          value: {
            model: 'claude-sonnet-4-5',
            system: [{ type: 'text', text: 'Be kind.' }],
            messages: [{ role: 'user', content: [{ type: 'text', text: 'Hello, how are you?' }] }],
            tools: [{ name: 'weather', description: 'Weather of a city', input_schema: { type: 'object', properties: { city: { type: 'string' } } } }],
            tool_choice: { type: 'auto' },
            thinking: { type: 'enabled', budget_tokens: 2048 },
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
      body: { type: 'json', value: { type: 'error', error: { type: 'invalid_request_error', message: 'bad' } } },
    });
    expect(execution).toMatchObject({ acceptance: { state: 'not-accepted' }, terminal: { status: 'failed', failure: { code: 'invalid-request' } } });
  });
});
