/** An OpenTelemetry SDK the CLI started; `shutdown` flushes what is buffered. */
export interface EnvironmentTelemetry {
  shutdown(): Promise<void>;
}

/** The variables that ask for an exporter (any of them starts the SDK, unless `OTEL_SDK_DISABLED=true`). */
const EXPORTER_VARIABLES = [
  'OTEL_EXPORTER_OTLP_ENDPOINT',
  'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT',
  'OTEL_EXPORTER_OTLP_METRICS_ENDPOINT',
  'OTEL_TRACES_EXPORTER',
  'OTEL_METRICS_EXPORTER',
];

/** Whether `env` asks for OpenTelemetry export. */
export function wantsEnvironmentTelemetry(env: Readonly<Record<string, string | undefined>>): boolean {
  if (env.OTEL_SDK_DISABLED?.toLowerCase() === 'true') return false;
  return EXPORTER_VARIABLES.some((name) => (env[name] ?? '').length > 0 && env[name] !== 'none');
}

/**
 * Starts the OpenTelemetry Node SDK configured entirely by the standard environment (`OTEL_SERVICE_NAME`,
 * `OTEL_EXPORTER_OTLP_ENDPOINT`, `OTEL_EXPORTER_OTLP_PROTOCOL`, `OTEL_TRACES_EXPORTER`, `OTEL_METRICS_EXPORTER`,
 * `OTEL_TRACES_SAMPLER`, `OTEL_RESOURCE_ATTRIBUTES`, ...), before the gateway starts, so the gateway's spans and
 * metrics go to the globally registered providers. Nothing is loaded when no exporter is asked for. No
 * auto-instrumentation: the spans are the gateway's own (GenAI conventions).
 */
export async function startEnvironmentTelemetry(env: Readonly<Record<string, string | undefined>> = process.env): Promise<EnvironmentTelemetry | undefined> {
  if (!wantsEnvironmentTelemetry(env)) return undefined;
  const { NodeSDK } = await import('@opentelemetry/sdk-node');
  const sdk = new NodeSDK({ instrumentations: [] });
  sdk.start();
  return { shutdown: () => sdk.shutdown().catch(() => undefined) };
}
