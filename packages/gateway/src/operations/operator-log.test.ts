import { describe, expect, it } from 'vitest';
import { createLogCapture } from '../test-support/log-capture.js';
import { createOperatorLogger, logRequest, requestLineLevel } from './operator-log.js';

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

describe('requestLineLevel', () => {
  const attempt = (outcome: string) => ({ target: 'chat#0', provider: 'p', family: 'openai-chat/v1', outcome });
  it('is info for successes, client refusals and clients that left', () => {
    expect(requestLineLevel({ status: 200, outcome: 'completed', attempts: [attempt('ok')] })).toBe('info');
    expect(requestLineLevel({ status: 404, outcome: 'refused:model-not-found', attempts: [] })).toBe('info');
    expect(requestLineLevel({ status: 429, outcome: 'refused:tenant-rate-limit', attempts: [] })).toBe('info');
    expect(requestLineLevel({ status: 200, outcome: 'cancelled', attempts: [attempt('ok')] })).toBe('info');
  });
  it('is warn for a success after a failed attempt and for failed answers below 500', () => {
    expect(requestLineLevel({ status: 200, outcome: 'completed', attempts: [attempt('network'), attempt('ok')] })).toBe('warn');
    expect(requestLineLevel({ status: 400, outcome: 'failed:invalid-request', attempts: [attempt('invalid-request')] })).toBe('warn');
    expect(requestLineLevel({ status: 200, outcome: 'failed-in-stream:truncated-stream', attempts: [attempt('ok')] })).toBe('warn');
  });
  it('is error for failures answered 5xx', () => {
    expect(requestLineLevel({ status: 502, outcome: 'failed:network', attempts: [attempt('PROTOCOL_ENGINE_TRANSPORT_FAILED')] })).toBe('error');
    expect(requestLineLevel({ status: 502, outcome: 'engine:PROTOCOL_ENGINE_OUTPUT_INVALID', attempts: [] })).toBe('error');
  });
  it('writes the line at its level', async () => {
    const capture = createLogCapture();
    const logger = createOperatorLogger(capture);
    logRequest(logger, { requestId: 'r-2', route: 'POST /v1/chat/completions', attempts: [attempt('network')], status: 502, outcome: 'failed:network', totalMs: 3 });
    await new Promise((resolve) => setImmediate(resolve));
    expect(capture.requests()).toEqual([expect.objectContaining({ requestId: 'r-2', level: 50 })]);
  });
});
