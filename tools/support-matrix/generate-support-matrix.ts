/**
 * Writes the support matrix of the builtin suite into both protocol engine guides, between their markers.
 *
 * Run: `npx --yes pnpm@12.4.2 docs:matrix` (or `npx tsx tools/support-matrix/generate-support-matrix.ts`).
 * `--check` writes nothing and exits 1 when a guide's tables differ from the generated ones.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { loadBuiltinSupportMatrixSources } from './builtin-sources.js';
import {
  buildSupportMatrix,
  readSupportMatrixBlock,
  renderSupportMatrix,
  replaceSupportMatrixBlock,
  SUPPORT_MATRIX_COMMAND,
  type SupportMatrixLanguage,
} from './support-matrix.js';

const REPOSITORY_ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** The guide files that carry the matrix, by language. */
export const SUPPORT_MATRIX_GUIDES: readonly { readonly path: string; readonly language: SupportMatrixLanguage }[] = [
  { path: join(REPOSITORY_ROOT, 'docs', 'guides', 'PROTOCOL_ENGINE.md'), language: 'en' },
  { path: join(REPOSITORY_ROOT, 'docs', 'guides', 'PROTOCOL_ENGINE.zh-CN.md'), language: 'zh-CN' },
];

/** The tables each guide should hold, rendered from the builtin suite. */
export function expectedSupportMatrixTables(): ReadonlyMap<SupportMatrixLanguage, string> {
  const { entries, cases } = loadBuiltinSupportMatrixSources();
  const matrix = buildSupportMatrix(entries, cases);
  return new Map(SUPPORT_MATRIX_GUIDES.map((guide) => [guide.language, renderSupportMatrix(matrix, guide.language)]));
}

function main(argv: readonly string[]): number {
  const check = argv.includes('--check');
  const expected = expectedSupportMatrixTables();
  let stale = 0;
  for (const guide of SUPPORT_MATRIX_GUIDES) {
    const name = relative(REPOSITORY_ROOT, guide.path);
    const document = readFileSync(guide.path, 'utf8');
    const tables = expected.get(guide.language) ?? '';
    if (readSupportMatrixBlock(document, name) === tables) {
      console.log(`${name}: up to date`);
      continue;
    }
    if (check) {
      stale += 1;
      console.error(`${name}: the support matrix is out of date; regenerate it with ${SUPPORT_MATRIX_COMMAND}`);
    } else {
      writeFileSync(guide.path, replaceSupportMatrixBlock(document, tables, name));
      console.log(`${name}: support matrix written`);
    }
  }
  return stale === 0 ? 0 : 1;
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  try {
    process.exitCode = main(process.argv.slice(2));
  } catch (error) {
    console.error(error instanceof Error ? `${error.name}: ${error.message}` : error);
    process.exitCode = 1;
  }
}
