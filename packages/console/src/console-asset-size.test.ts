import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { gzipSync } from 'node:zlib';
import { afterAll, expect, it } from 'vitest';
// @ts-expect-error the build script is plain JavaScript
import { buildConsole } from '../build-console.mjs';

/** The ceiling on everything the console ships, gzipped. */
const BUDGET_BYTES = 150 * 1024;
const out = mkdtempSync(join(tmpdir(), 'tokenforge-console-build-'));
afterAll(() => rmSync(out, { recursive: true, force: true }));

it('builds to at most 150 KB gzipped, with no URL of another origin (the SVG namespace name is not fetched)', async () => {
  await buildConsole(pathToFileURL(`${out}/`));
  const files = readdirSync(out).sort();
  expect(files).toEqual(['app.css', 'app.js', 'index.html', 'sign-in.css', 'sign-in.html']);
  const gzipped = files.reduce((total, name) => total + gzipSync(readFileSync(join(out, name))).length, 0);
  expect(gzipped).toBeGreaterThan(1000);
  expect(gzipped).toBeLessThanOrEqual(BUDGET_BYTES);
  for (const name of files) expect([name, readFileSync(join(out, name), 'utf8').replaceAll('http://www.w3.org/2000/svg', '').match(/(?:https?:)?\/\/[a-z0-9.-]+\.[a-z]{2,}\//gi)]).toEqual([name, null]);
  process.stdout.write(`console assets: ${files.length} files, ${gzipped} bytes gzipped\n`);
});
