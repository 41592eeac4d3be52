/**
 * `npx --yes pnpm@12.4.2 demo`: the gateway started embedded (in this process, on an ephemeral loopback port, over
 * its own provider simulator), then every cell of the support matrix called over real HTTP through it: the official
 * OpenAI, Anthropic and Gemini SDKs, plain fetch for rerank and jobs, and the cross-dialect rows; then the agent-cli
 * rows (each pinned coding-agent CLI as a provider), which need the agent-clients install and are skipped with the
 * reason without it. Prints one line per call and the matrix; exits non-zero if a declared cell failed.
 */
import { formatSupportMatrix } from './format-support-matrix.js';
import { DEMO_CELL_KEYS, runGatewayDemo } from './run-gateway-demo.js';

async function main(): Promise<void> {
  const started = performance.now();
  const report = await runGatewayDemo({ log: (line) => console.log(line) });
  console.log(`\nsupport matrix (each cell: an SDK or fetch call through the gateway; latency as the client saw it; n/a: not declared; skipped: needs the agent-clients install)\n`);
  console.log(formatSupportMatrix(report));
  const skipped = report.rows.filter((row) => DEMO_CELL_KEYS.some((key) => row.cells[key].status === 'skipped'));
  if (skipped.length > 0) {
    console.log(`\nskipped (not failed): ${skipped.map((row) => row.label).join(', ')}: ${skipped[0]?.cells.sync.detail ?? ''}`);
  }
  console.log(
    `\n${report.ok ? 'all declared cells passed' : 'SOME CELLS FAILED'} in ${((performance.now() - started) / 1000).toFixed(1)} s ` +
      `(${report.providerRequests} provider requests behind them)`,
  );
  if (!report.ok) process.exitCode = 1;
}

main().catch((error: unknown) => {
  console.error('demo failed:', error instanceof Error ? error.name : typeof error, error instanceof Error ? error.message : '');
  process.exitCode = 1;
});
