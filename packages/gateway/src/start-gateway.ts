import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { join, resolve as resolvePath } from 'node:path';
import type { AddressInfo } from 'node:net';
import { getRequestListener } from '@hono/node-server';
import type { TaskKindV2 } from '@tokenforge/model-protocol';
import { createProtocolEngineV1 } from '@tokenforge/protocol-engine';
import { createAgentCliSuiteEntryV1, createBuiltinTokenForgeProtocolSuiteV1, createTokenForgeProtocolSuiteV1, type TokenForgeProtocolSuiteV1 } from '@tokenforge/provider-adapters';
import type { AgentCliRunLog } from './runtime/agent-cli-transport.js';
import type { ProviderSimulator } from '@tokenforge/provider-simulator';
import type { GatewayCatalogueV1, GatewayMetricsV1 } from './catalogue/gateway-catalogue-v1.js';
import { parseGatewayCatalogue, readGatewayCatalogueFile } from './catalogue/load-catalogue.js';
import { createGatewayApp, OPENAI_RESPONSES } from './create-gateway-app.js';
import { GOVERNANCE_DATA_FILES } from './governance/embedded/governance-data-directory.js';
import type { SharedGovernanceStore } from './governance/shared/shared-governance-store.js';
import type { GovernanceStoreV1 } from './governance/v1/governance-store-v1.js';
import { GatewayGovernance } from './governance/wiring/gateway-governance.js';
import { opaqueStateKeyFrom } from './governance/wiring/opaque-state-key.js';
import { seedStaticClientKeys } from './governance/wiring/seed-static-client-keys.js';
import { trackedJobSettlement } from './governance/wiring/settle-tracked-job.js';
import { startJobWorkers } from './jobs/poller/start-job-workers.js';
import { jobWorkerSettings, webhookEventData } from './jobs/job-worker-settings.js';
import { GATEWAY_SHUTDOWN_REASON } from './http/request-deadline.js';
import { ConcurrencyLimiter } from './operations/concurrency-limiter.js';
import { createOperatorLogger, observeRequestLines, type OperatorLogSink } from './operations/operator-log.js';
import { resolveLimits, type GatewayRuntime } from './runtime/gateway-runtime.js';
import { GatewayConfigurationError } from './runtime/gateway-configuration-error.js';
import { resolveCatalogue } from './runtime/resolve-catalogue.js';
import { createCatalogueReloader, type CatalogueReloadResult } from './runtime/reload-catalogue.js';
import { applyReloadedSettings } from './runtime/apply-reloaded-settings.js';
import { GatewayMetrics } from './operations/gateway-metrics.js';
import { MetricsEndpoint } from './operations/metrics-endpoint.js';
import { describeTargets, type GatewayTargetsReport } from './operations/describe-targets.js';
import { targetPoolUse } from './operations/target-pool-use.js';
import { TargetRouter } from './routing/target-router.js';
import { GatewayTelemetry, type GatewayTelemetryOptions } from './telemetry/gateway-telemetry.js';
import { attachResponsesWebSocket } from './websocket/responses-websocket-endpoint.js';

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
  /**
   * Turns governance on with the embedded store in this data directory (created, mode 0700, when missing). The
   * catalogue's `governance.dataDir` is used when this is absent; `governance.store: off` in the catalogue wins.
   * Without either (and without `governanceStore`), governance is off: the static client keys only.
   */
  readonly dataDir?: string;
  /**
   * Governance over any {@link GovernanceStoreV1} (the shared store, a test double). The key-hashing secret then
   * comes from `TOKENFORGE_KEY_HASHING_SECRET` and the admin key from `TOKENFORGE_ADMIN_KEY` (both required).
   */
  readonly governanceStore?: GovernanceStoreV1;
  /** The Prometheus endpoint, over the catalogue's `metrics` (absent in both: no endpoint; the metrics are still kept). */
  readonly metrics?: GatewayMetricsV1;
}

