import { randomUUID } from 'node:crypto';
import type { FinishReasonV1, ProviderRateLimitsV3, ProviderReportedCostV3, TaskKindV3, UsageV3 } from '@tokenforge/model-protocol';
import type { OperatorLogAttempt } from '../operations/operator-log.js';
import type { RuntimeTarget } from '../runtime/resolve-catalogue.js';
import type { RequestTelemetry } from '../telemetry/gateway-telemetry.js';

/** What the stages learn about one request, read by the log stage and by refusals. */
export interface RequestFacts {
  /** The id of the client key that matched, or with governance the tenant id (set by the authenticate stage). */
  client?: string;
  /** With governance: the id of the key that matched. */
  keyId?: string;
  /** The model the client asked for (the ingress's `modelLabel`). */
  model?: string;
  /** The decoded task's kind. */
  taskKind?: TaskKindV3;
  /** Hosted tools the ingress or the current target dropped, by the client's names. */
  droppedHostedTools?: readonly string[] | undefined;
  /** Kinds of conversation content left out for the target (another family's opaque state), when any was. */
  droppedContent?: readonly string[] | undefined;
  /** The target of the latest attempt. */
  target?: RuntimeTarget;
  /** Every attempt, in order. */
  readonly attempts: OperatorLogAttempt[];
  /** `performance.now()` when the first byte of the answer was ready. */
  firstByteAt?: number;
  /** The provider's id of the latest response. */
  providerRequestId?: string;
  /** The rate-limit facts of the latest attempt's response head (none when it had none, or got no head). */
  rateLimits?: ProviderRateLimitsV3 | undefined;
  /** The usage of the answer (a stream's latest usage event until its terminal). */
  usage?: UsageV3;
  /** The cost the provider reported for the answer. */
  cost?: ProviderReportedCostV3;
  /** Why the answer ended. */
  finishReason?: FinishReasonV1;
  /** Whether the answer went out as a stream. */
  streamed?: boolean;
  /** How the JSON-schema request of the latest attempt was carried (its header also goes with a refusal). */
  structuredOutput?: string | undefined;
}

/** One request as the stages share it: who it is, when it started, and what is known about it so far. */
export interface RequestScope {
  /** The gateway's id of the request (`x-request-id`). */
  readonly requestId: string;
  /** `METHOD /path` with path parameters folded (`/v1beta/models/{model}`). */
  readonly route: string;
  /** `performance.now()` when the request arrived. */
  readonly started: number;
  /** The request's telemetry, ended by the log stage. */
  readonly telemetry: RequestTelemetry;
  /** What the stages learn. */
  readonly facts: RequestFacts;
}

/** The route label of a request path: Gemini's model segment is folded so labels stay few. */
export function routeLabel(path: string): string {
  return path.startsWith('/v1beta/models/') ? path.replace(/^\/v1beta\/models\/[^/:]+/, '/v1beta/models/{model}') : path;
}

/**
 * A new scope for `request`, with a fresh request id. `route` overrides the label read from the request (a
 * `response.create` message of a WebSocket connection is labelled `WS /v1/responses`, not `POST`).
 */
export function createRequestScope(request: Request, startTelemetry: (route: string) => RequestTelemetry, route = `${request.method} ${routeLabel(new URL(request.url).pathname)}`): RequestScope {
  return { requestId: randomUUID(), route, started: performance.now(), telemetry: startTelemetry(route), facts: { attempts: [] } };
}
