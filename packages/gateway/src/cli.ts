#!/usr/bin/env node
/**
 * `tokenforge-gateway [--config FILE] [--port N] [--host H]`. Without `--config` it starts the provider
 * simulator in-process with a built-in catalogue over all nine families and a generated local client key.
 */
import { startGateway } from './start-gateway.js';

const USAGE = 'usage: tokenforge-gateway [--config FILE] [--port N] [--host H]';

function parseArguments(argv: readonly string[]): { config?: string; port: number; host: string } {
  let config: string | undefined;
  let port = 8787;
  let host = '127.0.0.1';
  for (let index = 0; index < argv.length; index += 1) {
    const name = argv[index];
    const value = argv[index + 1];
    if (name === '--help' || name === '-h') {
      console.log(USAGE);
      process.exit(0);
    }
    if (name !== '--config' && name !== '--port' && name !== '--host') throw new Error(`unknown argument ${String(name)}\n${USAGE}`);
    if (value === undefined) throw new Error(`${name} needs a value\n${USAGE}`);
    index += 1;
    if (name === '--config') config = value;
    else if (name === '--host') host = value;
    else {
      port = Number(value);
      if (!Number.isInteger(port) || port < 0 || port > 65_535) throw new Error(`--port takes a port number\n${USAGE}`);
    }
  }
  return { ...(config === undefined ? {} : { config }), port, host };
}

async function main(): Promise<void> {
  const args = parseArguments(process.argv.slice(2).filter((arg) => arg !== '--'));
  const gateway = await startGateway({ ...(args.config === undefined ? {} : { configPath: args.config }), port: args.port, host: args.host });
  console.log(`tokenforge gateway listening on ${gateway.url}`);
  if (gateway.clientKey !== undefined) console.log(`client key: ${gateway.clientKey}`);
  console.log(`models: ${gateway.models.map((model) => model.name).join(', ')}`);
  if (gateway.embedded) {
    console.log(`embedded default: provider simulator at ${gateway.simulator?.url ?? '?'}; client key and job signing key generated for this run`);
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
