import type { GatewayRuntime } from '../runtime/gateway-runtime.js';
import { GatewayTelemetry, type RequestTelemetry } from './gateway-telemetry.js';

let fallback: GatewayTelemetry | undefined;

/** The telemetry of one request: the runtime's, or (for a runtime built by hand) one over the global providers. */
export function requestTelemetryFor(runtime: GatewayRuntime, route: string): RequestTelemetry {
  const telemetry = runtime.telemetry ?? (fallback ??= new GatewayTelemetry());
  return telemetry.startRequest(route);
}
