import { describe, expect, it } from 'vitest';
import type { ProviderDiagnosticV3, TokenCountTaskV3 } from '@tokenforge/model-protocol';
import { createOpenAiChatAdapterFactory } from '../protocols/openai-chat/adapter.js';
import { createFixtureTransportV1 } from '../testing/fixture-transport.js';
import { tokenCountChatTask, tokenCountTerminal } from './token-count-chat-task.js';

const task: TokenCountTaskV3 = {
  kind: 'token-count',
  idempotencyKey: 'key-1',
  system: [{ type: 'text', text: 'Be kind.' }],
  messages: [{ role: 'user', content: [{ type: 'text', text: 'Hi' }] }],
  toolChoice: { type: 'none' },
};

describe('token counting in the kit', () => {
  it('counts the input of the chat task with the same members, not streamed and without the idempotency key', () => {
    expect(tokenCountChatTask(task)).toEqual({ kind: 'chat', stream: false, system: task.system, messages: task.messages, toolChoice: { type: 'none' } });
  });

  it('builds the completed terminal of a count', () => {
    expect(tokenCountTerminal(7)).toEqual({ status: 'completed', result: { kind: 'token-count', inputTokens: 7 } });
  });

  it('a family without a counting endpoint refuses the task as unsupported and sends nothing (never a zero)', async () => {
    const transport = createFixtureTransportV1({ responses: [] });
    const diagnostics: ProviderDiagnosticV3[] = [];
    const execution = await createOpenAiChatAdapterFactory()
      .createAdapter()
      .execute({
        task,
        target: { providerModel: 'gpt-4o', capability: { protocolFamily: 'openai-chat/v1', executionMode: 'stream-capable', taskKinds: ['chat'] } },
        transport,
        signal: new AbortController().signal,
        reportDiagnostic: (diagnostic) => diagnostics.push(diagnostic),
      });
    expect(transport.requests).toEqual([]);
    expect(execution).toMatchObject({ kind: 'response', acceptance: { state: 'not-accepted' }, terminal: { status: 'failed', failure: { code: 'unsupported' } } });
    expect(diagnostics).toMatchObject([{ code: 'unsupported' }]);
  });
});
