import type { ChatTaskV3, ProtocolCapabilityV3 } from '@tokenforge/model-protocol';
import { describe, expect, it } from 'vitest';
import { fitTaskToTarget } from './fit-task-to-target.js';

const base: ProtocolCapabilityV3 = { protocolFamily: 'openai-chat/v1', executionMode: 'stream-capable', taskKinds: ['chat'], tools: true, reasoning: true };

const task: ChatTaskV3 = {
  kind: 'chat',
  stream: false,
  messages: [{ role: 'user', content: [{ type: 'text', text: 'Hi' }] }],
  hostedTools: [{ kind: 'web-search', maxUses: 2 }],
  parallelToolCalls: false,
  contextManagement: { clearThinking: { keep: 'all' } },
  reasoning: { effort: 'high', summary: 'auto' },
};

describe('fitTaskToTarget', () => {
  it('drops the hints a target does not declare and names the hosted tools by the client names', () => {
    const fitted = fitTaskToTarget(task, base, ['web_search_20250305']);
    expect(fitted.droppedHostedTools).toEqual(['web_search_20250305']);
    expect(fitted.task).toEqual({ kind: 'chat', stream: false, messages: task.messages, reasoning: { effort: 'high', summary: 'auto' } });
  });

  it('keeps what the target declares, returning the same task', () => {
    const fitted = fitTaskToTarget(task, { ...base, hostedTools: ['web-search'], parallelToolCalls: true, contextManagement: true });
    expect(fitted.task).toBe(task);
    expect(fitted.droppedHostedTools).toEqual([]);
  });

  it('names a dropped hosted tool by its kind without client names', () => {
    expect(fitTaskToTarget(task, base).droppedHostedTools).toEqual(['web-search']);
  });

  it('leaves out an effort of none for a target without that level, and keeps it for one with it', () => {
    const none: ChatTaskV3 = { kind: 'chat', stream: false, messages: task.messages, reasoning: { effort: 'none' } };
    expect(fitTaskToTarget(none, base).task).toEqual({ kind: 'chat', stream: false, messages: task.messages });
    expect(fitTaskToTarget({ ...none, reasoning: { effort: 'none', context: 'auto' } }, base).task).toMatchObject({ reasoning: { context: 'auto' } });
    expect(fitTaskToTarget(none, { ...base, reasoningEfforts: ['none', 'low', 'high'] }).task).toBe(none);
  });

  it('leaves other task kinds alone', () => {
    const embedding = { kind: 'embedding', inputs: ['a'] } as const;
    expect(fitTaskToTarget(embedding as never, base).task).toBe(embedding);
  });
});
