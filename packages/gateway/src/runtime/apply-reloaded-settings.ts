import type { Server } from 'node:http';
import { isDeepStrictEqual } from 'node:util';
import type { GatewayCatalogueV1, GatewayMetricsV1 } from '../catalogue/gateway-catalogue-v1.js';
import type { MetricsEndpoint } from '../operations/metrics-endpoint.js';
import { resolveLimits, type GatewayRuntime } from './gateway-runtime.js';

/** What a reload did with the catalogue's settings beside its models. */
export interface ReloadedSettings {
  /** Sections applied to new requests (or, for `metrics`, the endpoint moved): `limits`, `jobs`, `metrics`. */
  readonly applied: readonly string[];
  /** Changed settings this process keeps at their old value, each with why (a restart applies them). */
  readonly kept: readonly string[];
}

/** What {@link applyReloadedSettings} changes in a running gateway. */
export interface ReloadedSettingsTarget {
  readonly runtime: Pick<GatewayRuntime, 'limits' | 'limiter' | 'jobHandleTtlSeconds'>;
  readonly server: Pick<Server, 'headersTimeout' | 'requestTimeout'>;
  readonly metrics: MetricsEndpoint;
  /** The metrics endpoint the gateway was started with by option (the CLI's `--metrics-port`): it wins over the file. */
  readonly metricsOverride: GatewayMetricsV1 | undefined;
  /** The catalogue in force before this reload (its settings are compared with the new one's). */
  readonly previous: GatewayCatalogueV1;
}

/**
 * Applies a reloaded catalogue's `limits`, `jobs` and `metrics` (the catalogue itself is already valid and swapped):
 * limits and the job handle lifetime hold for requests that start from now on (a request in flight keeps the
 * deadlines and body caps it started with; a smaller `maxConcurrentRequests` refuses new requests until the ones
 * in flight are below it); a moved metrics endpoint is bound before the old one closes, and a bind that fails keeps
 * the old endpoint (logged by the caller). `governance` and `console` are read at start only: a change is reported
 * as kept.
 */
export async function applyReloadedSettings(target: ReloadedSettingsTarget, next: GatewayCatalogueV1): Promise<ReloadedSettings> {
  const applied: string[] = [];
  const kept: string[] = [];
  const { runtime, server, previous } = target;
  if (!isDeepStrictEqual(previous.limits ?? {}, next.limits ?? {})) {
    const limits = resolveLimits(next.limits);
    runtime.limits = limits;
    runtime.limiter.resize(limits.maxConcurrentRequests);
    server.headersTimeout = limits.headersTimeoutMs;
    server.requestTimeout = Math.max(limits.requestTimeoutMs, limits.headersTimeoutMs);
    applied.push('limits');
  }
  // `jobs.signingKeyEnv` is part of the resolved catalogue (already swapped); the handle lifetime lives beside it.
  if (!isDeepStrictEqual(previous.jobs ?? {}, next.jobs ?? {})) {
    runtime.jobHandleTtlSeconds = next.jobs?.handleTtlSeconds ?? 7 * 86_400;
    applied.push('jobs');
  }
  if (!isDeepStrictEqual(previous.metrics ?? {}, next.metrics ?? {})) {
    if (target.metricsOverride !== undefined) kept.push('metrics: the endpoint was set on the command line (--metrics-port), which wins over the catalogue');
    else {
      try {
        if ((await target.metrics.apply(next.metrics)) !== 'unchanged') applied.push('metrics');
      } catch (error) {
        const code = error instanceof Error && 'code' in error ? String(error.code) : 'failed';
        kept.push(`metrics: the new endpoint could not listen (${code}); the old one keeps serving`);
      }
    }
  }
  for (const section of ['governance', 'console'] as const) {
    if (!isDeepStrictEqual(previous[section] ?? {}, next[section] ?? {})) kept.push(`${section}: read at start only; restart the gateway to apply it`);
  }
  return { applied, kept };
}
