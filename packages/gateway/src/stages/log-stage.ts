import type { Logger } from 'pino';
import type { RequestRecordV1 } from '../governance/v1/governance-store-v1.js';
import { describeAttemptDiagnostic } from '../operations/describe-attempt-diagnostic.js';
import { logRequest, type OperatorLogLine } from '../operations/operator-log.js';
import type { RequestScope } from '../pipeline/request-scope.js';
import type { RequestEnd } from '../telemetry/gateway-telemetry.js';

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
  // Built by assignment in the line's key order: a spread of each optional fact costs a temporary object.
  const line = { requestId: scope.requestId, route: scope.route } as Mutable<OperatorLogLine>;
  if (facts.client !== undefined) line.client = facts.client;
  if (facts.keyId !== undefined) line.keyId = facts.keyId;
  if (facts.model !== undefined) line.model = facts.model;
  if (facts.target !== undefined) line.target = { provider: facts.target.provider, family: facts.target.family, ref: facts.target.ref };
  line.attempts = facts.attempts;
  line.status = status;
  line.outcome = outcome;
  if (facts.usage !== undefined) line.usage = facts.usage;
  if (facts.cost !== undefined) line.cost = facts.cost;
  if (facts.rateLimits !== undefined) line.rateLimits = facts.rateLimits;
  if (facts.firstByteAt !== undefined) line.timeToFirstByteMs = Math.round(facts.firstByteAt - scope.started);
  line.totalMs = Math.round(performance.now() - scope.started);
  if (facts.providerRequestId !== undefined) line.providerRequestId = facts.providerRequestId;
  if (facts.droppedHostedTools !== undefined) line.droppedHostedTools = facts.droppedHostedTools;
  if (facts.droppedContent !== undefined) line.droppedContent = facts.droppedContent;
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
  const ending: Mutable<RequestEnd> = { status, outcome, attempts: facts.attempts.length, streamed: facts.streamed === true };
  if (facts.model !== undefined) ending.model = facts.model;
  if (facts.taskKind !== undefined) ending.taskKind = facts.taskKind;
  if (facts.target !== undefined) ending.target = facts.target;
  if (facts.usage !== undefined) ending.usage = facts.usage;
  if (facts.finishReason !== undefined) ending.finishReason = facts.finishReason;
  if (line.timeToFirstByteMs !== undefined && facts.firstByteAt !== undefined) ending.timeToFirstChunkMs = facts.firstByteAt - scope.started;
  scope.telemetry.end(ending);
}

type Mutable<T> = { -readonly [K in keyof T]: T[K] };
