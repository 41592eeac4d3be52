import type { IncomingMessage, ServerResponse } from 'node:http';
import type { EgressContextV1 } from '@tokenforge/model-protocol';
import type { DirectDialect } from '../dialects/direct-dialect.js';
import { droppedHostedTools, hostedToolNames } from '../dialects/dropped-hosted-tools.js';
import { opaqueStateSealFor } from '../dialects/opaque-state-seal-for.js';
import { reservationFactsOf } from '../governance/wiring/reservation-facts.js';
import { RequestMetering } from '../governance/wiring/request-metering.js';
import { isGatewayShutdown, requestDeadline, type RequestDeadline } from '../http/request-deadline.js';
import type { GatewayRuntime } from '../runtime/gateway-runtime.js';
import { admitStage } from '../stages/admit-stage.js';
import { attemptStage } from '../stages/attempt-stage.js';
import { authenticateStage } from '../stages/authenticate-stage.js';
import { decodeStage } from '../stages/decode-stage.js';
import { logStage } from '../stages/log-stage.js';
import { routeStage } from '../stages/route-stage.js';
import { catalogueModelLabel } from '../telemetry/catalogue-model-label.js';
import { requestTelemetryFor } from '../telemetry/request-telemetry-for.js';
import { egressRefusal, type GatewayRefusal } from './gateway-refusal.js';
import { renderRefusal } from './render-refusal.js';
import { createRequestScope, routeLabel } from './request-scope.js';

/** How a request reached the gateway, when not as a plain HTTP request of its own. */
export interface ServeModelRequestOptions {
  /** The route label of the operator log and telemetry, in place of `METHOD /path` (`WS /v1/responses`). */
  readonly route?: string;
  /** The `node:http` request under `request` (on `@hono/node-server`): the decode stage reads the body from it. */
  readonly incoming?: IncomingMessage;
  /** The `node:http` response of `request`: followed for the client going away in place of `request.signal`. */
  readonly outgoing?: ServerResponse;
}

const SHUTDOWN_REFUSAL = egressRefusal({ source: 'engine', code: 'GATEWAY_SHUTTING_DOWN' }, 'cancelled:shutdown', { connection: 'close' });

/**
 * Serves one model request of a direct-HTTP dialect, stage by stage: authenticate, decode (the body read under its
 * own deadlines, before any slot is taken), admit, route, attempt (each attempt settled; a stream committed), log. The only place that orders the stages and releases what
 * admission took: at the end of the request, or when a stream it handed on ends. Every refusal goes out in the
 * dialect's egress; one operator log line ends every request.
 */
