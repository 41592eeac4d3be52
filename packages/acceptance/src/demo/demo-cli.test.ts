import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repositoryRoot } from '../L1-kernel/test-support/repository.js';
import { runCommand } from '../L1-kernel/test-support/run-command.js';
import { DEMO_AGENT_CLI_PLANS } from './demo-agent-cli-rows.js';
import { DEMO_CROSS_DIALECT_PLANS, DEMO_FAMILY_PLANS } from './demo-plans.js';

describe('the demo command (the README\'s first command after the install)', () => {
  it('is the root demo script, which runs with tsx and no flag, exits 0 and prints the matrix with every row (without the agent-clients install: those rows skipped with the reason)', { timeout: 120_000 }, async () => {
    const manifest = JSON.parse(readFileSync(join(repositoryRoot, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
    expect(manifest.scripts.demo).toBe('tsx packages/acceptance/src/demo/demo-cli.ts');
    // A fresh machine: no agent-clients install (an empty cache folder), so the agent-cli rows are skipped, not failed.
    const noAgentClients = mkdtempSync(join(tmpdir(), 'demo-no-agent-clients-'));
    const run = await runCommand(join(repositoryRoot, 'node_modules', '.bin', 'tsx'), ['packages/acceptance/src/demo/demo-cli.ts'], {
      cwd: repositoryRoot,
      env: { ...process.env, NO_COLOR: '1', TOKENFORGE_AGENT_CLIENTS_CACHE: noAgentClients },
    }).finally(() => rmSync(noAgentClients, { recursive: true, force: true }));
    // On failure, the message is the demo's whole output: the failing cell's line says what went wrong.
    const output = `demo exited ${run.exitCode}\n--- stdout ---\n${run.stdout}\n--- stderr ---\n${run.stderr}`;
    expect(run.stderr, output).toBe('');
    expect(run.exitCode, output).toBe(0);
    const lines = run.stdout.split('\n');
    expect(lines[0]).toMatch(/^gateway listening on http:\/\/127\.0\.0\.1:\d+ /);
    const matrixStart = lines.findIndex((line) => line.startsWith('client -> target'));
    expect(matrixStart).toBeGreaterThan(0);
    const matrixRows = lines.slice(matrixStart + 2, lines.findIndex((line, index) => index > matrixStart && line.length === 0));
    const labels = [...Object.keys(DEMO_FAMILY_PLANS).sort(), ...DEMO_CROSS_DIALECT_PLANS.map((plan) => plan.label), ...DEMO_AGENT_CLI_PLANS.map((plan) => plan.label)];
    expect(matrixRows.map((line) => labels.find((label) => line.startsWith(`${label} `)))).toEqual(labels);
    expect(matrixRows.join('\n'), output).not.toContain('FAIL');
    for (const plan of DEMO_AGENT_CLI_PLANS) expect(matrixRows.find((line) => line.startsWith(`${plan.label} `))).toMatch(/ skipped +skipped /);
    expect(lines.find((line) => line.startsWith('skipped (not failed): '))).toContain('needs the agent-clients install');
    expect(lines.some((line) => /^all declared cells passed in \d+\.\d s \(\d+ provider requests behind them\)$/.test(line))).toBe(true);
  });
});