/** Governance as a running gateway has it. */
export interface RunningGovernance {
  /** The embedded store's data directory (absent for another store). */
  readonly dataDir?: string;
  /** Where the admin key is kept (absent when it comes from `TOKENFORGE_ADMIN_KEY`). */
  readonly adminKeyFile?: string;
  /** The admin key of `/admin/v1`. */
  readonly adminKey: string;
  /** The governance version this instance has applied. */
  readonly appliedVersion: number;
  /** Waits until every settlement queued so far was taken by the store (tests, shutdown). */
  settled(): Promise<void>;
  /** The store (tests read the ledger through its admin verbs). */
  readonly store: GovernanceStoreV1;
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
  /** Tenants, limits and spend; absent when governance is off. */
  readonly governance?: RunningGovernance;
  /** The metrics (Prometheus registry), fed from the operator log lines. */
  readonly metrics: GatewayMetrics;
  /** `http://<host>:<port>` of the metrics endpoint (`GET /metrics`), when one runs (a reload may move it). */
  readonly metricsUrl: string | undefined;
  /**
   * Reads the catalogue file again and applies it to new requests when it is valid (see `createCatalogueReloader`).
   * Refused with a problem when the gateway was started without `configPath`.
   */
  reload(): Promise<CatalogueReloadResult>;
  /** This instance's per-target health, cooldown state and requests in flight (for `GET /admin/v1/targets`). */
  targets(): GatewayTargetsReport;
  /**
   * Drains: `/readyz` answers 503 and new model requests the dialect's overloaded error (the listener keeps
   * accepting), requests in flight (open streams included) may finish for up to the drain deadline; then open
   * streams end with their dialect's in-stream error, every request's log line is written, and every connection,
   * transport and the embedded simulator is closed. Idempotent.
   */
  close(): Promise<void>;
}

/** How long the last bytes of requests cut at the drain deadline (their in-stream errors) may take to leave. */
const SHUTDOWN_WRITE_GRACE_MS = 1000;

