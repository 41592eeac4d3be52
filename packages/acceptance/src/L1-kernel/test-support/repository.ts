import { existsSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

function findRepositoryRoot(start: string): string {
  let directory = start;
  while (!existsSync(join(directory, 'pnpm-workspace.yaml'))) {
    const parent = dirname(directory);
    if (parent === directory) throw new Error('repository root (pnpm-workspace.yaml) not found');
    directory = parent;
  }
  return directory;
}

/** Absolute path of the monorepo root. */
export const repositoryRoot = findRepositoryRoot(dirname(fileURLToPath(import.meta.url)));

/** Absolute path of the L1-kernel folder (where the violation fixtures live). */
export const kernelGateDirectory = dirname(dirname(fileURLToPath(import.meta.url)));

/** The packages that are published to the registry, by folder name under `packages/`. */
export const publishablePackages = ['model-protocol', 'protocol-engine', 'provider-adapters', 'http-transport', 'process-transport', 'provider-simulator', 'gateway'] as const;

export type PublishablePackage = (typeof publishablePackages)[number];

/** Every file below `directory`, as paths relative to it with `/` separators, sorted. */
export function listFiles(directory: string, prefix = ''): string[] {
  const files: string[] = [];
  for (const entry of readdirSync(join(directory, prefix), { withFileTypes: true })) {
    const relative = prefix === '' ? entry.name : `${prefix}/${entry.name}`;
    if (entry.isDirectory()) files.push(...listFiles(directory, relative));
    else files.push(relative);
  }
  return files.sort();
}
