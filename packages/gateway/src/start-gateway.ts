import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { getRequestListener } from '@hono/node-server';
import type { TaskKindV2 } from '@tokenforge/model-protocol';
import { createProtocolEngineV1 } from '@tokenforge/protocol-engine';
import { createAgentCliSuiteEntryV1, createBuiltinTokenForgeProtocolSuiteV1, createTokenForgeProtocolSuiteV1, type TokenForgeProtocolSuiteV1 } from '@tokenforge/provider-adapters';
import type { AgentCliRunLog } from './runtime/agent-cli-transport.js';
import { startProviderSimulator, type ProviderSimulator } from '@tokenforge/provider-simulator';
import { createEmbeddedCatalogue } from './catalogue/embedded-catalogue.js';
import type { GatewayCatalogueV1 } from './catalogue/gateway-catalogue-v1.js';
import { parseGatewayCatalogue, readGatewayCatalogueFile } from './catalogue/load-catalogue.js';
import { createGatewayApp } from './create-gateway-app.js';
import { ConcurrencyLimiter } from './operations/concurrency-limiter.js';
import { createOperatorLogger, type OperatorLogSink } from './operations/operator-log.js';
import { resolveLimits, type GatewayRuntime } from './runtime/gateway-runtime.js';
import { resolveCatalogue } from './runtime/resolve-catalogue.js';
import { GatewayTelemetry, type GatewayTelemetryOptions } from './telemetry/gateway-telemetry.js';

/** Options of {@link startGateway}. Omit both `catalogue` and `configPath` for the embedded default. */
export interface StartGatewayOptions {
  /** A catalogue object (validated like a file). */
  readonly catalogue?: GatewayCatalogueV1 | Record<string, unknown>;
  /** A catalogue file, YAML or JSON (`.json`). */
  readonly configPath?: string;
  /** Port; `0` picks a free one. Default `0` (the CLI defaults to 8787). */
  readonly port?: number;
  /** Interface to bind. Default `127.0.0.1`. */
  readonly host?: string;
  /** Where the catalogue's environment variable names are looked up. Default `process.env`. */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** The operator log: a pino logger or a destination for JSON lines. Default: stderr. */
  readonly logger?: OperatorLogSink;
  /**
   * OpenTelemetry providers for the gateway's spans and metrics. Default: the ones registered globally through
   * `@opentelemetry/api` when the gateway starts (no-ops until an SDK is registered).
   */
  readonly telemetry?: GatewayTelemetryOptions;
  /**
   * The protocol families the gateway dispatches to. Default: every builtin family with its default options. Pass
   * a suite built with `createTokenForgeProtocolSuiteV1` to configure a family, for example an `openai-chat/v1`
   * entry with `reportedCostCurrency` so that the operator log carries the cost a compatible server reports.
   */
  readonly suite?: TokenForgeProtocolSuiteV1;
}

/** A public model the gateway serves. */
export interface GatewayModelSummary {
  readonly name: string;
  readonly taskKind: TaskKindV2;
  /** The family of its first target. */
  readonly family: string;
}

/** A running gateway. */
export interface RunningGateway {
  /** `http://<host>:<port>`. */
  readonly url: string;
  /** The generated local client key of the embedded default (absent with a catalogue: keys live in the environment). */
  readonly clientKey?: string;
  /** Public models in catalogue order. */
  readonly models: readonly GatewayModelSummary[];
  /** Whether this is the embedded default (the simulator runs in-process, signing key generated). */
  readonly embedded: boolean;
  /** The in-process simulator of the embedded default. */
  readonly simulator?: ProviderSimulator;
  /** Model requests in flight (streams included). */
  readonly inFlight: number;
  /**
   * Stops accepting connections, lets requests in flight (open streams included) finish for up to the drain
   * deadline, then closes every connection, transport and the embedded simulator. Idempotent.
   */
  close(): Promise<void>;
}