/** Starts the gateway on a real socket. */
export async function startGateway(options: StartGatewayOptions = {}): Promise<RunningGateway> {
  let simulator: ProviderSimulator | undefined;
  let catalogue: GatewayCatalogueV1;
  let env: Readonly<Record<string, string | undefined>> = options.env ?? process.env;
  let clientKey: string | undefined;
  if (options.catalogue !== undefined) catalogue = parseGatewayCatalogue(options.catalogue);
  else if (options.configPath !== undefined) catalogue = await readGatewayCatalogueFile(options.configPath);
  else {
    // Loaded only here, as the stores below: a gateway holds in memory only the code its configuration uses.
    const [{ startProviderSimulator }, { createEmbeddedCatalogue }] = await Promise.all([import('@tokenforge/provider-simulator'), import('./catalogue/embedded-catalogue.js')]);
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
    resolved = resolveCatalogue(catalogue, suite, env, undefined, (path, report) => agentCliRunLog(path, report));
  } catch (error) {
    await simulator?.close();
    throw error;
  }
  const limits = resolveLimits(catalogue.limits);
  const logger = createOperatorLogger(options.logger);
  let governance: GatewayGovernance | undefined;
  let governanceFacts: Omit<RunningGovernance, 'appliedVersion' | 'settled' | 'store'> | undefined;
  let opaqueStateKey: Uint8Array | undefined;
  try {
    const started = await startGovernance(catalogue, options, env, logger);
    if (started !== undefined) {
      governance = started.governance;
      governanceFacts = started.facts;
      opaqueStateKey = started.opaqueStateKey;
      const decoder = new TextDecoder();
      await seedStaticClientKeys(governance.store, resolved.clientKeys.map((key) => ({ id: key.id, key: decoder.decode(key.key) })), (key) => started.governance.digestOf(key));
      await governance.refresh();
    }
  } catch (error) {
    await governance?.close();
    await resolved.close();
    await simulator?.close();
    throw error;
  }
  const shutdown = new AbortController();
  const router = new TargetRouter(resolved.targets.values());
  const engine = createProtocolEngineV1({ registry: suite.registry });
  const activeGovernance = governance;
  let jobSettings;
  try {
    const generated = activeGovernance !== undefined && 'secrets' in activeGovernance.store ? (activeGovernance.store as { secrets?: { webhookMasterKey?: string } }).secrets?.webhookMasterKey : undefined;
    jobSettings = jobWorkerSettings(catalogue.jobs, env, generated, governanceFacts?.dataDir ?? defaultDataDir(env));
  } catch (error) {
    await governance?.close();
    await resolved.close();
    await simulator?.close();
    throw error;
  }
  // Tracked jobs finish and settle with nobody polling: each process runs a bounded poller over the store.
  const jobWorkers =
    activeGovernance === undefined
      ? undefined
      : startJobWorkers({
          ...jobSettings,
          store: activeGovernance.store,
          engine,
          // The catalogue in force (a reload may have replaced it since the job was created).
          targetOf: (ref) => runtime.catalogue.targets.get(ref),
          // Awaited (not queued): the row says settled only once the store took the settlement, so a process killed
          // right after cannot leave a job marked settled without its ledger row (the next poll retries it).
          settle: async (job, target, snapshot) => {
            const result = await activeGovernance.store.settle(trackedJobSettlement(job, target, snapshot, Date.now()));
            if (result.kind === 'unavailable') throw new Error('the governance store could not take the settlement');
          },
          viewOf: (job) => webhookEventData(job, runtime.catalogue.signingKey, runtime.jobHandleTtlSeconds, Date.now()),
          onError: (error) => logger.warn({ event: 'job-poller-error', error: error instanceof Error ? error.name : 'unknown' }, 'A tracked job poll failed; it is retried by its plan.'),
        });
  const runtime: GatewayRuntime = {
    engine,
    ...(jobWorkers === undefined ? {} : { jobWorkers }),
    suite,
    catalogue: resolved,
    router,
    limits,
    limiter: new ConcurrencyLimiter(limits.maxConcurrentRequests),
    logger,
    ...(governance === undefined ? {} : { governance }),
    ...(catalogue.console === undefined ? {} : { console: catalogue.console }),
    telemetry: new GatewayTelemetry(options.telemetry),
    jobHandleTtlSeconds: catalogue.jobs?.handleTtlSeconds ?? 7 * 86_400,
    ...(opaqueStateKey === undefined ? {} : { opaqueStateKey }),
    now: Date.now,
    draining: false,
    shutdown: shutdown.signal,
  };
  agentCliRunLog = (path, report) => runtime.logger.info({ agentCliRun: path, pid: report.pid, reason: report.reason, exitCode: report.exitCode, durationMs: report.durationMs, stdoutBytes: report.stdoutBytes, stderr: report.stderr, stderrDroppedBytes: report.stderrDroppedBytes }, 'agent CLI run ended');
  for (const warning of resolved.warnings) runtime.logger.warn({ warning: warning.code, path: warning.path }, warning.message);
  const metrics = new GatewayMetrics({
    modelNames: () => new Set(runtime.catalogue.models.keys()),
    targets: () => runtime.catalogue.targets,
    inFlight: () => runtime.limiter.inFlight,
    targetHealth: () => router.snapshot(),
    targetPools: () => targetPoolUse(runtime.catalogue),
  });
  observeRequestLines(runtime.logger, (line) => metrics.observe(line));
  const reloader =
    options.configPath === undefined
      ? undefined
      : createCatalogueReloader({
          runtime,
          router,
          suite,
          path: options.configPath,
          env: () => options.env ?? process.env,
          logger: runtime.logger,
          applySettings: async (next) => {
            const settings = await applyReloadedSettings({ runtime, server, metrics: metricsEndpoint, metricsOverride: options.metrics, previous: catalogueInForce }, next);
            catalogueInForce = next;
            return settings;
          },
          onResult: (result) => metrics.countReload(result.kind),
        });
  let catalogueInForce = catalogue;
  const metricsEndpoint = new MetricsEndpoint(metrics);
  const metricsOptions = options.metrics ?? catalogue.metrics;
  if (metricsOptions !== undefined) {
    try {
      await metricsEndpoint.apply(metricsOptions);
    } catch (error) {
      await resolved.close();
      await simulator?.close();
      throw error;
    }
  }
  const app = createGatewayApp(runtime);
  // Node checks `headersTimeout` (and `requestTimeout`) only every `connectionsCheckingInterval` (30 s by default):
  // check often enough that a slow head is answered 408 close to `headersTimeoutMs`.
  const connectionsCheckingInterval = Math.max(100, Math.min(1000, Math.floor(limits.headersTimeoutMs / 10)));
  const server: Server = createServer({ connectionsCheckingInterval }, getRequestListener(app.fetch));
  server.headersTimeout = limits.headersTimeoutMs;
  server.requestTimeout = Math.max(limits.requestTimeoutMs, limits.headersTimeoutMs);
  server.keepAliveTimeout = 5_000;
  const websockets = attachResponsesWebSocket(server, runtime, OPENAI_RESPONSES);
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
  const allWrittenWithin = async (ms: number, alsoIdle: Promise<void> = Promise.resolve()): Promise<void> => {
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([Promise.all([allWritten(), alsoIdle]), new Promise<void>((resolve) => (timer = setTimeout(resolve, ms)))]);
    clearTimeout(timer);
  };
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
    await jobWorkers?.close();
    await governance?.close();
    await metricsEndpoint.close();
    await resolved.close();
    await simulator?.close();
    throw error;
  }
  const address = server.address() as AddressInfo;
  const url = `http://${address.family === 'IPv6' ? `[${address.address}]` : address.address}:${address.port}`;
  let closing: Promise<void> | undefined;
  const close = (): Promise<void> => {
    closing ??= (async () => {
      // The listener keeps accepting during the drain: `/readyz` answers 503 and model requests the dialect's
      // overloaded error, so load balancers and clients see the drain instead of refused connections.
      runtime.draining = true;
      server.closeIdleConnections();
      await allWrittenWithin(runtime.limits.drainTimeoutMs, websockets.idle());
      // At the deadline open streams end with their dialect's in-stream error and waiting requests with the
      // overloaded error; their last bytes get a moment to leave before every connection is closed.
      shutdown.abort(GATEWAY_SHUTDOWN_REASON);
      await allWrittenWithin(SHUTDOWN_WRITE_GRACE_MS);
      const stopped = new Promise<void>((resolve) => server.close(() => resolve()));
      websockets.closeAll();
      server.closeAllConnections();
      await stopped;
      // Every request's operator line is queued with `setImmediate`: let them run, then flush the logger.
      await new Promise((resolve) => setImmediate(resolve));
      await new Promise<void>((resolve) => runtime.logger.flush(() => resolve()));
      await jobWorkers?.close();
      await metricsEndpoint.close();
      await reloader?.close();
      await runtime.catalogue.close();
      await governance?.close();
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
    ...(governance === undefined || governanceFacts === undefined
      ? {}
      : {
          governance: {
            ...governanceFacts,
            store: governance.store,
            get appliedVersion() {
              return (governance as GatewayGovernance).appliedVersion;
            },
            settled: () => (governance as GatewayGovernance).settlements.drain(),
          },
        }),
    metrics,
    get metricsUrl() {
      return metricsEndpoint.url;
    },
    reload: () => reloader?.reload() ?? Promise.resolve({ kind: 'refused', problems: ['the gateway was started without a catalogue file'] }),
    targets: () => describeTargets(router),
    close,
  };
}

/** The data directory when the catalogue and options ask for no other: `TOKENFORGE_DATA_DIR`, else `./.tokenforge`. */
export function defaultDataDir(env: Readonly<Record<string, string | undefined>> = process.env): string {
  const configured = env.TOKENFORGE_DATA_DIR;
  return configured !== undefined && configured.length > 0 ? configured : '.tokenforge';
}

async function startGovernance(
  catalogue: GatewayCatalogueV1,
  options: StartGatewayOptions,
  env: Readonly<Record<string, string | undefined>>,
  logger: ReturnType<typeof createOperatorLogger>,
): Promise<{ governance: GatewayGovernance; facts: Omit<RunningGovernance, 'appliedVersion' | 'settled' | 'store'>; opaqueStateKey: Uint8Array } | undefined> {
  const setting = catalogue.governance;
  const failOpen = setting?.failOpen ?? {};
  const common = {
    failOpen,
    logger,
    now: Date.now,
    ...(setting?.pollIntervalMs === undefined ? {} : { pollIntervalMs: setting.pollIntervalMs }),
    ...(setting?.sweepIntervalMs === undefined ? {} : { sweepIntervalMs: setting.sweepIntervalMs }),
  };
  if (options.governanceStore === undefined && setting?.store !== 'off' && sharedStoreConfigured(env)) {
    const store = await openSharedStore(env);
    try {
      return await startGovernance(catalogue, { ...options, governanceStore: store }, env, logger);
    } catch (error) {
      await store.close();
      throw error;
    }
  }
  if (options.governanceStore !== undefined) {
    const keyHashingSecret = env.TOKENFORGE_KEY_HASHING_SECRET ?? process.env.TOKENFORGE_KEY_HASHING_SECRET;
    const adminKey = env.TOKENFORGE_ADMIN_KEY ?? process.env.TOKENFORGE_ADMIN_KEY;
    if (keyHashingSecret === undefined || keyHashingSecret.length < 32 || adminKey === undefined || adminKey.length < 16) {
      throw new GatewayConfigurationError(['governance: TOKENFORGE_KEY_HASHING_SECRET (32+ characters) and TOKENFORGE_ADMIN_KEY (16+ characters) must be set']);
    }
    const governance = await GatewayGovernance.start({ store: options.governanceStore, keyHashingSecret, adminKey, ...common });
    return { governance, facts: { adminKey }, opaqueStateKey: opaqueStateKeyFrom(keyHashingSecret) };
  }
  if (setting?.store === 'off') return undefined;
  const configured = options.dataDir ?? setting?.dataDir ?? (setting === undefined ? undefined : defaultDataDir(env));
  if (configured === undefined) return undefined;
  const dataDir = resolvePath(configured);
  const { openEmbeddedGovernanceStore } = await import('./governance/embedded/embedded-governance-store.js');
  const store = openEmbeddedGovernanceStore({ dataDirectory: dataDir });
  const fromEnv = env.TOKENFORGE_ADMIN_KEY ?? process.env.TOKENFORGE_ADMIN_KEY;
  const adminKey = fromEnv !== undefined && fromEnv.length >= 16 ? fromEnv : store.secrets.adminKey;
  try {
    const governance = await GatewayGovernance.start({ store, keyHashingSecret: store.secrets.keyHashingSecret, adminKey, ...common });
    return {
      governance,
      facts: { dataDir, adminKey, ...(adminKey === fromEnv ? {} : { adminKeyFile: join(dataDir, GOVERNANCE_DATA_FILES.adminKey) }) },
      opaqueStateKey: opaqueStateKeyFrom(store.secrets.opaqueStateSecret),
    };
  } catch (error) {
    await store.close();
    throw error;
  }
}

/** `REDIS_URL` or `DATABASE_URL` set (non-empty) asks for the shared store; both are then required. */
function sharedStoreConfigured(env: Readonly<Record<string, string | undefined>>): boolean {
  return (env.REDIS_URL ?? '') !== '' || (env.DATABASE_URL ?? '') !== '';
}

async function openSharedStore(env: Readonly<Record<string, string | undefined>>): Promise<SharedGovernanceStore> {
  // Redis and PostgreSQL drivers are loaded only by a gateway configured for them.
  const { SharedGovernanceConfigError, SharedGovernanceStore } = await import('./governance/shared/shared-governance-store.js');
  try {
    return await SharedGovernanceStore.fromEnvironment(env);
  } catch (error) {
    if (error instanceof SharedGovernanceConfigError) throw new GatewayConfigurationError([`governance: ${error.variable} must be set too (the shared store needs Redis and PostgreSQL)`]);
    // The driver's message may carry a URL with a password: name the stores only.
    throw new GatewayConfigurationError(['governance: the shared store could not reach Redis (REDIS_URL) or PostgreSQL (DATABASE_URL), or could not apply its migrations']);
  }
}
