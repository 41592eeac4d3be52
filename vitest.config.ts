import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const packages = ['model-protocol', 'protocol-engine', 'provider-adapters', 'http-transport', 'process-transport', 'provider-simulator', 'gateway', 'console', 'acceptance'];

/**
 * `@tokenforge/*` imports resolve to each package's TypeScript source through the `paths` of tsconfig.base.json
 * (the one map tsc, tsx and dependency-cruiser read too), so tests never depend on a stale build.
 */
const workspaceSources = Object.entries(
  (JSON.parse(readFileSync(new URL('./tsconfig.base.json', import.meta.url), 'utf8')) as {
    compilerOptions: { paths: Record<string, [string]> };
  }).compilerOptions.paths,
).map(([name, [target]]) => ({
  find: new RegExp(`^${name.replace(/[/.]/g, '\\$&')}$`),
  replacement: fileURLToPath(new URL(target, import.meta.url)),
}));

/** One root configuration: every package is a project, so one `vitest run` yields one JSON report. */
export default defineConfig({
  resolve: { alias: workspaceSources },
  test: {
    projects: [
      ...packages.map((name) => ({
        extends: true as const,
        test: {
          name,
          root: `packages/${name}`,
          include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
          testTimeout: 60_000,
          hookTimeout: 60_000,
        },
      })),
      // Tests of the repository tools (benchmark report, support matrix), outside any package.
      { extends: true as const, test: { name: 'tools', root: 'tools', include: ['**/*.test.ts'], testTimeout: 60_000, hookTimeout: 60_000 } },
    ],
  },
});
