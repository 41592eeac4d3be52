import type { ProtocolEngineV1 } from '@tokenforge/protocol-engine';
import type { TokenForgeProtocolSuiteV1 } from '@tokenforge/provider-adapters';
import type { Logger } from 'pino';
import type { GatewayConsoleV1, GatewayLimitsV1 } from '../catalogue/gateway-catalogue-v1.js';
import type { GatewayGovernance } from '../governance/wiring/gateway-governance.js';
import type { JobWorkers } from '../jobs/poller/start-job-workers.js';
import type { ConcurrencyLimiter } from '../operations/concurrency-limiter.js';
import type { GatewayTelemetry } from '../telemetry/gateway-telemetry.js';
import type { TargetRouter } from '../routing/target-router.js';
import type { ResolvedCatalogue } from './resolve-catalogue.js';

/** Limits with their defaults filled in. */
export type GatewayLimits = { readonly [Name in keyof GatewayLimitsV1]-?: number };

/** The defaults of {@link GatewayLimits}. */
export const DEFAULT_GATEWAY_LIMITS: GatewayLimits = {
  maxBodyBytes: 16 * 1024 * 1024,
  headersTimeoutMs: 10_000,
  requestTimeoutMs: 600_000,
  bodyIdleTimeoutMs: 60_000,
  bodyTimeoutMs: 300_000,
  maxConcurrentRequests: 64,
  maxAttempts: 3,
  retryBudgetMs: 5_000,
  drainTimeoutMs: 10_000,
};

/** Everything a request handler needs; one per gateway process. */
export interface GatewayRuntime {
  readonly engine: ProtocolEngineV1;
  readonly suite: TokenForgeProtocolSuiteV1;
  /** The catalogue in force; a reload replaces it (a request reads it once per stage, in-flight attempts keep their targets). */
  catalogue: ResolvedCatalogue;
  /** Per-process routing state: tiers, balancing, cooldown. Absent: catalogue order. */
  readonly router?: TargetRouter;
  /** The limits in force; a reload replaces them for requests that start afterwards. */
  limits: GatewayLimits;
  readonly limiter: ConcurrencyLimiter;
  readonly logger: Logger;
  /**
   * The key of the opaque reasoning state seal, from a persisted secret (the embedded store's data directory, or the
   * shared store's `TOKENFORGE_KEY_HASHING_SECRET`); absent without governance (see `opaqueStateSealFor`).
   */
  readonly opaqueStateKey?: Uint8Array;
  /** Job handle lifetime in seconds (a reload may change it for handles issued afterwards). */
  jobHandleTtlSeconds: number;
  /** Clock in epoch milliseconds. */
  readonly now: () => number;
  /** Spans and metrics (OpenTelemetry GenAI conventions). Default: one over the global providers. */
  readonly telemetry?: GatewayTelemetry;
  /** Tenants, limits and spend; absent: governance off (the catalogue's static client keys only). */
  readonly governance?: GatewayGovernance;
  /** The catalogue's console settings, as read at start. */
  readonly console?: GatewayConsoleV1;
  /** Set once SIGTERM (or `close`) started: `/readyz` answers 503 and new model requests are refused. */
  draining: boolean;
  /**
   * Aborted (with `GATEWAY_SHUTDOWN_REASON`) when the drain deadline passes: open streams end with the dialect's
   * in-stream error, requests still waiting for a target with the dialect's overloaded error.
   */
  readonly shutdown?: AbortSignal;
  /** With governance: this process's tracked-job poller (and webhooks), and the plan a new job's first poll follows. */
  readonly jobWorkers?: JobWorkers;
}

/** The catalogue's limits over {@link DEFAULT_GATEWAY_LIMITS}. */
export function resolveLimits(limits: GatewayLimitsV1 = {}): GatewayLimits {
  const resolved: Record<string, number> = { ...DEFAULT_GATEWAY_LIMITS };
  for (const [name, value] of Object.entries(limits)) if (typeof value === 'number') resolved[name] = value;
  return resolved as GatewayLimits;
}
