import { describe, expect, it } from 'vitest';
import { createLogCapture } from '../test-support/log-capture.js';
import { createOperatorLogger, logRequest } from './operator-log.js';

describe('logRequest', () => {
  it('writes the line after the caller’s microtasks (its response), with the facts taken at the call', async () => {
    const capture = createLogCapture();
    const logger = createOperatorLogger(capture);
    const order: string[] = [];
    logRequest(logger, { requestId: 'r-1', route: 'POST /v1/chat/completions', attempts: [], status: 200, outcome: 'completed', totalMs: 3 });
    expect(capture.lines).toHaveLength(0);
    void Promise.resolve().then(() => order.push(`response queued, ${capture.lines.length} lines`));
    await new Promise((resolve) => setImmediate(resolve));
    order.push(`after, ${capture.lines.length} lines`);
    expect(order).toEqual(['response queued, 0 lines', 'after, 1 lines']);
    expect(capture.requests()).toEqual([
      expect.objectContaining({ component: 'tokenforge-gateway', message: 'request', requestId: 'r-1', route: 'POST /v1/chat/completions', status: 200, outcome: 'completed', totalMs: 3 }),
    ]);
  });
});
