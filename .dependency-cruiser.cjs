/**
 * Architecture rules. Each rule is proven to fail on a planted violation by
 * packages/acceptance/src/L1-kernel/import-boundary.test.ts (fixtures under fixtures/violations/<rule>/).
 */

/** Test code: test files, test-only helpers and recorded fixtures. */
const TEST_CODE = '\\.test\\.ts$|/test-support/|/__fixtures__/';

module.exports = {
  forbidden: [
    {
      name: 'engine-imports-only-model-protocol',
      comment: 'The protocol engine may import nothing but @tokenforge/model-protocol (no node builtins, no zod, nothing else).',
      severity: 'error',
      from: { path: '^packages/protocol-engine/src/', pathNot: TEST_CODE },
      to: {
        pathNot: ['^packages/protocol-engine/src/', '^packages/model-protocol/'],
      },
    },
    {
      name: 'engine-no-builtins',
      comment: 'The protocol engine must not import node builtins.',
      severity: 'error',
      from: { path: '^packages/protocol-engine/src/', pathNot: TEST_CODE },
      to: { dependencyTypes: ['core'] },
    },
    {
      name: 'no-deep-imports-across-packages',
      comment: 'A package imports another package only through its root entry.',
      severity: 'error',
      from: { path: '^packages/([^/]+)/' },
      to: {
        path: '^packages/([^/]+)/',
        pathNot: ['^packages/$1/', '^packages/[^/]+/src/index\\.ts$', '^packages/[^/]+/dist/index\\.js$'],
      },
    },
    {
      name: 'no-unresolvable-imports',
      comment:
        'Every import resolves. A deep import by package name (@tokenforge/x/src/y) is refused by the `exports` map, so it lands here.',
      severity: 'error',
      from: {},
      to: { couldNotResolve: true },
    },
    {
      name: 'web-standard-packages-no-builtins',
      comment: 'model-protocol and provider-adapters run on any JavaScript runtime: no node builtins in production code.',
      severity: 'error',
      from: { path: '^packages/(model-protocol|provider-adapters)/src/', pathNot: `${TEST_CODE}|/testing/` },
      to: { dependencyTypes: ['core'] },
    },
    {
      name: 'model-protocol-imports-only-zod',
      comment:
        'model-protocol production code imports nothing but its own files and zod. Path based on purpose: a workspace ' +
        'package reached through its symlink has dependency type "undetermined", which a type filter would miss.',
      severity: 'error',
      from: { path: '^packages/model-protocol/src/', pathNot: TEST_CODE },
      to: { pathNot: ['^packages/model-protocol/', '(^|/)node_modules/zod/'] },
    },
    {
      name: 'simulator-independent-oracle',
      comment:
        'The provider simulator writes every wire format itself, so it stays an independent oracle for the codecs: ' +
        'its production code imports no TokenForge package.',
      severity: 'error',
      from: { path: '^packages/provider-simulator/src/', pathNot: TEST_CODE },
      to: { path: '^packages/(model-protocol|protocol-engine|provider-adapters|http-transport|process-transport|gateway)/' },
    },
    {
      name: 'console-imports-gateway-types-only',
      comment:
        'The console bundle speaks the admin API only: it imports the gateway\'s admin types, never its runtime code ' +
        '(`import type`, which esbuild drops), so the bundle stays small and free of server code.',
      severity: 'error',
      from: { path: '^packages/console/src/', pathNot: TEST_CODE },
      to: { path: '^packages/(gateway|model-protocol|protocol-engine|provider-adapters|http-transport|process-transport)/', dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'no-cycles',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    {
      name: 'production-never-imports-tests',
      comment: 'Production code never imports test files or test-only helpers.',
      severity: 'error',
      from: { pathNot: TEST_CODE },
      to: { path: '\\.test\\.ts$|/test-support/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    // Anchored to the workspace on purpose: npm packages must stay in the graph (as leaves),
    // otherwise the "imports only X" rules could never see an npm import.
    exclude: { path: '^packages/[^/]+/(dist|node_modules|\\.turbo)/|/__fixtures__/|/fixtures/violations/' },
    tsPreCompilationDeps: true,
    // Relative to the working directory: its `paths` map each `@tokenforge/*` import to that tree's own sources, so
    // the acceptance gates cruise a fixture tree (which carries a copy of this file) with this same configuration.
    tsConfig: { fileName: 'tsconfig.base.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'types', 'default'],
      mainFields: ['module', 'main', 'types'],
      extensions: ['.ts', '.js', '.mjs', '.json'],
    },
  },
};
