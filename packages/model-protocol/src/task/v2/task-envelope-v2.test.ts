import { describe, expect, it } from 'vitest';
import { taskEnvelopeV2Schema } from './task-envelope-v2.js';

const chat = {
  kind: 'chat',
  stream: false,
  messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }],
} as const;

describe('TaskEnvelopeV2', () => {
  it('accepts a minimal chat task', () => {
    expect(taskEnvelopeV2Schema.safeParse(chat).success).toBe(true);
  });

  it('is closed: an unknown key is refused at every level', () => {
    expect(taskEnvelopeV2Schema.safeParse({ ...chat, extra: 1 }).success).toBe(false);
    expect(
      taskEnvelopeV2Schema.safeParse({
        ...chat,
        messages: [{ role: 'user', content: [{ type: 'text', text: 'hi', extra: true }] }],
      }).success,
    ).toBe(false);
  });

  it('refuses parts a role cannot hold', () => {
    const result = taskEnvelopeV2Schema.safeParse({
      ...chat,
      messages: [{ role: 'user', content: [{ type: 'tool-call', toolCallId: 'c', toolName: 't', argumentsText: '{}' }] }],
    });
    expect(result.success).toBe(false);
  });

  it('refuses an unknown kind and malformed values', () => {
    expect(taskEnvelopeV2Schema.safeParse({ kind: 'telepathy' }).success).toBe(false);
    expect(taskEnvelopeV2Schema.safeParse(null).success).toBe(false);
    expect(taskEnvelopeV2Schema.safeParse({ kind: 'embedding', inputs: [] }).success).toBe(false);
    expect(taskEnvelopeV2Schema.safeParse({ kind: 'rerank', query: 'q', documents: ['a'], topN: 0 }).success).toBe(false);
    expect(taskEnvelopeV2Schema.safeParse({ ...chat, idempotencyKey: 'has spaces' }).success).toBe(false);
  });

  it('needs a prompt or an image for video', () => {
    expect(taskEnvelopeV2Schema.safeParse({ kind: 'video-generation' }).success).toBe(false);
    expect(taskEnvelopeV2Schema.safeParse({ kind: 'video-generation', prompt: 'a cat' }).success).toBe(true);
  });
});
