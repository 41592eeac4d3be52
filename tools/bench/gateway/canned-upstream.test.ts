import { describe, expect, it } from 'vitest';
import { anthropicMessageBody, anthropicStreamEvents, EVENTS_PER_WRITE, openAiChatBody, openAiChatStreamEvents, STREAM_EVENTS, writesOf } from './canned-upstream.js';

describe('canned upstream answers', () => {
  it('builds 2,000-event streams of well-formed SSE events in each dialect', () => {
    for (const events of [openAiChatStreamEvents(), anthropicStreamEvents()]) {
      expect(events).toHaveLength(STREAM_EVENTS);
      for (const event of events) {
        expect(event.endsWith('\n\n')).toBe(true);
        const data = /^data: (.*)$/m.exec(event)?.[1] ?? '';
        if (data !== '[DONE]') expect(() => JSON.parse(data)).not.toThrow();
      }
    }
    expect(openAiChatStreamEvents().at(-1)).toBe('data: [DONE]\n\n');
    expect(anthropicStreamEvents().at(-1)).toContain('event: message_stop');
  });

  it('groups events into writes without losing a byte', () => {
    const events = anthropicStreamEvents();
    const writes = writesOf(events);
    expect(writes).toHaveLength(Math.ceil(STREAM_EVENTS / EVENTS_PER_WRITE));
    expect(writes.map((write) => new TextDecoder().decode(write)).join('')).toBe(events.join(''));
  });

  it('answers sync requests with parseable bodies', () => {
    expect(JSON.parse(new TextDecoder().decode(openAiChatBody())).choices[0].finish_reason).toBe('stop');
    expect(JSON.parse(new TextDecoder().decode(anthropicMessageBody())).stop_reason).toBe('end_turn');
  });
});
