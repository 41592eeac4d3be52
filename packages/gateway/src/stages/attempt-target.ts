import { isConnectionPoolExhausted } from '@tokenforge/http-transport';
import { isProviderProcessRunsExhaustedV4, isProviderTransportFailureV1, type EgressCodecV1, type EgressContextV1, type PreparedMediaExecutionInputV2, type ProviderDiagnosticV3, type TaskEnvelopeV4 } from '@tokenforge/model-protocol';
import { isProtocolEngineErrorV1, type ProtocolEngineExecutionV1, type ProtocolEngineV1 } from '@tokenforge/protocol-engine';
import { withAttemptId } from '../governance/wiring/attempt-id-header.js';
import type { AttemptMeter } from '../governance/wiring/request-metering.js';
import { egressResponse } from '../pipeline/egress-response.js';
import type { RequestScope } from '../pipeline/request-scope.js';
import type { RuntimeTarget } from '../runtime/resolve-catalogue.js';
import { failureDetail, type Attempted, type LogAttempt } from './attempted.js';
import { commitStream } from './commit-stream.js';
import { createSettleStage } from './settle-stage.js';

/** What one attempt on one target needs. */
export interface AttemptTargetInput {
  readonly engine: Pick<ProtocolEngineV1, 'execute'>;
  readonly egress: EgressCodecV1;
  readonly context: EgressContextV1;
  /** The task as fitted to this target. */
  readonly task: TaskEnvelopeV4;
  readonly preparedMedia: PreparedMediaExecutionInputV2 | undefined;
  readonly target: RuntimeTarget;
  readonly signal: AbortSignal;
  /** Gives back what admission took (a stream calls it when it ends). */
  readonly release: () => void;
  /** Ends the request (a stream calls it when it ends). */
  readonly end: (status: number, outcome: string) => void;
  /** With governance: the attempt's admission, settled when an answer ends (a failure is settled by the caller). */
  readonly meter?: AttemptMeter | undefined;
}

