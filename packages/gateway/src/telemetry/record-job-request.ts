import type { OperatorLogAttempt } from '../operations/operator-log.js';
import type { GatewayRuntime } from '../runtime/gateway-runtime.js';
import type { RuntimeTarget } from '../runtime/resolve-catalogue.js';
import { catalogueModelLabel } from './catalogue-model-label.js';
import { telemetryOf } from './request-telemetry-for.js';

/**
 * The span of one jobs-API request, from the facts of its operator log line. Only a create is a GenAI operation
 * (with its attempts and the duration metric); a get, list or cancel is a plain request span.
 */
export function recordJobRequest(runtime: GatewayRuntime, route: string, started: number, status: number, outcome: string, extra: Record<string, unknown>): void {
  const telemetry = telemetryOf(runtime);
  const model = typeof extra.model === 'string' ? catalogueModelLabel(runtime.catalogue.models, extra.model) : undefined;
  const target = extra.target as Pick<RuntimeTarget, 'provider' | 'family' | 'ref'> | undefined;
  const attempts = Array.isArray(extra.attempts) ? (extra.attempts as OperatorLogAttempt[]) : [];
  const taskKind = route === 'POST /v1/jobs' && model !== undefined ? runtime.catalogue.models.get(model)?.taskKind : undefined;
  telemetry.recordFinished(route, started, {
    status,
    outcome,
    failed: status >= 400,
    ...(model === undefined ? {} : { model }),
    ...(taskKind === undefined ? {} : { taskKind }),
    ...(target === undefined ? {} : { target }),
    attempts: attempts.length,
    attemptOutcomes: attempts.map((attempt) => ({ provider: attempt.provider, family: attempt.family, ref: attempt.target, outcome: attempt.outcome })),
    streamed: false,
  });
}
