import { describe, expect, it } from 'vitest';
import { isProtocolViolationError } from './protocol-violation-error.js';
import { createToolCallAccumulator } from './tool-call-accumulator.js';

function reasonOf(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    if (isProtocolViolationError(error)) return error.reason;
    throw error;
  }
  throw new Error('expected a protocol violation');
}

describe('createToolCallAccumulator', () => {
  it('accumulates fragments per index, interleaved, and joins them at close', () => {
    const calls = createToolCallAccumulator();
    calls.open(1, { toolCallId: 'call_a', toolName: 'search' });
    calls.open(0);
    calls.append(1, '{"q":');
    calls.append(0, '{}');
    calls.append(1, '"tea"}');
    calls.identify(0, { toolCallId: 'call_b', toolName: 'noop' });
    expect(calls.openIndexes()).toEqual([0, 1]);
    expect(calls.identityOf(0)).toEqual({ toolCallId: 'call_b', toolName: 'noop' });
    expect(calls.close(1)).toEqual({ index: 1, toolCallId: 'call_a', toolName: 'search', argumentsText: '{"q":"tea"}' });
    expect(calls.isOpen(1)).toBe(false);
    expect(calls.has(1)).toBe(true);
    expect(calls.closeAll()).toEqual([{ index: 0, toolCallId: 'call_b', toolName: 'noop', argumentsText: '{}' }]);
    expect(calls.openIndexes()).toEqual([]);
  });

  it('keeps the first identity it was given', () => {
    const calls = createToolCallAccumulator();
    calls.open(0, { toolCallId: 'first' });
    calls.identify(0, { toolCallId: 'second', toolName: 'tool' });
    expect(calls.close(0)).toMatchObject({ toolCallId: 'first', toolName: 'tool', argumentsText: '' });
  });

  it('refuses fragments for unknown and closed indexes, and an index opened twice', () => {
    const calls = createToolCallAccumulator();
    expect(reasonOf(() => calls.append(3, 'x'))).toBe('tool-call-unknown-index');
    expect(reasonOf(() => calls.close(3))).toBe('tool-call-unknown-index');
    calls.open(3);
    expect(reasonOf(() => calls.open(3))).toBe('tool-call-duplicate-index');
    calls.close(3);
    expect(reasonOf(() => calls.append(3, 'x'))).toBe('tool-call-closed-index');
    expect(reasonOf(() => calls.close(3))).toBe('tool-call-closed-index');
    expect(reasonOf(() => calls.open(3))).toBe('tool-call-duplicate-index');
  });

  it('refuses indexes outside 0..1,000,000', () => {
    const calls = createToolCallAccumulator();
    for (const index of [-1, 1.5, 1_000_001, Number.NaN]) expect(reasonOf(() => calls.open(index))).toBe('invalid-event');
    expect(() => calls.open(1_000_000)).not.toThrow();
  });

  it('refuses argument text past its cap', () => {
    const calls = createToolCallAccumulator({ maxArgumentsLength: 8 });
    calls.open(0);
    calls.append(0, '12345678');
    expect(reasonOf(() => calls.append(0, '9'))).toBe('tool-call-too-large');
  });

  it('accumulates 100,000 fragments into the exact concatenation', () => {
    const calls = createToolCallAccumulator();
    calls.open(0);
    for (let index = 0; index < 100_000; index += 1) calls.append(0, String(index % 10));
    const text = calls.close(0).argumentsText;
    expect(text).toHaveLength(100_000);
    expect(text.startsWith('0123456789')).toBe(true);
  });
});
