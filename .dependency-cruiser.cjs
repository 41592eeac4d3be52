/** Architecture rules. Each rule is proven to fail on a planted violation by packages/acceptance/src/L1-kernel tests. */
module.exports = {
  forbidden: [
    {
      name: 'engine-imports-only-model-protocol',
      comment: 'The protocol engine may import nothing but @tokenforge/model-protocol (no node builtins, no zod, nothing else).',
      severity: 'error',
      from: { path: '^packages/protocol-engine/src/', pathNot: '\\.test\\.ts$' },
      to: {
        pathNot: ['^packages/protocol-engine/src/', '^packages/model-protocol/'],
      },
    },
    {
      name: 'engine-no-builtins',
      comment: 'The protocol engine must not import node builtins.',
      severity: 'error',
      from: { path: '^packages/protocol-engine/src/', pathNot: '\\.test\\.ts$' },
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
      name: 'web-standard-packages-no-builtins',
      comment: 'model-protocol and provider-adapters run on any JavaScript runtime: no node builtins in production code.',
      severity: 'error',
      from: { path: '^packages/(model-protocol|provider-adapters)/src/', pathNot: '\\.test\\.ts$|/__fixtures__/|/testing/' },
      to: { dependencyTypes: ['core'] },
    },
    {
      name: 'model-protocol-imports-only-zod',
      severity: 'error',
      from: { path: '^packages/model-protocol/src/', pathNot: '\\.test\\.ts$' },
      to: { dependencyTypes: ['npm', 'npm-dev', 'npm-optional', 'npm-peer', 'npm-no-pkg', 'npm-unknown'], pathNot: 'node_modules/zod/' },
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
      from: { pathNot: '\\.test\\.ts$|/test-support/|/__fixtures__/' },
      to: { path: '\\.test\\.ts$|/test-support/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)(dist|node_modules|\\.turbo)/|/__fixtures__/|/fixtures/violations/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.base.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['@tokenforge/source', 'import', 'types', 'default'],
      mainFields: ['module', 'main', 'types'],
      extensions: ['.ts', '.js', '.mjs', '.json'],
    },
  },
};
