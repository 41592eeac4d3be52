/**
 * `pnpm simulator [--port N] [--tls]`: starts the provider simulator, prints its URL, the base URL and credential
 * of every family and the scenario grammar, and runs until SIGINT or SIGTERM.
 */
import { SIMULATOR_SCENARIO_HEADER, SIMULATOR_SCENARIO_KINDS } from './scenario.js';
import { SIMULATOR_PROTOCOL_FAMILIES } from './simulator-credentials.js';
import { startProviderSimulator } from './start-provider-simulator.js';

function option(name: string): string | undefined {
  const position = process.argv.indexOf(name);
  return position < 0 ? undefined : process.argv[position + 1];
}

async function main(): Promise<void> {
  const portText = option('--port') ?? '0';
  const port = Number(portText);
  if (!Number.isInteger(port) || port < 0 || port > 65_535) throw new Error('--port takes a port number');
  const simulator = await startProviderSimulator({ port, tls: process.argv.includes('--tls') });
  console.log(`provider simulator listening on ${simulator.url}`);
  console.log('\nfamily                       base URL                                credentials (test only)');
  for (const family of SIMULATOR_PROTOCOL_FAMILIES) {
    const credentials = simulator.credentialsFor(family);
    const secret = credentials === undefined ? '' : credentials.type === 'api-key' ? `api key ${credentials.apiKey}` : `access key ${credentials.accessKey}, secret key ${credentials.secretKey}`;
    console.log(`${family.padEnd(28)} ${(simulator.baseUrlFor(family) ?? '').padEnd(39)} ${secret}`);
  }
  if (simulator.certificate !== undefined) console.log(`\ntrust this certificate:\n${simulator.certificate.cert}`);
  console.log(`\nscenarios: header ${SIMULATOR_SCENARIO_HEADER} or the model name; kinds: ${SIMULATOR_SCENARIO_KINDS.join(', ')}`);
  console.log('examples: text.2000, tool-call, reasoning, error.429.3, mid-stream-error, truncated, slow-first-byte.500, stall, job.1000.3000, job-fail');
  console.log('\nCtrl+C stops it.');
  const stop = (): void => {
    void simulator.close().then(() => process.exit(0));
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

main().catch((error: unknown) => {
  console.error('simulator failed to start:', error instanceof Error ? error.message : typeof error);
  process.exitCode = 1;
});
