import { defineConfig } from 'vitest/config';

const packages = ['model-protocol', 'protocol-engine', 'provider-adapters', 'http-transport', 'provider-simulator', 'gateway', 'acceptance'];

/**
 * One root configuration: every package is a project, so one `vitest run` yields one JSON report.
 * Workspace packages resolve to their TypeScript sources through the `@tokenforge/source` condition,
 * so tests never depend on a stale build.
 */
export default defineConfig({
  resolve: { conditions: ['@tokenforge/source', 'import', 'module', 'default'] },
  ssr: { resolve: { conditions: ['@tokenforge/source', 'import', 'node', 'default'] } },
  test: {
    projects: [
      ...packages.map((name) => ({
        extends: true as const,
        test: {
          name,
          root: `packages/${name}`,
          include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
          testTimeout: 30_000,
        },
      })),
      // Tests of the repository tools (benchmark report, support matrix), outside any package.
      { extends: true as const, test: { name: 'tools', root: 'tools', include: ['**/*.test.ts'], testTimeout: 30_000 } },
    ],
  },
});
