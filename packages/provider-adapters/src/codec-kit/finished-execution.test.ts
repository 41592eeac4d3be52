import type { AdapterStreamPartV1, AdapterTerminalOutcome } from '@tokenforge/model-protocol';
import { describe, expect, it } from 'vitest';
import { finishedExecution } from './finished-execution.js';

const terminal = { status: 'failed', failure: { code: 'unsupported', retryable: false } } as AdapterTerminalOutcome;

describe('finishedExecution', () => {
  it('is a response for a sync task', () => {
    expect(finishedExecution(false, { state: 'not-accepted' }, { providerRequestId: 'r' }, terminal)).toEqual({
      kind: 'response',
      acceptance: { state: 'not-accepted' },
      responseMetadata: { providerRequestId: 'r' },
      terminal,
    });
  });

  it('is a stream with the terminal as its only part for a stream task', async () => {
    const execution = finishedExecution(true, { state: 'unknown' }, {}, terminal);
    expect(execution.kind).toBe('stream');
    expect(execution.acceptance).toEqual({ state: 'unknown' });
    if (execution.kind !== 'stream') return;
    const parts: AdapterStreamPartV1[] = [];
    for await (const part of execution.parts) parts.push(part);
    expect(parts).toEqual([{ type: 'terminal', outcome: terminal }]);
  });
});
