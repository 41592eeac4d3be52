#!/usr/bin/env node
/**
 * `tokenforge-gateway [--config FILE] [--port N] [--host H] [--data-dir DIR | --no-governance]`. Without `--config`
 * it starts the provider simulator in-process with a built-in catalogue over all nine families and a generated local
 * client key. Governance (tenants, limits, spend) is on with the embedded store in `--data-dir`, else
 * `TOKENFORGE_DATA_DIR`, else `./.tokenforge`; `--no-governance` (or the catalogue's `governance.store: off`) turns
 * it off.
 */
import { defaultDataDir, startGateway } from './start-gateway.js';

const USAGE = 'usage: tokenforge-gateway [--config FILE] [--port N] [--host H] [--data-dir DIR | --no-governance]';

function parseArguments(argv: readonly string[]): { config?: string; port: number; host: string; dataDir?: string } {
  let config: string | undefined;
  let port = 8787;
  let host = '127.0.0.1';
  let dataDir: string | undefined = defaultDataDir();
  for (let index = 0; index < argv.length; index += 1) {
    const name = argv[index];
    const value = argv[index + 1];
    if (name === '--help' || name === '-h') {
      console.log(USAGE);
      process.exit(0);
    }
    if (name === '--no-governance') {
      dataDir = undefined;
      continue;
    }
    if (name !== '--config' && name !== '--port' && name !== '--host' && name !== '--data-dir') throw new Error(`unknown argument ${String(name)}\n${USAGE}`);
    if (value === undefined) throw new Error(`${name} needs a value\n${USAGE}`);
    index += 1;
    if (name === '--config') config = value;
    else if (name === '--data-dir') dataDir = value;
    else if (name === '--host') host = value;
    else {
      port = Number(value);
      if (!Number.isInteger(port) || port < 0 || port > 65_535) throw new Error(`--port takes a port number\n${USAGE}`);
    }
  }
  return { ...(config === undefined ? {} : { config }), port, host, ...(dataDir === undefined ? {} : { dataDir }) };
}

async function main(): Promise<void> {
  const args = parseArguments(process.argv.slice(2).filter((arg) => arg !== '--'));
  const gateway = await startGateway({
    ...(args.config === undefined ? {} : { configPath: args.config }),
    ...(args.dataDir === undefined ? {} : { dataDir: args.dataDir }),
    port: args.port,
    host: args.host,
  });
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
  console.log('operator log: JSON lines on stderr. Ctrl+C or SIGTERM stops it (open streams get the drain deadline).');
  let stopping = false;
  const stop = (): void => {
    if (stopping) return;
    stopping = true;
    void gateway.close().then(() => process.exit(0));
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

main().catch((error: unknown) => {
  console.error(`tokenforge-gateway: ${error instanceof Error ? error.message : 'failed to start'}`);
  process.exitCode = 1;
});
