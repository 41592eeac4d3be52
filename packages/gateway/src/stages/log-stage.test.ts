import { describe, expect, it } from 'vitest';
import { createOperatorLogger } from '../operations/operator-log.js';
import type { RequestScope } from '../pipeline/request-scope.js';
import type { RuntimeTarget } from '../runtime/resolve-catalogue.js';
import type { RequestEnd, RequestTelemetry } from '../telemetry/gateway-telemetry.js';
import { createLogCapture } from '../test-support/log-capture.js';
import { logStage } from './log-stage.js';

const scopeWith = (ends: RequestEnd[]): RequestScope => ({
  requestId: 'req-1',
  route: 'POST /v1/chat/completions',
  started: performance.now() - 50,
  telemetry: { startAttempt: () => () => {}, end: (facts) => void ends.push(facts) } as RequestTelemetry,
  facts: { attempts: [] },
});
const flush = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

describe('logStage', () => {
  it('writes one operator line and ends the telemetry once, however often the request is ended', async () => {
    const capture = createLogCapture();
    const ends: RequestEnd[] = [];
    const scope = scopeWith(ends);
    logStage(createOperatorLogger(capture), scope, 429, 'refused:concurrency');
    logStage(createOperatorLogger(capture), scope, 200, 'completed');
    await flush();
    expect(capture.requests()).toEqual([expect.objectContaining({ requestId: 'req-1', route: 'POST /v1/chat/completions', status: 429, outcome: 'refused:concurrency', attempts: [] })]);
    expect(ends).toEqual([{ status: 429, outcome: 'refused:concurrency', attempts: 0, streamed: false }]);
  });

  it('writes the facts the stages learned: client, model, target, usage, first byte and dropped tools', async () => {
    const capture = createLogCapture();
    const ends: RequestEnd[] = [];
    const scope = scopeWith(ends);
    const target = { ref: 'm#0', provider: 'p', family: 'openai-chat/v1' } as unknown as RuntimeTarget;
    Object.assign(scope.facts, {
      client: 'team-a',
      model: 'm',
      taskKind: 'chat',
      target,
      usage: { inputTokens: 3, outputTokens: 4 },
      firstByteAt: scope.started + 10,
      providerRequestId: 'prov-1',
      droppedHostedTools: ['web_search'],
      streamed: true,
    });
    scope.facts.attempts.push({ target: 'm#0', provider: 'p', family: 'openai-chat/v1', outcome: 'ok' });
    logStage(createOperatorLogger(capture), scope, 200, 'completed');
    await flush();
    const [line] = capture.requests();
    expect(line).toMatchObject({
      client: 'team-a',
      model: 'm',
      target: { provider: 'p', family: 'openai-chat/v1', ref: 'm#0' },
      usage: { inputTokens: 3, outputTokens: 4 },
      timeToFirstByteMs: 10,
      providerRequestId: 'prov-1',
      droppedHostedTools: ['web_search'],
      attempts: [{ target: 'm#0', outcome: 'ok' }],
    });
    expect(line?.totalMs).toBeGreaterThanOrEqual(50);
    // The line's keys keep their order (operators read the JSON as written).
    expect(Object.keys(line ?? {})).toEqual(['level', 'time', 'component', 'requestId', 'route', 'client', 'model', 'target', 'attempts', 'status', 'outcome', 'usage', 'timeToFirstByteMs', 'totalMs', 'providerRequestId', 'droppedHostedTools', 'message']);
    expect(ends[0]).toMatchObject({ model: 'm', taskKind: 'chat', target, attempts: 1, streamed: true, timeToFirstChunkMs: 10 });
  });
});
