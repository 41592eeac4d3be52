import type { GatewayRuntime } from '../runtime/gateway-runtime.js';
import { catalogueModelLabel } from './catalogue-model-label.js';
import { GatewayTelemetry, type RequestTelemetry } from './gateway-telemetry.js';

let fallback: GatewayTelemetry | undefined;

/** The runtime's telemetry, or (for a runtime built by hand) one over the global providers. */
export function telemetryOf(runtime: GatewayRuntime): GatewayTelemetry {
  return runtime.telemetry ?? (fallback ??= new GatewayTelemetry());
}

/** Starts the telemetry of one request; a model name outside the catalogue is recorded as `unknown`. */
export function requestTelemetryFor(runtime: GatewayRuntime, route: string): RequestTelemetry {
  const request = telemetryOf(runtime).startRequest(route);
  const label = (model: string | undefined): string | undefined => (model === undefined ? undefined : catalogueModelLabel(runtime.catalogue.models, model));
  return {
    startAttempt: (target, model, taskKind) => request.startAttempt(target, label(model), taskKind),
    end: (facts) => {
      const model = label(facts.model);
      request.end({ ...facts, ...(model === undefined ? {} : { model }) });
    },
  };
}
