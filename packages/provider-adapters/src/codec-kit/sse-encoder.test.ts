import { describe, expect, it } from 'vitest';
import { encodeSseComment, encodeSseDone, encodeSseEvent, formatSseEvent, SSE_DONE_DATA } from './sse-encoder.js';

const text = (bytes: Uint8Array): string => new TextDecoder().decode(bytes);

describe('SSE encoder', () => {
  it('writes event, id and data lines and the dispatching blank line', () => {
    expect(formatSseEvent({ data: '{"a":1}' })).toBe('data: {"a":1}\n\n');
    expect(formatSseEvent({ event: 'message_start', id: '4', data: '{}' })).toBe('event: message_start\nid: 4\ndata: {}\n\n');
  });

  it('splits data on every kind of line break into several data lines', () => {
    expect(formatSseEvent({ data: 'a\nb\r\nc\rd' })).toBe('data: a\ndata: b\ndata: c\ndata: d\n\n');
    expect(formatSseEvent({ data: '' })).toBe('data: \n\n');
    expect(formatSseEvent({ data: '\n' })).toBe('data: \ndata: \n\n');
  });

  it('refuses an event name, id or comment that would break the framing', () => {
    expect(() => formatSseEvent({ event: 'a\nevent: b', data: 'x' })).toThrowError(expect.objectContaining({ code: 'invalid-request' }) as Error);
    expect(() => formatSseEvent({ id: '1\r', data: 'x' })).toThrowError(expect.objectContaining({ code: 'invalid-request' }) as Error);
    expect(() => formatSseEvent({ id: '1\u0000', data: 'x' })).toThrowError(expect.objectContaining({ code: 'invalid-request' }) as Error);
    expect(() => encodeSseComment('a\nb')).toThrowError(expect.objectContaining({ code: 'invalid-request' }) as Error);
  });

  it('encodes UTF-8 bytes, the [DONE] sentinel and comments', () => {
    expect(text(encodeSseEvent({ data: '你好' }))).toBe('data: 你好\n\n');
    expect(text(encodeSseDone())).toBe(`data: ${SSE_DONE_DATA}\n\n`);
    expect(SSE_DONE_DATA).toBe('[DONE]');
    expect(text(encodeSseComment('keep-alive'))).toBe(': keep-alive\n\n');
  });
});
