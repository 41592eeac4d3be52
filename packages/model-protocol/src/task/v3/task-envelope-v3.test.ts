import { describe, expect, it } from 'vitest';
import { chatTaskV2Schema, taskEnvelopeV2Schema, TASK_KINDS_V2 } from '../v2/task-envelope-v2.js';
import { chatTaskV3Schema, REASONING_EFFORTS_V3, TASK_KINDS_V3, taskEnvelopeV3Schema } from './task-envelope-v3.js';

const chat = {
  kind: 'chat',
  stream: false,
  messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }],
} as const;

const fullV2 = {
  ...chat,
  idempotencyKey: 'k-1',
  system: [{ type: 'text', text: 'be brief', cacheControl: { type: 'ephemeral', ttlSeconds: 300 } }],
  messages: [
    { role: 'user', content: [{ type: 'text', text: 'hi' }] },
    { role: 'assistant', content: [{ type: 'tool-call', toolCallId: 'c1', toolName: 'read', argumentsText: '{}' }] },
    { role: 'tool', content: [{ type: 'tool-result', toolCallId: 'c1', toolName: 'read', content: [{ type: 'text', text: 'ok' }] }] },
  ],
  tools: [{ name: 'read', inputSchema: { type: 'object' }, strict: true }],
  toolChoice: { type: 'tool', toolName: 'read' },
  responseFormat: { type: 'json', schema: { type: 'object' }, name: 'answer' },
  sampling: { temperature: 0.5, topP: 0.9, topK: 4, seed: 1 },
  maxOutputTokens: 100,
  stopSequences: ['END'],
  reasoning: { effort: 'high', budgetTokens: 1024, includeReasoning: true },
  caching: { promptCacheKey: 'p' },
};

describe('TaskEnvelopeV3', () => {
  it('accepts every V2 task unchanged (V3 only adds)', () => {
    for (const task of [chat, fullV2]) {
      expect(taskEnvelopeV2Schema.parse(task)).toEqual(task);
      expect(taskEnvelopeV3Schema.parse(task)).toEqual(task);
    }
    for (const key of Object.keys(chatTaskV2Schema.shape)) expect(Object.keys(chatTaskV3Schema.shape)).toContain(key);
    for (const kind of TASK_KINDS_V2) expect(TASK_KINDS_V3).toContain(kind);
  });

  it('takes the agent-era members', () => {
    const task = {
      ...fullV2,
      messages: [
        { role: 'user', content: [{ type: 'text', text: 'hi' }] },
        {
          role: 'assistant',
          content: [{ type: 'tool-call', toolCallId: 'c1', toolName: 'read', argumentsText: '{}', cacheControl: { type: 'ephemeral' } }],
        },
        {
          role: 'tool',
          content: [{ type: 'tool-result', toolCallId: 'c1', toolName: 'read', content: [], cacheControl: { type: 'ephemeral' } }],
        },
      ],
      tools: [{ name: 'read', inputSchema: { type: 'object' }, deferLoading: true, eagerInputStreaming: true }],
      hostedTools: [{ kind: 'web-search', maxUses: 3, allowedDomains: ['example.com'] }],
      parallelToolCalls: false,
      reasoning: { effort: 'xhigh', adaptive: true, summary: 'auto', display: 'updates', context: 'all-turns', includeEncrypted: true },
      verbosity: 'low',
      contextManagement: { clearThinking: { keep: 'all' }, clearToolUses: { triggerInputTokens: 1000, excludeTools: ['read'] } },
      endUserId: '{"device_id":"abc"}',
      store: false,
    };
    expect(taskEnvelopeV3Schema.parse(task)).toEqual(task);
    expect(taskEnvelopeV2Schema.safeParse(task).success).toBe(false);
  });

  it('knows the whole effort scale in order', () => {
    expect(REASONING_EFFORTS_V3).toEqual(['none', 'minimal', 'low', 'medium', 'high', 'xhigh', 'max']);
    expect(taskEnvelopeV3Schema.safeParse({ ...chat, reasoning: { effort: 'max' } }).success).toBe(true);
    expect(taskEnvelopeV3Schema.safeParse({ ...chat, reasoning: { effort: 'ultra' } }).success).toBe(false);
  });

  it('stays closed and keeps the role rules', () => {
    expect(taskEnvelopeV3Schema.safeParse({ ...chat, extra: 1 }).success).toBe(false);
    expect(taskEnvelopeV3Schema.safeParse({ ...chat, hostedTools: [{ kind: 'code-execution' }] }).success).toBe(false);
    expect(taskEnvelopeV3Schema.safeParse({ ...chat, endUserId: 'line\nbreak' }).success).toBe(false);
    expect(
      taskEnvelopeV3Schema.safeParse({
        ...chat,
        messages: [{ role: 'user', content: [{ type: 'tool-result', toolCallId: 'c', toolName: 't', content: [] }] }],
      }).success,
    ).toBe(false);
    expect(
      taskEnvelopeV3Schema.safeParse({
        ...chat,
        tools: [{ name: 'read', inputSchema: {}, deferLoading: 'yes' }],
      }).success,
    ).toBe(false);
  });

  it('has a token-count task over a conversation', () => {
    const task = { kind: 'token-count', system: [{ type: 'text', text: 's' }], messages: chat.messages, tools: [{ name: 't', inputSchema: {} }] };
    expect(taskEnvelopeV3Schema.parse(task)).toEqual(task);
    expect(taskEnvelopeV3Schema.safeParse({ kind: 'token-count', messages: [] }).success).toBe(false);
    expect(taskEnvelopeV3Schema.safeParse({ ...task, stream: false }).success).toBe(false);
  });
});
