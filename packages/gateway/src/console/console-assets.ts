import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { extname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** One built console file, held in memory. */
export interface ConsoleAsset {
  readonly body: Uint8Array;
  readonly contentType: string;
}

const CONTENT_TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
};

/**
 * Where the built console lives: `console/` beside the gateway's bundle (the packed package), else the console
 * package's `dist/` in the workspace (tests and `pnpm gateway` from source).
 */
export function defaultConsoleDirectory(): string | undefined {
  const candidates = [new URL('./console/', import.meta.url), new URL('../../../console/dist/', import.meta.url)];
  return candidates.map((url) => fileURLToPath(url)).find((path) => existsSync(join(path, 'index.html')));
}

/** Reads the console's files (the folder's top level only, known types only) by file name. */
export function loadConsoleAssets(directory: string | undefined): ReadonlyMap<string, ConsoleAsset> {
  const assets = new Map<string, ConsoleAsset>();
  if (directory === undefined) return assets;
  for (const name of readdirSync(directory)) {
    const contentType = CONTENT_TYPES[extname(name)];
    const path = join(directory, name);
    if (contentType !== undefined && statSync(path).isFile()) assets.set(name, { body: readFileSync(path), contentType });
  }
  return assets;
}