/** Starts the gateway on a real socket. */
export async function startGateway(options: StartGatewayOptions = {}): Promise<RunningGateway> {
  let simulator: ProviderSimulator | undefined;
  let catalogue: GatewayCatalogueV1;
  let env: Readonly<Record<string, string | undefined>> = options.env ?? process.env;
  let clientKey: string | undefined;
  if (options.catalogue !== undefined) catalogue = parseGatewayCatalogue(options.catalogue);
  else if (options.configPath !== undefined) catalogue = await readGatewayCatalogueFile(options.configPath);
  else {
    simulator = await startProviderSimulator();
    const embedded = createEmbeddedCatalogue(simulator);
    catalogue = embedded.catalogue;
    env = embedded.env;
    clientKey = embedded.clientKey;
  }
  const suite = options.suite ?? createTokenForgeProtocolSuiteV1({ entries: [...createBuiltinTokenForgeProtocolSuiteV1().entries, createAgentCliSuiteEntryV1()] });
  let resolved;
  // A CLI run's report (its stderr included) goes to the operator log once the logger exists.
  let agentCliRunLog: AgentCliRunLog = () => undefined;
  try {
    resolved = resolveCatalogue(catalogue, suite, env, (path, report) => agentCliRunLog(path, report));
  } catch (error) {
    await simulator?.close();
    throw error;
  }
  const limits = resolveLimits(catalogue.limits);
  const runtime: GatewayRuntime = {
    engine: createProtocolEngineV1({ registry: suite.registry }),
    suite,
    catalogue: resolved,
    limits,
    limiter: new ConcurrencyLimiter(limits.maxConcurrentRequests),
    logger: createOperatorLogger(options.logger),
    telemetry: new GatewayTelemetry(options.telemetry),
    jobHandleTtlSeconds: catalogue.jobs?.handleTtlSeconds ?? 7 * 86_400,
    now: Date.now,
    draining: false,
  };
  agentCliRunLog = (path, report) => runtime.logger.info({ agentCliRun: path, pid: report.pid, reason: report.reason, exitCode: report.exitCode, durationMs: report.durationMs, stdoutBytes: report.stdoutBytes, stderr: report.stderr, stderrDroppedBytes: report.stderrDroppedBytes }, 'agent CLI run ended');
  for (const warning of resolved.warnings) runtime.logger.warn({ warning: warning.code, path: warning.path }, warning.message);
  const app = createGatewayApp(runtime);
  const server: Server = createServer(getRequestListener(app.fetch));
  server.headersTimeout = limits.headersTimeoutMs;
  server.requestTimeout = Math.max(limits.requestTimeoutMs, limits.headersTimeoutMs);
  server.keepAliveTimeout = 5_000;
  // Responses being written (streams included): the drain waits for these, not only for the engine's work.
  const writing = new Set<ServerResponse>();
  let onAllWritten: (() => void) | undefined;
  server.on('request', (_request: IncomingMessage, response: ServerResponse) => {
    writing.add(response);
    response.once('close', () => {
      writing.delete(response);
      if (writing.size === 0) onAllWritten?.();
    });
  });
  const allWritten = (): Promise<void> => (writing.size === 0 ? Promise.resolve() : new Promise((resolve) => (onAllWritten = resolve)));
  const host = options.host ?? '127.0.0.1';
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(options.port ?? 0, host, () => {
        server.off('error', reject);
        resolve();
      });
    });
  } catch (error) {
    await resolved.close();
    await simulator?.close();
    throw error;
  }
  const address = server.address() as AddressInfo;
  const url = `http://${address.family === 'IPv6' ? `[${address.address}]` : address.address}:${address.port}`;
  let closing: Promise<void> | undefined;
  const close = (): Promise<void> => {
    closing ??= (async () => {
      runtime.draining = true;
      const stopped = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([allWritten(), new Promise<void>((resolve) => (timer = setTimeout(resolve, limits.drainTimeoutMs)))]);
      clearTimeout(timer);
      server.closeAllConnections();
      await stopped;
      await resolved.close();
      await simulator?.close();
    })();
    return closing;
  };
  return {
    url,
    ...(clientKey === undefined ? {} : { clientKey }),
    models: catalogue.models.map((model) => ({ name: model.name, taskKind: model.taskKind, family: model.targets[0]?.family ?? '' })),
    embedded: simulator !== undefined,
    ...(simulator === undefined ? {} : { simulator }),
    get inFlight() {
      return runtime.limiter.inFlight;
    },
    close,
  };
}
