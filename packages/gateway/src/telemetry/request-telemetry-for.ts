import type { GatewayRuntime } from '../runtime/gateway-runtime.js';
import { GatewayTelemetry, type RequestTelemetry } from './gateway-telemetry.js';

let fallback: GatewayTelemetry | undefined;

/** The runtime's telemetry, or (for a runtime built by hand) one over the global providers. */
export function telemetryOf(runtime: GatewayRuntime): GatewayTelemetry {
  return runtime.telemetry ?? (fallback ??= new GatewayTelemetry());
}

/** Starts the telemetry of one request. */
export function requestTelemetryFor(runtime: GatewayRuntime, route: string): RequestTelemetry {
  return telemetryOf(runtime).startRequest(route);
}