/** One `engine.execute` on one target: its attempt written to the facts, its answer encoded by the egress. */
export async function attemptTarget(input: AttemptTargetInput, scope: RequestScope): Promise<Attempted> {
  const { egress, context, target, task } = input;
  const facts = scope.facts;
  const endAttempt = scope.telemetry.startAttempt(target, facts.model, task.kind);
  const meter = input.meter;
  const settle = createSettleStage(scope, (terminal, streamedUsage, outcome) => {
    const usage = terminal !== undefined && terminal.status !== 'cancelled' ? (terminal.usage ?? streamedUsage) : streamedUsage;
    const upstreamCost = terminal?.status === 'completed' ? terminal.cost : undefined;
    meter?.settle({ reachedProvider: true, served: true, usage, upstreamCost, outcome }, true);
  });
  // Why a failed attempt failed (host-private): filled by the engine's observer, written with the attempt.
  const diagnostics: ProviderDiagnosticV3[] = [];
  // A new attempt's facts replace the last one's: an attempt without a response head has none.
  facts.rateLimits = undefined;
  let transport: { stage: string; reason: string } | undefined;
  const startedAt = performance.now();
  const startedAtMs = Date.now();
  const timings = (): { durationMs: number; timeToFirstByteMs?: number } => {
    const firstByteAt = facts.firstByteAt;
    return { durationMs: Math.round(performance.now() - startedAt), ...(firstByteAt === undefined || firstByteAt < startedAt ? {} : { timeToFirstByteMs: Math.round(firstByteAt - startedAt) }) };
  };
  let logged: number | undefined;
  // A streamed answer's attempt is written when its head is committed; its timings are completed when it ends.
  const finishAttempt = (): void => {
    const attempt = logged === undefined ? undefined : facts.attempts[logged];
    if (attempt !== undefined) facts.attempts[logged as number] = { ...attempt, ...timings() };
  };
  const logAttempt: LogAttempt = (outcome, detail = {}) => {
    logged = facts.attempts.length;
    facts.attempts.push({
      target: target.ref,
      provider: target.provider,
      family: target.family,
      outcome,
      ...(detail.retryAfterMs === undefined ? {} : { retryAfterMs: detail.retryAfterMs }),
      ...(detail.providerCode === undefined ? {} : { providerCode: detail.providerCode }),
      ...(diagnostics.length === 0 ? {} : { diagnostics: [...diagnostics] }),
      ...(transport === undefined ? {} : { transport }),
      ...(facts.rateLimits === undefined ? {} : { rateLimits: facts.rateLimits }),
      startedAtMs,
      ...timings(),
    });
    const { providerCode: _providerCode, ...ending } = detail;
    endAttempt({ outcome, ...ending });
  };
  const observer = { onDiagnostic: (diagnostic: ProviderDiagnosticV3): void => void diagnostics.push(diagnostic) };
  let execution: ProtocolEngineExecutionV1;
  try {
    execution = await withAttemptId(meter?.attemptId, input.signal, () =>
      input.engine.execute({
        binding: target.binding,
        task,
        signal: input.signal,
        observer,
        ...(input.preparedMedia === undefined ? {} : { preparedMedia: input.preparedMedia }),
      }),
    );
  } catch (error) {
    if (!isProtocolEngineErrorV1(error)) throw error;
    if (isProviderTransportFailureV1(error.cause)) transport = { stage: error.cause.stage, reason: error.cause.reason };
    logAttempt(error.code, { retryable: error.phase === 'input' || error.phase === 'transport', acceptance: error.phase === 'transport' ? 'unknown' : 'not-accepted' });
    // An input-phase refusal (the target cannot do what the task asks) sent nothing: the next target may.
    const notSent = { reachedProvider: false, served: false, outcome: `failed:${error.code}` };
    if (error.phase === 'input') return { kind: 'failure', failure: { code: 'unsupported', retryable: true }, acceptance: 'not-accepted', ending: notSent };
    // A transport failure (connection refused or reset, no response head) returned nothing to the client.
    // No free connection to the target within its connectMs: nothing was sent; 503-class, the next target may serve.
    if (error.phase === 'transport' && (isConnectionPoolExhausted(error) || isProviderProcessRunsExhaustedV4(error))) return { kind: 'failure', failure: { code: 'overloaded', retryable: true }, acceptance: 'not-accepted', ending: notSent };
    if (error.phase === 'transport') return { kind: 'failure', failure: { code: 'network', retryable: true }, acceptance: 'unknown', ending: notSent };
    // The provider answered something the engine refused: what it served is unknown, so the reservation is charged.
    meter?.settle({ reachedProvider: true, served: true, outcome: `engine:${error.code}` }, true);
    const answer = egress.encodeError({ source: 'engine', code: error.code }, context);
    return { kind: 'answer', response: egressResponse(answer, { 'x-request-id': scope.requestId }), outcome: `engine:${error.code}` };
  }
  if (execution.responseMetadata.providerRequestId !== undefined) facts.providerRequestId = execution.responseMetadata.providerRequestId;
  facts.rateLimits = execution.responseMetadata.rateLimits;
  switch (execution.kind) {
    case 'response': {
      const terminal = execution.terminal;
      if (terminal.status === 'failed') {
        logAttempt(terminal.failure.code, failureDetail(terminal.failure, execution.acceptance.state));
        return {
          kind: 'failure',
          failure: terminal.failure,
          acceptance: execution.acceptance.state,
          ending: { reachedProvider: true, served: false, usage: terminal.usage, outcome: `failed:${terminal.failure.code}` },
        };
      }
      facts.firstByteAt = performance.now();
      logAttempt(terminal.status === 'completed' ? 'ok' : terminal.status);
      settle(terminal, undefined, terminal.status);
      return { kind: 'answer', response: egressResponse(egress.encodeResponse(terminal, context), { 'x-request-id': scope.requestId }), outcome: terminal.status };
    }
    case 'stream':
      return commitStream({ execution, egress, context, logAttempt, finishAttempt, settle, signal: input.signal, release: input.release, end: input.end }, scope);
    case 'accepted-job':
    case 'rejected':
      logAttempt('unexpected-async');
      return { kind: 'failure', failure: { code: 'unsupported', retryable: true }, acceptance: 'not-accepted', ending: { reachedProvider: true, served: false, outcome: 'failed:unexpected-async' } };
    default: {
      const never: never = execution;
      return never;
    }
  }
}
