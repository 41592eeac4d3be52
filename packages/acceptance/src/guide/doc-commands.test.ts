import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repositoryRoot } from '../L1-kernel/test-support/repository.js';
import { scanMarkdownCommands, scanSourceCommentCommands } from './test-support/scan-doc-commands.js';

/** Installed, generated or build output, and changeset notes: not documents of this repository. */
const skippedDirectories = new Set(['node_modules', '.git', 'dist', '.turbo', 'coverage', '.changeset']);

/** Every file below the repository root outside the skipped directories, as `/`-separated relative paths. */
function repositoryFiles(prefix = ''): string[] {
  return readdirSync(join(repositoryRoot, prefix), { withFileTypes: true }).flatMap((entry) => {
    const relative = prefix === '' ? entry.name : `${prefix}/${entry.name}`;
    if (entry.isDirectory()) return skippedDirectories.has(entry.name) || entry.name.startsWith('.workspace-probe-') ? [] : repositoryFiles(relative);
    return entry.isFile() ? [relative] : [];
  });
}

const files = repositoryFiles().sort();
const markdownFiles = files.filter((file) => file.endsWith('.md'));
const exampleAndToolSources = files.filter((file) => /^(examples|tools)\//.test(file) && /\.(ts|mjs|js)$/.test(file));

function problemLines(file: string, scan: (text: string) => { line: number; code: string; problem: string }[]): string[] {
  return scan(readFileSync(join(repositoryRoot, file), 'utf8')).map((found) => `${file}:${found.line}: ${found.problem}: ${found.code}`);
}

describe('every command written in a document runs as written on a machine with only Node and npm', () => {
  it('scans the documents it should (README, docs, package and tool READMEs, examples)', () => {
    expect(markdownFiles).toEqual(
      expect.arrayContaining([
        'README.md',
        'docs/guides/PROTOCOL_ENGINE.md',
        'docs/guides/PROTOCOL_ENGINE.zh-CN.md',
        'packages/protocol-engine/README.md',
        'packages/acceptance/src/replay/README.md',
        'packages/acceptance/src/certification/README.md',
        'examples/external-app/README.md',
      ]),
    );
    expect(exampleAndToolSources).toEqual(expect.arrayContaining(['examples/engine-quickstart.ts', 'tools/bench/run-all.ts']));
  });

  it.each(markdownFiles)('%s names no bare pnpm, unpinned npx pnpm or custom condition in its code', (file) => {
    expect(problemLines(file, scanMarkdownCommands)).toEqual([]);
  });

  it('the examples and tools name none in their comments either', () => {
    expect(exampleAndToolSources.flatMap((file) => problemLines(file, scanSourceCommentCommands))).toEqual([]);
  });
});

describe('the command scan', () => {
  it('reports each planted mistake in fences, inline spans and tables, and leaves prose and the pinned form alone', () => {
    const planted = [
      'Install pnpm first, the way pnpm does it.', // prose: fine
      '```bash',
      'pnpm install && pnpm demo', // 2
      'npx --yes pnpm@12.4.2 install && npx --yes pnpm@12.4.2 demo', // fine
      'npx --yes pnpm@12.4.2 install && pnpm check', // 5
      '```',
      '| `pnpm bench` | runs it |', // 7
      'Run `npx pnpm@12.4.2 demo` or `npx --yes pnpm@9 demo`.', // 8 (two)
      'Then `npx tsx --conditions=@tokenforge/source x.ts`.', // 9
      'Then `npx tsx x.ts` and `node examples/plain-node.mjs`.', // fine
      '~~~',
      'cd app; pnpm test', // 12
      '~~~',
    ].join('\n');
    expect(scanMarkdownCommands(planted).map((found) => [found.line, found.problem.split(' (')[0]])).toEqual([
      [3, 'bare pnpm'],
      [5, 'bare pnpm'],
      [7, 'bare pnpm'],
      [8, 'npx pnpm without --yes or at another version'],
      [8, 'npx pnpm without --yes or at another version'],
      [9, 'a custom resolution condition'],
      [12, 'bare pnpm'],
    ]);
  });

  it('reads only comment lines of a source file', () => {
    const source = ["const usage = '`pnpm demo`';", ' * Run: `pnpm example`.', '// see `npx --yes pnpm@12.4.2 demo`'].join('\n');
    expect(scanSourceCommentCommands(source).map((found) => found.line)).toEqual([2]);
  });
});
