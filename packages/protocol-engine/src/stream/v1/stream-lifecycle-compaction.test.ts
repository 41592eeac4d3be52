import { adapterTerminalOutcomeV4Schema, normalizedStreamEventV4Schema } from '@tokenforge/model-protocol';
import { describe, expect, it } from 'vitest';
import { checkStreamEvent } from '../../validation/v1/check-stream-event.js';
import { StreamLifecycle } from './stream-lifecycle.js';

/* The V4 output revision: a whole compaction block in a stream and in the terminal's chat result. */

const compaction = { type: 'compaction', index: 0, data: 'gAAAAABpZ2NvbXBhY3Rpb24=', id: 'cmp_1' } as const;

describe('compaction blocks in engine streams', () => {
  it('the hand-written event check agrees with the V4 schema on compaction events', () => {
    const cases: unknown[] = [
      compaction,
      { type: 'compaction', index: 3, data: 'summary' },
      { type: 'compaction', index: 0, data: '' },
      { type: 'compaction', index: -1, data: 'x' },
      { type: 'compaction', index: 0, data: 'x', id: '' },
      { type: 'compaction', index: 0, data: 'x', id: 'has space' },
      { type: 'compaction', index: 0, data: 'x', extra: true },
      { type: 'compaction', index: 0 },
      { type: 'compaction', index: 0, data: 'x', providerFields: '{"signature":"c2ln"}' },
      { type: 'compaction', index: 0, data: 'x', id: 'cmp_2', providerFields: '{}' },
      { type: 'compaction', index: 0, data: 'x', providerFields: '' },
      { type: 'compaction', index: 0, data: 'x', providerFields: 1 },
    ];
    for (const value of cases) {
      const schema = normalizedStreamEventV4Schema.safeParse(value);
      expect(checkStreamEvent(value)).toEqual(schema.success ? schema.data : undefined);
    }
  });

  it('a compaction event is one block, matched by the terminal part with the same payload and id', () => {
    const lifecycle = new StreamLifecycle();
    expect(lifecycle.accept(compaction)).toBeUndefined();
    expect(lifecycle.accept({ type: 'text-start', index: 1 })).toBeUndefined();
    expect(lifecycle.accept({ type: 'text-delta', index: 1, delta: 'ok' })).toBeUndefined();
    expect(lifecycle.accept({ type: 'text-end', index: 1 })).toBeUndefined();
    const terminal = adapterTerminalOutcomeV4Schema.parse({
      status: 'completed',
      result: { kind: 'chat', content: [{ type: 'compaction', data: compaction.data, id: 'cmp_1' }, { type: 'text', text: 'ok' }] },
    });
    expect(lifecycle.checkTerminal(terminal)).toBeUndefined();
    const other = adapterTerminalOutcomeV4Schema.parse({ status: 'completed', result: { kind: 'chat', content: [{ type: 'compaction', data: 'other' }, { type: 'text', text: 'ok' }] } });
    expect(lifecycle.checkTerminal(other)).toBe('the terminal content does not match the streamed blocks');
    expect(lifecycle.accept({ ...compaction, index: 1 })).toBe('a block index was used twice');
  });

  it('the terminal part must carry the streamed block\'s provider members too', () => {
    const lifecycle = new StreamLifecycle();
    expect(lifecycle.accept({ type: 'compaction', index: 0, data: 'summary', providerFields: '{"signature":"c2ln"}' })).toBeUndefined();
    const without = adapterTerminalOutcomeV4Schema.parse({ status: 'completed', result: { kind: 'chat', content: [{ type: 'compaction', data: 'summary' }] } });
    expect(lifecycle.checkTerminal(without)).toBe('the terminal content does not match the streamed blocks');
    const same = adapterTerminalOutcomeV4Schema.parse({ status: 'completed', result: { kind: 'chat', content: [{ type: 'compaction', data: 'summary', providerFields: '{"signature":"c2ln"}' }] } });
    expect(lifecycle.checkTerminal(same)).toBeUndefined();
  });
});
