import { pathToFileURL } from 'node:url';
import { createBuiltinTokenForgeProtocolSuiteV1, type TokenForgeProtocolSuiteV1 } from '@tokenforge/provider-adapters';
import { runReplayV1 } from './run-replay.js';

/**
 * Test-only: a module exporting `suite` that replaces the builtin suite, so the end-to-end test can run the real CLI
 * process on an example family. Never set it outside tests.
 */
const TEST_SUITE_MODULE_VARIABLE = 'TOKENFORGE_REPLAY_TEST_ONLY_SUITE_MODULE';

async function loadSuite(): Promise<TokenForgeProtocolSuiteV1> {
  const testModule = process.env[TEST_SUITE_MODULE_VARIABLE];
  if (testModule === undefined || testModule === '') return createBuiltinTokenForgeProtocolSuiteV1();
  process.stderr.write(`replay: using the test-only suite from ${TEST_SUITE_MODULE_VARIABLE}\n`);
  const loaded = (await import(pathToFileURL(testModule).href)) as { suite?: TokenForgeProtocolSuiteV1 };
  if (loaded.suite === undefined) throw new Error(`${TEST_SUITE_MODULE_VARIABLE} module exports no suite`);
  return loaded.suite;
}

// `pnpm replay -- --family ...` passes the separator through.
const argv = process.argv.slice(2);
const exitCode = await runReplayV1({
  argv: argv[0] === '--' ? argv.slice(1) : argv,
  suite: await loadSuite(),
  stdout: (chunk) => process.stdout.write(chunk),
  stderr: (text) => process.stderr.write(text),
});
process.exitCode = exitCode;
