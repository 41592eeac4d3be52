import { execFileSync } from 'node:child_process';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { benchOutput, COMMITTED_RESULTS, RESULTS_DIR_ENV, resultsDirectory, SCRATCH } from './bench-output.js';

const ROOT = join(COMMITTED_RESULTS, '../../..');
const ignored = (path: string): boolean => {
  try {
    execFileSync('git', ['check-ignore', '-q', '--no-index', relative(ROOT, path)], { cwd: ROOT, stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
};

describe('bench output paths', () => {
  it('only the full pooled run writes the committed report, results and page', () => {
    const full = benchOutput({ processes: 3, quick: false });
    expect(full.committed).toBe(true);
    expect(full.resultsDirectory).toBe(COMMITTED_RESULTS);
    expect(relative(ROOT, full.reportPath)).toBe(join('tools/bench/results/bench-report.json'));
    expect(relative(ROOT, full.docsPath)).toBe(join('docs/benchmarks.md'));
  });

  it.each([
    ['the quick smoke run of docs/benchmarks.md', { processes: 1, quick: true }],
    ['a quick pooled run', { processes: 3, quick: true }],
    ['a single-process run', { processes: 1, quick: false }],
    ['a run with --only', { processes: 3, quick: false, only: ['gateway'] }],
  ])('%s writes under the ignored folder, nothing tracked', (_name, shape) => {
    const output = benchOutput(shape);
    expect(output.committed).toBe(false);
    for (const path of [output.resultsDirectory, output.reportPath, output.docsPath]) {
      expect(path.startsWith(SCRATCH)).toBe(true);
      expect(ignored(join(path, 'probe.json'))).toBe(true);
    }
  });

  it('a run with --out writes its report there and its page and results under the ignored folder', () => {
    const output = benchOutput({ processes: 3, quick: false, out: '/tmp/report.json' });
    expect(output.committed).toBe(false);
    expect(output.reportPath).toBe('/tmp/report.json');
    expect(output.docsPath.startsWith(SCRATCH)).toBe(true);
    expect(output.resultsDirectory.startsWith(SCRATCH)).toBe(true);
  });

  it('a benchmark run alone writes under the ignored folder; run-all names the folder for its children', () => {
    expect(resultsDirectory({})).toBe(join(SCRATCH, 'results'));
    expect(ignored(join(resultsDirectory({}), 'gateway.json'))).toBe(true);
    expect(resultsDirectory({ [RESULTS_DIR_ENV]: COMMITTED_RESULTS })).toBe(COMMITTED_RESULTS);
    expect(ignored(join(COMMITTED_RESULTS, 'gateway.json'))).toBe(false);
  });
});
