// Builds the console to dist/: one minified script bundle, the stylesheets and the two HTML pages.
import { copyFileSync, mkdirSync, readdirSync, rmSync } from 'node:fs';
import { build } from 'esbuild';

const root = new URL('./', import.meta.url);
const dist = new URL('./dist/', root);

/** Builds into `outDirectory` (default `dist/`); answers nothing, throws on a build error. */
export async function buildConsole(outDirectory = dist) {
  rmSync(outDirectory, { recursive: true, force: true });
  mkdirSync(outDirectory, { recursive: true });
  await build({
    entryPoints: [new URL('./src/main.ts', root).pathname],
    bundle: true,
    minify: true,
    format: 'esm',
    target: 'es2022',
    outfile: new URL('./app.js', outDirectory).pathname,
    logLevel: 'warning',
  });
  for (const name of readdirSync(new URL('./static/', root))) copyFileSync(new URL(`./static/${name}`, root), new URL(`./${name}`, outDirectory));
}

if (import.meta.url === `file://${process.argv[1]}`) await buildConsole();
