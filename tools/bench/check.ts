/**
 * `npx --yes pnpm@12.4.2 bench:check`: measures again (or reads `--report=<file>`) and compares every ratio and scaling exponent
 * with the committed tools/bench/results/bench-report.json (or `--baseline=<file>`). Exits 1 when one worsened by
 * more than 25% (`--tolerance=0.25`), and when the new measurement misses a gated target (e.g. the gateway's
 * same-dialect sync added p50 at concurrency 1). Not run in CI: shared machines are too noisy for the rule.
 *
 * Takes run-all's options too (`--processes=N`, `--quick`, `--only=...`); a fresh measurement is written to
 * the system's temporary folder (tokenforge-bench-report.check.json) and the benchmarks' own results under the
 * ignored tools/bench/.runs/results, never over the committed ones.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { spreadNote, type BenchReport } from './report/bench-report.js';
import { compareReports, DEFAULT_TOLERANCE, missedGatedTargets, type ReportComparison } from './report/compare-reports.js';
import { option, REPORT_PATH, runAllBenchmarks, runAllOptions } from './run-all.js';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '../..');

/** The committed report: from git's HEAD when there is one, else the file in the working tree. */
function committedReport(): BenchReport {
  const path = relative(ROOT, REPORT_PATH).split('\\').join('/');
  try {
    return JSON.parse(execFileSync('git', ['show', `HEAD:${path}`], { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] })) as BenchReport;
  } catch {
    if (!existsSync(REPORT_PATH)) throw new Error(`no committed report to compare with: run \`npx --yes pnpm@12.4.2 bench\` and commit ${path}`);
    return JSON.parse(readFileSync(REPORT_PATH, 'utf8')) as BenchReport;
  }
}

function percent(fraction: number): string {
  return `${fraction >= 0 ? '+' : ''}${(fraction * 100).toFixed(1)}%`;
}

/** The console lines of a comparison. */
export function describeComparison(comparison: ReportComparison): string[] {
  const lines = comparison.compared.map(
    (entry) => `${entry.regressed ? 'WORSE ' : 'ok    '} ${entry.id}: ${entry.baseline} -> ${entry.candidate} (${percent(entry.worsening)} worse, ${entry.better} is better)`,
  );
  for (const id of comparison.missing) lines.push(`missing ${id}: not in the new measurement (its benchmark did not run)`);
  for (const id of comparison.added) lines.push(`new    ${id}: not in the committed report`);
  lines.push(
    comparison.regressions.length === 0
      ? `bench:check: ${comparison.compared.length} figures within ${Math.round(comparison.tolerance * 100)}% of the committed report`
      : `bench:check: ${comparison.regressions.length} of ${comparison.compared.length} figures worsened by more than ${Math.round(comparison.tolerance * 100)}%`,
  );
  return lines;
}

async function main(): Promise<void> {
  const tolerance = Number(option('tolerance') ?? DEFAULT_TOLERANCE);
  if (!(tolerance > 0)) throw new Error('--tolerance takes a positive fraction, e.g. 0.25');
  const baselinePath = option('baseline');
  const baseline = baselinePath === undefined ? committedReport() : (JSON.parse(readFileSync(baselinePath, 'utf8')) as BenchReport);
  const reportPath = option('report');
  let candidate: BenchReport;
  if (reportPath === undefined) {
    candidate = await runAllBenchmarks(runAllOptions(process.argv, true));
    const out = join(tmpdir(), 'tokenforge-bench-report.check.json');
    writeFileSync(out, `${JSON.stringify(candidate, null, 2)}\n`);
    console.log(`\nnew measurement written to ${out}`);
  } else {
    candidate = JSON.parse(readFileSync(reportPath, 'utf8')) as BenchReport;
  }
  const comparison = compareReports(baseline, candidate, tolerance);
  for (const line of describeComparison(comparison)) console.log(line);
  const missed = missedGatedTargets(candidate);
  for (const metric of missed) console.log(`MISSED gated target ${metric.id}: ${metric.value} (target ${metric.target?.comparison} ${metric.target?.value})${spreadNote(metric)}`);
  if (comparison.regressions.length > 0 || missed.length > 0) process.exitCode = 1;
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
