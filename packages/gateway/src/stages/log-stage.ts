import type { Logger } from 'pino';
import type { RequestRecordV1 } from '../governance/v1/governance-store-v1.js';
import { describeAttemptDiagnostic } from '../operations/describe-attempt-diagnostic.js';
import { logRequest, type OperatorLogLine } from '../operations/operator-log.js';
import type { RequestScope } from '../pipeline/request-scope.js';

const ended = new WeakSet<RequestScope>();

/**
 * The end of a request: one operator log line and the end of its telemetry, from the scope's facts, and with
 * governance its request record (the same facts, queued by the store off the response path). Only the first call
 * for a scope does anything, so a request is logged exactly once.
 */
export function logStage(logger: Logger, scope: RequestScope, status: number, outcome: string, recordRequest?: (record: RequestRecordV1) => void): void {
  if (ended.has(scope)) return;
  ended.add(scope);
  const facts = scope.facts;
  const line: OperatorLogLine = {
    requestId: scope.requestId,
    route: scope.route,
    ...(facts.client === undefined ? {} : { client: facts.client }),
    ...(facts.keyId === undefined ? {} : { keyId: facts.keyId }),
    ...(facts.model === undefined ? {} : { model: facts.model }),
    ...(facts.target === undefined ? {} : { target: { provider: facts.target.provider, family: facts.target.family, ref: facts.target.ref } }),
    attempts: facts.attempts,
    status,
    outcome,
    ...(facts.usage === undefined ? {} : { usage: facts.usage }),
    ...(facts.cost === undefined ? {} : { cost: facts.cost }),
    ...(facts.rateLimits === undefined ? {} : { rateLimits: facts.rateLimits }),
    ...(facts.firstByteAt === undefined ? {} : { timeToFirstByteMs: Math.round(facts.firstByteAt - scope.started) }),
    totalMs: Math.round(performance.now() - scope.started),
    ...(facts.providerRequestId === undefined ? {} : { providerRequestId: facts.providerRequestId }),
    ...(facts.droppedHostedTools === undefined ? {} : { droppedHostedTools: facts.droppedHostedTools }),
    ...(facts.droppedContent === undefined ? {} : { droppedContent: facts.droppedContent }),
  };
  logRequest(logger, line);
  recordRequest?.({
    requestId: line.requestId,
    ...(facts.keyId === undefined || facts.client === undefined ? {} : { tenantId: facts.client, keyId: facts.keyId }),
    route: line.route,
    ...(line.model === undefined ? {} : { publicModel: line.model }),
    status,
    outcome,
    attempts: facts.attempts.map((attempt, index) => {
      const diagnostic = describeAttemptDiagnostic(attempt);
      return {
        attempt: index + 1,
        targetRef: attempt.target,
        provider: attempt.provider,
        family: attempt.family,
        outcome: attempt.outcome,
        ...(diagnostic === undefined ? {} : { diagnostic }),
        ...(attempt.startedAtMs === undefined ? {} : { startedAtMs: attempt.startedAtMs }),
        ...(attempt.timeToFirstByteMs === undefined ? {} : { timeToFirstByteMs: attempt.timeToFirstByteMs }),
        ...(attempt.durationMs === undefined ? {} : { durationMs: attempt.durationMs }),
      };
    }),
    totalMs: line.totalMs,
    ...(line.timeToFirstByteMs === undefined ? {} : { timeToFirstByteMs: line.timeToFirstByteMs }),
    atMs: Date.now(),
  });
  scope.telemetry.end({
    status,
    outcome,
    ...(facts.model === undefined ? {} : { model: facts.model }),
    ...(facts.taskKind === undefined ? {} : { taskKind: facts.taskKind }),
    ...(facts.target === undefined ? {} : { target: facts.target }),
    attempts: facts.attempts.length,
    streamed: facts.streamed === true,
    ...(facts.usage === undefined ? {} : { usage: facts.usage }),
    ...(facts.finishReason === undefined ? {} : { finishReason: facts.finishReason }),
    ...(line.timeToFirstByteMs === undefined || facts.firstByteAt === undefined ? {} : { timeToFirstChunkMs: facts.firstByteAt - scope.started }),
  });
}
