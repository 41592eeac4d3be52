/**
 * `pnpm demo`: the provider simulator on a free loopback port, the builtin protocol suite, one http-transport per
 * family connection, and every family the engine lists run through the public engine API. Prints one line per
 * step and a support matrix; exits non-zero if a cell that should pass did not.
 */
import { formatSupportMatrix } from './format-support-matrix.js';
import { runProviderDemo } from './run-provider-demo.js';

async function main(): Promise<void> {
  const started = performance.now();
  const report = await runProviderDemo({ log: (line) => console.log(line), tls: process.argv.includes('--tls') });
  console.log(`\nsupport matrix (observed outcome and latency per cell; n/a: the family does not declare it)\n`);
  console.log(formatSupportMatrix(report));
  console.log(`\n${report.ok ? 'all declared cells passed' : 'SOME CELLS FAILED'} in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  if (!report.ok) process.exitCode = 1;
}

main().catch((error: unknown) => {
  console.error('demo failed:', error instanceof Error ? error.name : typeof error, error instanceof Error ? error.message : '');
  process.exitCode = 1;
});
