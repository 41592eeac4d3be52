import type { ChatTaskV3, EgressCodecV1, EgressContextV1, ProtocolCapabilityV3, ProtocolFamily } from '@tokenforge/model-protocol';
import { PROTOCOL_ENGINE_ERROR_CODES_V1, ProtocolEngineErrorV1, type ProtocolEngineV1 } from '@tokenforge/protocol-engine';
import { describe, expect, it } from 'vitest';
import { DROPPED_TOOLS_HEADER } from '../dialects/dropped-hosted-tools.js';
import type { RequestScope } from '../pipeline/request-scope.js';
import type { RuntimeTarget } from '../runtime/resolve-catalogue.js';
import type { RequestTelemetry } from '../telemetry/gateway-telemetry.js';
import { attemptStage, type AttemptInput } from './attempt-stage.js';

const capability: ProtocolCapabilityV3 = { protocolFamily: 'openai-chat/v1', executionMode: 'stream-capable', taskKinds: ['chat'], tools: true };
const target = (ref: string): RuntimeTarget =>
  ({ ref, provider: 'sim', family: 'openai-chat/v1', capability, binding: { ref } as never, execution: 'sync', echoesIdempotencyKey: false, passRateLimitHeaders: false }) as RuntimeTarget;
const task: ChatTaskV3 = { kind: 'chat', stream: false, messages: [{ role: 'user', content: [{ type: 'text', text: 'Hi' }] }], hostedTools: [{ kind: 'web-search' }] };
const context: EgressContextV1 = { responseId: 'gw-1', modelLabel: 'm', createdAtMs: 0 };
const egress = {
  protocolFamily: 'openai-chat/v1',
  encodeResponse: () => ({ status: 200, headers: { 'content-type': 'application/json' }, body: new TextEncoder().encode('{}') }),
  encodeError: () => ({ status: 500, headers: {}, body: new Uint8Array() }),
} as unknown as EgressCodecV1;
const completed = { apiVersion: 'x', kind: 'response', acceptance: { state: 'accepted' }, responseMetadata: {}, terminal: { status: 'completed', usage: { inputTokens: 1, outputTokens: 2 } } };

type Outcome = 'transport' | 'overloaded' | 'completed';
function engineScripted(outcomes: Outcome[]): { engine: Pick<ProtocolEngineV1, 'execute'>; calls: string[] } {
  const calls: string[] = [];
  const engine = {
    execute: async (input: { binding: { ref: string } }) => {
      calls.push(input.binding.ref);
      const next = outcomes.shift();
      if (next === 'transport') throw new ProtocolEngineErrorV1(PROTOCOL_ENGINE_ERROR_CODES_V1.TRANSPORT_FAILED, 'failed');
      if (next === 'overloaded') {
        return { ...completed, acceptance: { state: 'not-accepted' }, terminal: { status: 'failed', failure: { code: 'overloaded', retryable: true, retryAfterMs: 1 } } };
      }
      return completed;
    },
  } as unknown as Pick<ProtocolEngineV1, 'execute'>;
  return { engine, calls };
}
const scope = (): RequestScope => ({
  requestId: 'req-1',
  route: 'POST /v1/chat/completions',
  started: 0,
  telemetry: { startAttempt: () => () => {}, end: () => {} } as unknown as RequestTelemetry,
  facts: { attempts: [] },
});
const input = (engine: Pick<ProtocolEngineV1, 'execute'>, overrides: Partial<AttemptInput> = {}): AttemptInput => ({
  engine,
  suite: { entries: [] },
  clientFamily: 'openai-chat/v1' as ProtocolFamily,
  now: () => 0,
  egress,
  context,
  task,
  preparedMedia: undefined,
  targets: [target('m#0'), target('m#1')],
  ingressDropped: undefined,
  hostedNames: ['web_search'],
  signal: new AbortController().signal,
  budget: { attemptsLeft: 3, waitBudgetMs: 1000 },
  release: () => {},
  end: () => {},
  ...overrides,
});

describe('attemptStage', () => {
  it('falls back past a transport failure, answers from the next target with the dropped-tools header, and settles its usage', async () => {
    const { engine, calls } = engineScripted(['transport', 'completed']);
    const request = scope();
    const outcome = await attemptStage(input(engine), request);
    expect(calls).toEqual(['m#0', 'm#1']);
    if (outcome.kind !== 'continue') throw new Error('refused');
    expect(outcome.value.outcome).toBe('completed');
    expect(outcome.value.response.headers.get(DROPPED_TOOLS_HEADER)).toBe('web_search');
    expect(outcome.value.response.headers.get('x-request-id')).toBe('req-1');
    expect(request.facts.attempts.map((attempt) => [attempt.target, attempt.outcome])).toEqual([
      ['m#0', PROTOCOL_ENGINE_ERROR_CODES_V1.TRANSPORT_FAILED],
      ['m#1', 'ok'],
    ]);
    expect(request.facts).toMatchObject({ target: { ref: 'm#1' }, usage: { inputTokens: 1, outputTokens: 2 } });
  });

  it('retries a provider wait on the same target once, then gives up with the failure when the budget is spent', async () => {
    const { engine, calls } = engineScripted(['overloaded', 'overloaded', 'overloaded']);
    const outcome = await attemptStage(input(engine, { budget: { attemptsLeft: 3, waitBudgetMs: 1000 }, targets: [target('m#0'), target('m#1')] }), scope());
    expect(calls).toEqual(['m#0', 'm#0', 'm#1']);
    expect(outcome).toEqual({
      kind: 'refuse',
      refusal: { kind: 'egress', failure: { source: 'provider', failure: { code: 'overloaded', retryable: true, retryAfterMs: 1 } }, outcome: 'failed:overloaded', headers: {} },
    });
  });

  it('refuses as cancelled, without an attempt, once the request’s signal has aborted', async () => {
    const { engine, calls } = engineScripted(['completed']);
    const controller = new AbortController();
    controller.abort();
    expect(await attemptStage(input(engine, { signal: controller.signal }), scope())).toEqual({
      kind: 'refuse',
      refusal: { kind: 'egress', failure: { source: 'provider', failure: { code: 'timeout', retryable: true } }, outcome: 'cancelled', headers: {} },
    });
    expect(calls).toEqual([]);
  });
});