export async function serveModelRequest(request: Request, runtime: GatewayRuntime, dialect: DirectDialect, options: ServeModelRequestOptions = {}): Promise<Response> {
  const codecs = runtime.suite.codecsFor(dialect.family);
  if (codecs === undefined) throw new Error(`${dialect.family} has no codecs`);
  let egress = dialect.wrapEgress === undefined ? codecs.egress : dialect.wrapEgress(codecs.egress);
  const url = new URL(request.url);
  const scope = createRequestScope(request, (route) => requestTelemetryFor(runtime, route), options.route ?? `${request.method} ${routeLabel(url.pathname)}`);
  const facts = scope.facts;
  let context: EgressContextV1 = { responseId: `gw-${scope.requestId}`, modelLabel: 'unknown', createdAtMs: runtime.now() };
  const recordRequest = runtime.governance === undefined ? undefined : runtime.governance.store.recordRequest.bind(runtime.governance.store);
  const end = (status: number, outcome: string): void => logStage(runtime.logger, scope, status, outcome, recordRequest);
  const answerRefusal = (refusal: GatewayRefusal): Response => {
    const response = renderRefusal(refusal, { egress, context, errorShape: dialect.errorShape, requestId: scope.requestId, structuredOutput: facts.structuredOutput });
    if (refusal.kind === 'egress') facts.firstByteAt ??= performance.now();
    end(response.status, refusal.outcome);
    return response;
  };

  const authenticated = await authenticateStage({ request, placement: dialect.keyPlacement, clientKeys: runtime.catalogue.clientKeys, governance: runtime.governance });
  if (authenticated.kind === 'refuse') return answerRefusal(authenticated.refusal);
  facts.client = authenticated.value.clientId;
  const principal = authenticated.value.principal;
  if (principal !== undefined) facts.keyId = principal.key.id;
  const read = await decodeStage({
    request,
    dialect,
    ingress: codecs.ingress,
    maxBodyBytes: runtime.limits.maxBodyBytes,
    url,
    incoming: options.incoming,
    bodyDeadlines: { idleMs: runtime.limits.bodyIdleTimeoutMs, totalMs: runtime.limits.bodyTimeoutMs, signal: runtime.shutdown },
  });
  if (read.kind === 'refuse') return answerRefusal(read.refusal);
  const { decoded, preparedMedia, bodyBytes } = read.value;
  context = { ...context, modelLabel: decoded.modelLabel };
  egress = dialect.egressFor?.(decoded) ?? egress;
  const ingressDropped = droppedHostedTools(decoded);
  facts.droppedHostedTools = ingressDropped;
  facts.model = catalogueModelLabel(runtime.catalogue.models, decoded.modelLabel);
  facts.taskKind = decoded.task.kind;
  const admitted = await admitStage({ draining: runtime.draining, limiter: runtime.limiter });
  if (admitted.kind === 'refuse') return answerRefusal(admitted.refusal);
  const admission = admitted.value;
  let handedToStream = false;
  let deadline: RequestDeadline | undefined;
  const release = (): void => {
    admission.release();
    deadline?.dispose();
  };
  try {
    const governance = runtime.governance;
    const mayUse = governance === undefined || principal === undefined ? undefined : (model: string) => governance.mayUseModel(principal, model);
    const catalogue = runtime.catalogue;
    const routed = await routeStage({ catalogue, task: decoded.task, modelName: decoded.modelLabel, mayUse, ...(runtime.router === undefined ? {} : { router: runtime.router }) });
    if (routed.kind === 'refuse') return answerRefusal(routed.refusal);
    // A token count is free at every provider: it is authenticated and held to model access, not metered.
    const metering =
      runtime.governance === undefined || principal === undefined || decoded.task.kind === 'token-count'
        ? undefined
        : new RequestMetering(runtime.governance, principal, scope.requestId, decoded.modelLabel, routed.value, reservationFactsOf(decoded.task, bodyBytes), runtime.now() + runtime.limits.requestTimeoutMs, runtime.now);

    const fallbackOn = catalogue.models.get(decoded.modelLabel)?.routing?.fallbackOn;
    deadline = requestDeadline(options.outgoing ?? request.signal, runtime.limits.requestTimeoutMs, runtime.shutdown);
    const answered = await attemptStage(
      {
        engine: runtime.engine,
        suite: runtime.suite,
        clientFamily: dialect.family,
        now: () => runtime.now(),
        egress,
        context,
        opaqueStateSeal: opaqueStateSealFor(runtime.catalogue, runtime.opaqueStateKey),
        task: decoded.task,
        preparedMedia,
        targets: routed.value,
        ingressDropped,
        hostedNames: hostedToolNames(decoded),
        signal: deadline.signal,
        budget: { attemptsLeft: runtime.limits.maxAttempts, waitBudgetMs: runtime.limits.retryBudgetMs },
        release,
        end,
        metering,
        ...(runtime.router === undefined ? {} : { router: runtime.router }),
        ...(fallbackOn === undefined ? {} : { fallbackOn }),
      },
      scope,
    );
    // A request the drain deadline cut before it streamed gets the dialect's overloaded error, whatever it became.
    const cutAtShutdown = isGatewayShutdown(deadline.signal.reason);
    if (answered.kind === 'refuse') return answerRefusal(cutAtShutdown ? SHUTDOWN_REFUSAL : answered.refusal);
    const { response, outcome } = answered.value;
    if (cutAtShutdown && outcome !== 'stream' && outcome !== 'completed') return answerRefusal(SHUTDOWN_REFUSAL);
    if (outcome !== 'stream') end(response.status, outcome);
    else handedToStream = true;
    return response;
  } finally {
    if (!handedToStream) release();
  }
}
