import { readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { kernelGateDirectory, listFiles, repositoryRoot } from './test-support/repository.js';
import {
  runDependencyCruiser,
  runDependencyCruiserCli,
  withFixtureWorkspaces,
  type CruiseReport,
  type ReportedViolation,
} from './test-support/run-dependency-cruiser.js';

const violationsDirectory = join(kernelGateDirectory, 'fixtures', 'violations');
const rules = (
  createRequire(import.meta.url)(join(repositoryRoot, '.dependency-cruiser.cjs')) as {
    forbidden: { name: string; severity: string }[];
  }
).forbidden;
const ruleNames = rules.map((rule) => rule.name);

const engine = 'packages/protocol-engine/src';
const modelProtocol = 'packages/model-protocol/src';
const adapters = 'packages/provider-adapters/src';

/**
 * What each fixture must report, and nothing more. Each fixture also holds allowed imports (root entries,
 * relative files, test files, test-support, `testing/`, another package's builtins) that must stay silent.
 * Where a planted import breaks two rules at once (a builtin in the engine is both "a builtin" and
 * "not model-protocol"), both are listed.
 */
const expectedViolations: Record<string, ReportedViolation[]> = {
  'engine-imports-only-model-protocol': [
    { rule: 'engine-imports-only-model-protocol', from: `${engine}/index.ts`, to: 'packages/provider-adapters/src/index.ts' },
    { rule: 'engine-imports-only-model-protocol', from: `${engine}/index.ts`, to: 'zod' },
  ],
  'engine-no-builtins': [
    { rule: 'engine-imports-only-model-protocol', from: `${engine}/index.ts`, to: 'crypto' },
    { rule: 'engine-no-builtins', from: `${engine}/index.ts`, to: 'crypto' },
  ],
  'no-deep-imports-across-packages': [
    {
      rule: 'no-deep-imports-across-packages',
      from: `${adapters}/index.ts`,
      to: 'packages/model-protocol/src/internal/contract-version.ts',
    },
  ],
  'no-unresolvable-imports': [
    {
      rule: 'no-unresolvable-imports',
      from: `${adapters}/index.ts`,
      to: '@tokenforge/model-protocol/src/internal/contract-version.js',
    },
  ],
  'web-standard-packages-no-builtins': [
    { rule: 'model-protocol-imports-only-zod', from: `${modelProtocol}/index.ts`, to: 'buffer' },
    { rule: 'web-standard-packages-no-builtins', from: `${modelProtocol}/index.ts`, to: 'buffer' },
    { rule: 'web-standard-packages-no-builtins', from: `${adapters}/index.ts`, to: 'events' },
  ],
  'model-protocol-imports-only-zod': [
    { rule: 'model-protocol-imports-only-zod', from: `${modelProtocol}/index.ts`, to: 'fast-check' },
    { rule: 'model-protocol-imports-only-zod', from: `${modelProtocol}/index.ts`, to: 'packages/protocol-engine/src/index.ts' },
  ],
  'simulator-independent-oracle': [
    { rule: 'simulator-independent-oracle', from: 'packages/provider-simulator/src/index.ts', to: 'packages/provider-adapters/src/index.ts' },
  ],
  'console-imports-gateway-types-only': [
    { rule: 'console-imports-gateway-types-only', from: 'packages/console/src/main.ts', to: 'packages/gateway/src/index.ts' },
  ],
  'no-cycles': [
    {
      rule: 'no-cycles',
      from: 'packages/http-transport/src/apply-policy.ts',
      to: 'packages/http-transport/src/open-connection.ts',
    },
  ],
  'production-never-imports-tests': [
    { rule: 'production-never-imports-tests', from: `${adapters}/index.ts`, to: `${adapters}/decode-stream.test.ts` },
    {
      rule: 'production-never-imports-tests',
      from: `${adapters}/index.ts`,
      to: `${adapters}/test-support/fake-transport.ts`,
    },
  ],
};

const fixtureRules = Object.keys(expectedViolations);
const reports = new Map<string, CruiseReport>();
let repositoryReport: CruiseReport;
let repositoryCli: { exitCode: number; stdout: string };
let fixtureCli: { exitCode: number; stdout: string };

beforeAll(async () => {
  // Three processes in all (one API run over every tree, two CLI runs): dependency-cruiser starts slowly.
  await withFixtureWorkspaces(
    fixtureRules.map((rule) => join(violationsDirectory, rule)),
    async (workspaces) => {
      const [cruised, cliOnRepository, cliOnFixture] = await Promise.all([
        runDependencyCruiser([...workspaces, repositoryRoot]),
        runDependencyCruiserCli(repositoryRoot),
        runDependencyCruiserCli(workspaces[fixtureRules.indexOf('engine-no-builtins')] ?? ''),
      ]);
      fixtureRules.forEach((rule, index) => reports.set(rule, cruised[index] as CruiseReport));
      repositoryReport = cruised[fixtureRules.length] as CruiseReport;
      repositoryCli = cliOnRepository;
      fixtureCli = cliOnFixture;
    },
  );
}, 120_000);

describe('dependency-cruiser rules', () => {
  it('has one violation fixture for every rule in .dependency-cruiser.cjs, and no fixture without a rule', () => {
    const fixtureFolders = readdirSync(violationsDirectory, { withFileTypes: true })
      .filter((entry) => entry.isDirectory() && entry.name !== 'engine-neutrality')
      .map((entry) => entry.name);
    expect(fixtureFolders.sort()).toEqual([...ruleNames].sort());
    expect([...fixtureRules].sort()).toEqual([...ruleNames].sort());
  });

  it('makes every rule an error, so a violation fails the command (warnings exit 0)', () => {
    expect(rules.filter((rule) => rule.severity !== 'error').map((rule) => rule.name)).toEqual([]);
  });

  it.each(fixtureRules)('rule %s reports exactly the planted violations of its fixture', (rule) => {
    const report = reports.get(rule);
    expect(report?.violations.some((violation) => violation.rule === rule)).toBe(true);
    expect(report?.violations).toEqual(expectedViolations[rule]);
  });

  it('fails the lint:deps command (non-zero exit) on a violating tree', () => {
    expect(fixtureCli.exitCode).not.toBe(0);
    expect(fixtureCli.stdout).toContain('engine-no-builtins');
  });
});

describe('the real repository', () => {
  it('is clean under the lint:deps command, which exits 0', () => {
    expect(repositoryCli.stdout).toContain('no dependency violations found');
    expect(repositoryCli.exitCode).toBe(0);
  });

  it('reports no violation and never cruises the violation fixtures', () => {
    expect(listFiles(violationsDirectory).length).toBeGreaterThan(0);
    expect(repositoryReport.violations).toEqual([]);
    expect(repositoryReport.modules.filter((module) => module.includes('/fixtures/violations/'))).toEqual([]);
    expect(repositoryReport.modules).toContain('packages/protocol-engine/src/index.ts');
  });
});
