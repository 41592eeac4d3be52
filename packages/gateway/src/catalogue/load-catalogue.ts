import { readFile } from 'node:fs/promises';
import { extname, resolve } from 'node:path';
import { createRequire } from 'node:module';
import { gatewayCatalogueV1Schema, type GatewayCatalogueV1 } from './gateway-catalogue-v1.js';

/** One problem of a catalogue: where (a dotted path, `` for the whole file) and what. */
export interface GatewayCatalogueIssue {
  readonly path: string;
  readonly message: string;
}

/** A catalogue that cannot be used, with every problem found (not only the first). */
export class GatewayCatalogueError extends Error {
  readonly code = 'GATEWAY_CATALOGUE_INVALID';
  readonly issues: readonly GatewayCatalogueIssue[];

  constructor(issues: readonly GatewayCatalogueIssue[], source = 'the catalogue', verdict = 'is invalid') {
    super(`${source} ${verdict}:\n${issues.map((issue) => `  - ${issue.path === '' ? '(root)' : issue.path}: ${issue.message}`).join('\n')}`);
    this.name = 'GatewayCatalogueError';
    this.issues = issues;
  }
}

/** Validates a parsed catalogue value; throws {@link GatewayCatalogueError} listing every issue with its path. */
export function parseGatewayCatalogue(value: unknown, source?: string): GatewayCatalogueV1 {
  const checked = gatewayCatalogueV1Schema.safeParse(value);
  if (checked.success) return checked.data;
  throw new GatewayCatalogueError(
    checked.error.issues.map((issue) => ({ path: issue.path.map(String).join('.'), message: issue.message })),
    source,
  );
}

// The YAML parser is a few dozen modules: loaded at the first YAML catalogue, so the embedded default (and a JSON
// catalogue) start without it. Synchronous, as `parseGatewayCatalogueText` is.
let yamlParse: typeof import('yaml').parse | undefined;
function parseYaml(text: string): unknown {
  yamlParse ??= (createRequire(import.meta.url)('yaml') as typeof import('yaml')).parse;
  return yamlParse(text, { maxAliasCount: 100 });
}

/** Parses catalogue text, YAML (a superset of JSON) or JSON, then validates it. */
export function parseGatewayCatalogueText(text: string, format: 'yaml' | 'json' = 'yaml', source?: string): GatewayCatalogueV1 {
  let value: unknown;
  try {
    value = format === 'json' ? JSON.parse(text) : parseYaml(text);
  } catch (error) {
    const detail = error instanceof Error ? error.message.split('\n')[0] ?? 'unreadable' : 'unreadable';
    throw new GatewayCatalogueError([{ path: '', message: `is not valid ${format === 'json' ? 'JSON' : 'YAML'}: ${detail}` }], source);
  }
  return parseGatewayCatalogue(value, source);
}

/** Reads and validates a catalogue file (`.json` as JSON, anything else as YAML). */
export async function readGatewayCatalogueFile(path: string): Promise<GatewayCatalogueV1> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    const code = typeof error === 'object' && error !== null && 'code' in error ? String(error.code) : undefined;
    const message =
      code === 'ENOENT'
        ? `no such file (${resolve(path)}); pass the path of a catalogue file (packages/gateway/examples/catalogue.example.yaml is a complete one), or leave out --config for the built-in simulator catalogue`
        : code === 'EISDIR'
          ? 'is a directory; pass the path of a catalogue file (YAML, or JSON ending in .json)'
          : `${code ?? 'unreadable'}; check the path and its permissions`;
    throw new GatewayCatalogueError([{ path: '', message }], path, 'cannot be read');
  }
  return parseGatewayCatalogueText(text, extname(path).toLowerCase() === '.json' ? 'json' : 'yaml', path);
}
