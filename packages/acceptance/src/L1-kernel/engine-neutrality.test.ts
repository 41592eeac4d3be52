import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { kernelGateDirectory, repositoryRoot } from './test-support/repository.js';
import { restoreFixtureTestNames } from './test-support/run-dependency-cruiser.js';
import { scanEngineNeutrality, scanSource, type NeutralityFinding } from './test-support/scan-engine-neutrality.js';

const temporaryFolders: string[] = [];
afterAll(() => {
  for (const folder of temporaryFolders) rmSync(folder, { recursive: true, force: true });
});

function materializeNeutralityFixture(): string {
  const folder = mkdtempSync(join(tmpdir(), 'tokenforge-neutrality-'));
  temporaryFolders.push(folder);
  cpSync(join(kernelGateDirectory, 'fixtures', 'violations', 'engine-neutrality'), folder, { recursive: true });
  restoreFixtureTestNames(folder);
  return join(folder, 'packages', 'protocol-engine');
}

function describeFindings(findings: readonly NeutralityFinding[]): string {
  return findings.map((finding) => `${finding.file}:${finding.line} ${finding.rule} "${finding.match}"`).join('\n');
}

describe('engine neutrality (issue 8)', () => {
  it('finds no provider, model, tenant or host-framework name, no branch on target identity and no network client in protocol-engine production code', () => {
    const { files, findings } = scanEngineNeutrality(join(repositoryRoot, 'packages', 'protocol-engine'));
    expect(files).toContain('src/index.ts');
    expect(findings, `engine production code must stay neutral:\n${describeFindings(findings)}`).toEqual([]);
  });

  it('reports exactly the planted violations of its fixture, and skips tests and test-support', () => {
    const { files, findings } = scanEngineNeutrality(materializeNeutralityFixture());
    expect(files).toEqual(['src/dispatch/select-adapter.ts', 'src/host/route.ts', 'src/index.ts', 'src/transport/send.ts']);
    const adapter = 'src/dispatch/select-adapter.ts';
    expect(findings).toEqual([
      { file: adapter, line: 6, rule: 'provider-or-model-name', match: 'gemini' },
      { file: adapter, line: 7, rule: 'tenant', match: 'tenantid' },
      { file: adapter, line: 8, rule: 'identity-branch', match: 'provider' },
      { file: adapter, line: 8, rule: 'provider-or-model-name', match: 'openai' },
      { file: adapter, line: 9, rule: 'identity-branch', match: 'model' },
      { file: adapter, line: 9, rule: 'provider-or-model-name', match: 'claude' },
      { file: adapter, line: 10, rule: 'provider-or-model-name', match: 'gpt' },
      { file: adapter, line: 11, rule: 'provider-or-model-name', match: 'claude' },
      { file: adapter, line: 11, rule: 'provider-or-model-name', match: 'gpt' },
      { file: adapter, line: 11, rule: 'tenant', match: 'tenantid' },
      { file: adapter, line: 20, rule: 'identity-branch', match: 'providermodel' },
      { file: adapter, line: 24, rule: 'identity-branch', match: 'provider' },
      { file: 'src/host/route.ts', line: 1, rule: 'host-framework', match: 'express' },
      { file: 'src/host/route.ts', line: 2, rule: 'host-framework', match: 'next/server' },
      { file: 'src/host/route.ts', line: 2, rule: 'host-framework', match: 'nextrequest' },
      { file: 'src/host/route.ts', line: 4, rule: 'host-framework', match: 'express' },
      { file: 'src/host/route.ts', line: 4, rule: 'host-framework', match: 'nextrequest' },
      { file: 'src/transport/send.ts', line: 1, rule: 'network-client', match: 'node:https' },
      { file: 'src/transport/send.ts', line: 4, rule: 'network-client', match: 'fetch' },
      { file: 'src/transport/send.ts', line: 5, rule: 'network-client', match: 'websocket' },
      { file: 'src/transport/send.ts', line: 6, rule: 'network-client', match: 'xmlhttprequest' },
    ]);
  });

  it.each([
    ['a provider name in a comment', '/** Tuned for Anthropic. */\nexport const x = 1;\n', 'provider-or-model-name'],
    ['a model name in a template', 'export const m = (v: string) => `qwen-${v}`;\n', 'provider-or-model-name'],
    ['a camel-cased model identifier', 'export const kimiLimit = 1;\n', 'provider-or-model-name'],
    ['a network module by require', "export const h = require('undici');\n", 'network-client'],
    ['a network module by dynamic import', "export const h = () => import('node:net');\n", 'network-client'],
    ['a framework named in prose', '// Works well under Hono.\nexport const x = 1;\n', 'host-framework'],
    ['a trailing comment at the end of the file', 'export const x = 1;\n// see dashscope', 'provider-or-model-name'],
    ['a comparison of the provider field', 'export const f = (t: { provider: string }, p: string) => p !== t.provider;\n', 'identity-branch'],
    ['a regular expression run on the model id', "export const f = (t: { providerModel: string }) => /^x-/.test(t['providerModel']);\n", 'identity-branch'],
  ])('flags %s', (_case, source, rule) => {
    expect(scanSource('probe.ts', source).map((finding) => finding.rule)).toEqual([rule]);
  });

  it.each([
    ['iterator next and English words', 'export const f = (i: Iterator<number>) => i.next(); // express the next event\n'],
    ['fetch in prose', '/** The host fetches results and may fetch again. */\nexport const x = 1;\n'],
    ['tenant in prose', '/** The engine knows no tenants. */\nexport const x = 1;\n'],
    ['words that merely contain a short name', "export const grokking = 'awsome veolia glmnet';\n"],
  ])('leaves %s alone', (_case, source) => {
    expect(scanSource('probe.ts', source)).toEqual([]);
  });
});
