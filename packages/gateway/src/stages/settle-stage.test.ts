import type { AdapterTerminalOutcomeV4 } from '@tokenforge/model-protocol';
import { describe, expect, it } from 'vitest';
import type { RequestScope } from '../pipeline/request-scope.js';
import type { RequestTelemetry } from '../telemetry/gateway-telemetry.js';
import { createSettleStage } from './settle-stage.js';

const scope = (): RequestScope => ({ requestId: 'r', route: 'POST /v1/x', started: 0, telemetry: {} as RequestTelemetry, facts: { attempts: [] } });
const completed = (inputTokens: number): AdapterTerminalOutcomeV4 =>
  ({ status: 'completed', usage: { inputTokens, outputTokens: 2 }, finishReason: 'stop', cost: { amount: 0.5, currency: 'USD' } }) as unknown as AdapterTerminalOutcomeV4;

describe('createSettleStage', () => {
  it('folds a completed terminal’s usage, cost and finish reason into the facts', () => {
    const request = scope();
    createSettleStage(request)(completed(7));
    expect(request.facts).toMatchObject({ usage: { inputTokens: 7, outputTokens: 2 }, finishReason: 'stop', cost: { amount: 0.5, currency: 'USD' } });
  });

  it('settles an attempt once: a second call changes nothing', () => {
    const request = scope();
    const settle = createSettleStage(request);
    settle(completed(7));
    settle(completed(99));
    expect(request.facts.usage).toEqual({ inputTokens: 7, outputTokens: 2 });
    createSettleStage(request)(completed(11));
    expect(request.facts.usage).toEqual({ inputTokens: 11, outputTokens: 2 });
  });

  it('takes nothing from a failed, cancelled or missing terminal, and a stream’s usage so far stays', () => {
    const request = scope();
    request.facts.usage = { inputTokens: 3, outputTokens: 1 } as never;
    createSettleStage(request)(undefined);
    createSettleStage(request)({ status: 'failed', failure: { code: 'overloaded', retryable: true }, usage: { inputTokens: 50, outputTokens: 0 } } as unknown as AdapterTerminalOutcomeV4);
    expect(request.facts).toEqual({ attempts: [], usage: { inputTokens: 3, outputTokens: 1 } });
  });
});
