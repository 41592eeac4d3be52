#!/usr/bin/env node
/**
 * `tokenforge-gateway [--config FILE] [--port N] [--host H] [--metrics-port N] [--watch-config] [--data-dir DIR |
 * --no-governance] [--heap-growth PERCENT]`. Without `--config` it starts the provider simulator in-process with a built-in catalogue over
 * all nine families and a generated local client key. SIGHUP (and, with `--watch-config`, a change of the file)
 * reloads the catalogue. OpenTelemetry export is configured by the standard `OTEL_*` environment. Governance
 * (tenants, limits, spend) is on with the embedded store in `--data-dir`, else `TOKENFORGE_DATA_DIR`, else
 * `./.tokenforge`; `--no-governance` (or the catalogue's `governance.store: off`) turns it off. With `--config` and
 * `REDIS_URL` plus `DATABASE_URL` set, governance uses the shared store instead (several instances;
 * `TOKENFORGE_KEY_HASHING_SECRET` and `TOKENFORGE_ADMIN_KEY` then required, the same on every instance).
 * `--heap-growth` (else `TOKENFORGE_HEAP_GROWTH_PERCENT`, else 50; 0 for V8's own) bounds how far the heap grows past
 * its live size before a full collection.
 */
import { watchCatalogueFile } from './runtime/watch-catalogue-file.js';
import { startEnvironmentTelemetry } from './operations/start-telemetry-from-environment.js';
import { applyHeapGrowth, heapGrowthPercentFrom } from './operations/heap-growth.js';
import { defaultDataDir, startGateway } from './start-gateway.js';

const USAGE = 'usage: tokenforge-gateway [--config FILE] [--port N] [--host H] [--metrics-port N] [--watch-config] [--data-dir DIR | --no-governance] [--heap-growth PERCENT]';

interface CliArguments {
  readonly config?: string;
  readonly port: number;
  readonly host: string;
  readonly metricsPort?: number;
  readonly watchConfig: boolean;
  readonly dataDir?: string;
  readonly heapGrowthPercent: number;
}

function portOf(name: string, value: string): number {
  const port = Number(value);
  if (!Number.isInteger(port) || port < 0 || port > 65_535) throw new Error(`${name} takes a port number\n${USAGE}`);
  return port;
}

function parseArguments(argv: readonly string[]): CliArguments {
  let config: string | undefined;
  let port = 8787;
  let host = '127.0.0.1';
  let metricsPort: number | undefined;
  let watchConfig = false;
  let dataDir: string | undefined = defaultDataDir();
  let heapGrowth: string | undefined;
  for (let index = 0; index < argv.length; index += 1) {
    const name = argv[index];
    const value = argv[index + 1];
    if (name === '--help' || name === '-h') {
      console.log(USAGE);
      process.exit(0);
    }
    if (name === '--watch-config') {
      watchConfig = true;
      continue;
    }
    if (name === '--no-governance') {
      dataDir = undefined;
      continue;
    }
    if (name !== '--config' && name !== '--port' && name !== '--host' && name !== '--metrics-port' && name !== '--data-dir' && name !== '--heap-growth') throw new Error(`unknown argument ${String(name)}\n${USAGE}`);
    if (value === undefined) throw new Error(`${name} needs a value\n${USAGE}`);
    index += 1;
    if (name === '--config') config = value;
    else if (name === '--data-dir') dataDir = value;
    else if (name === '--heap-growth') heapGrowth = value;
    else if (name === '--host') host = value;
    else if (name === '--metrics-port') metricsPort = portOf(name, value);
    else port = portOf(name, value);
  }
  if (watchConfig && config === undefined) throw new Error(`--watch-config needs --config\n${USAGE}`);
  const heapGrowthPercent = heapGrowthPercentFrom(heapGrowth, process.env);
  return { ...(config === undefined ? {} : { config }), port, host, ...(metricsPort === undefined ? {} : { metricsPort }), watchConfig, ...(dataDir === undefined ? {} : { dataDir }), heapGrowthPercent };
}

async function main(): Promise<void> {
  const args = parseArguments(process.argv.slice(2).filter((arg) => arg !== '--'));
  applyHeapGrowth(args.heapGrowthPercent);
  const telemetry = await startEnvironmentTelemetry();
  const gateway = await startGateway({
    ...(args.config === undefined ? {} : { configPath: args.config }),
    ...(args.dataDir === undefined ? {} : { dataDir: args.dataDir }),
    port: args.port,
    host: args.host,
    ...(args.metricsPort === undefined ? {} : { metrics: { port: args.metricsPort } }),
  });
  if (args.config !== undefined) {
    process.on('SIGHUP', () => void gateway.reload());
    if (args.watchConfig) watchCatalogueFile(args.config, () => void gateway.reload());
  }
  console.log(`tokenforge gateway listening on ${gateway.url}`);
  if (gateway.clientKey !== undefined) console.log(`client key: ${gateway.clientKey}`);
  console.log(`models: ${gateway.models.map((model) => model.name).join(', ')}`);
  if (gateway.embedded) {
    console.log(`embedded default: provider simulator at ${gateway.simulator?.url ?? '?'}; client key and job signing key generated for this run`);
  }
  if (gateway.governance !== undefined) {
    const where = gateway.governance.adminKeyFile === undefined ? 'TOKENFORGE_ADMIN_KEY' : gateway.governance.adminKeyFile;
    console.log(`governance: on (${gateway.governance.dataDir ?? 'external store'}), version ${gateway.governance.appliedVersion}; admin API ${gateway.url}/admin/v1, admin key in ${where}`);
  } else {
    console.log('governance: off');
  }
  console.log('');
  for (const model of gateway.models) console.log(`  ${model.name.padEnd(24)} ${model.taskKind.padEnd(18)} ${model.family}`);
  console.log(`\ntry: curl ${gateway.url}/v1/chat/completions -H "authorization: Bearer ${gateway.clientKey ?? '$YOUR_CLIENT_KEY'}" -H "content-type: application/json" -d '{"model":"${gateway.models.find((model) => model.taskKind === 'chat')?.name ?? 'MODEL'}","messages":[{"role":"user","content":"hi"}]}'`);
  if (gateway.metricsUrl !== undefined) console.log(`metrics: ${gateway.metricsUrl}/metrics`);
  console.log('operator log: JSON lines on stderr. Ctrl+C or SIGTERM stops it (open streams get the drain deadline).');
  let stopping = false;
  const stop = (): void => {
    if (stopping) return;
    stopping = true;
    void gateway
      .close()
      .then(() => telemetry?.shutdown())
      .then(() => process.exit(0));
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

main().catch((error: unknown) => {
  console.error(`tokenforge-gateway: ${error instanceof Error ? error.message : 'failed to start'}`);
  process.exitCode = 1;
});
