import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEMO_AGENT_CLI_PLANS } from './demo-agent-cli-rows.js';
import { openAiChatSync } from './demo-clients.js';
import { DEMO_CROSS_DIALECT_PLANS, DEMO_FAMILY_PLANS } from './demo-plans.js';
import { formatSupportMatrix } from './format-support-matrix.js';
import { DEMO_CELL_KEYS, runGatewayDemo, type DemoReport } from './run-gateway-demo.js';

function declaredCells(report: DemoReport): number {
  return report.rows.reduce((count, row) => count + DEMO_CELL_KEYS.filter((key) => row.cells[key].status !== 'n/a').length, 0);
}

describe('runGatewayDemo: every cell over real HTTP through the embedded gateway', () => {
  it('passes every declared cell of every family the gateway serves, each called by its own dialect, plus the cross-dialect rows', async () => {
    const lines: string[] = [];
    // As on a fresh machine: no agent-clients install, so the agent-cli rows are skipped with the reason.
    const noAgentClients = mkdtempSync(join(tmpdir(), 'demo-no-agent-clients-'));
    const report = await runGatewayDemo({ log: (line) => lines.push(line), agentClientsCache: noAgentClients }).finally(() => rmSync(noAgentClients, { recursive: true, force: true }));
    const familyRows = report.rows.filter((row) => !row.crossDialect && row.needs === undefined);
    expect(familyRows.map((row) => row.label)).toEqual(report.families);
    expect(report.families).toEqual(expect.arrayContaining(Object.keys(DEMO_FAMILY_PLANS)));
    const agentCliRows = report.rows.filter((row) => row.needs === 'agent-clients');
    expect(agentCliRows.map((row) => row.label)).toEqual(DEMO_AGENT_CLI_PLANS.map((plan) => plan.label));
    for (const row of agentCliRows) {
      expect([row.cells.sync, row.cells.stream]).toEqual([0, 1].map(() => expect.objectContaining({ status: 'skipped', detail: expect.stringContaining('needs the agent-clients install') })));
    }
    expect(lines.filter((line) => line.startsWith('skip '))).toHaveLength(2 * DEMO_AGENT_CLI_PLANS.length);
    for (const row of report.rows.filter((candidate) => candidate.needs === undefined)) {
      expect(DEMO_CELL_KEYS.some((key) => row.cells[key].status === 'pass'), row.label).toBe(true);
      expect(DEMO_CELL_KEYS.filter((key) => row.cells[key].status === 'fail').map((key) => `${row.label} ${key}: ${row.cells[key].detail}`)).toEqual([]);
    }
    expect(report.ok).toBe(true);
    expect(lines[0]).toMatch(/^gateway listening on http:\/\/127\.0\.0\.1:\d+ /);
    const matrix = formatSupportMatrix(report);
    for (const row of report.rows) expect(matrix).toContain(row.label);
  }, 120_000);

  it('reached the gateway on each row\'s own route and the provider behind it: the gateway\'s operator log names the family that served each row', async () => {
    const report = await runGatewayDemo({ agentCliRows: false });
    for (const row of report.rows) {
      expect(row.gatewayRequests, row.label).toBeGreaterThanOrEqual(DEMO_CELL_KEYS.filter((key) => row.cells[key].status === 'pass').length);
      expect(row.servedBy, row.label).toEqual([row.targetFamily]);
    }
    expect(report.providerRequests).toBeGreaterThanOrEqual(declaredCells(report));
    const cross = report.rows.filter((row) => row.crossDialect);
    expect(cross.map((row) => [row.label, row.servedBy])).toEqual([
      ['anthropic client -> openai-chat', ['openai-chat/v1']],
      ['responses client -> anthropic', ['anthropic-messages/v1']],
      ['gemini client -> openai-chat', ['openai-chat/v1']],
    ]);
    expect(cross.every((row) => row.cells.sync.status === 'pass' && row.cells.stream.status === 'pass')).toBe(true);
    // The async rows used the whole jobs API: create, get (polls included), list and, for DashScope, cancel.
    const jobsRows = report.rows.filter((row) => DEMO_FAMILY_PLANS[row.label]?.jobs !== undefined);
    expect(jobsRows.map((row) => [row.label, row.cells.cancel.status])).toEqual([
      ['dashscope-tasks/v1', 'pass'],
      ['kling-video/v1', 'n/a'],
    ]);
    for (const row of jobsRows) expect(row.gatewayRequests, row.label).toBeGreaterThanOrEqual(row.cells.cancel.status === 'pass' ? 6 : 4);
    // Kling echoes the idempotency key, so the caller's list holds the job it just made.
    expect(jobsRows.find((row) => row.label === 'kling-video/v1')?.cells.list.detail).toContain('the new one among them');
    // The gateway is gone once the demo returns.
    await expect(fetch(`${report.gatewayUrl}/healthz`)).rejects.toThrow();
  }, 120_000);

  it('fails a cell (ok false) when the gateway refuses the call, and a row when a family has no plan', async () => {
    const family = 'openai-chat/v1';
    const plans = { ...DEMO_FAMILY_PLANS };
    plans[family] = { ...DEMO_FAMILY_PLANS[family]!, sync: (clients) => openAiChatSync(clients, 'no-such-model') };
    delete plans['cohere-rerank/v1'];
    const report = await runGatewayDemo({ plans, crossDialectPlans: DEMO_CROSS_DIALECT_PLANS.slice(0, 1), agentCliRows: false });
    const row = report.rows.find((candidate) => candidate.label === family);
    expect(row?.cells.sync).toMatchObject({ status: 'fail', detail: expect.stringMatching(/^HTTP 404 /) });
    expect(row?.cells.stream.status).toBe('pass');
    expect(report.rows.find((candidate) => candidate.label === 'cohere-rerank/v1')?.cells.sync).toMatchObject({
      status: 'fail',
      detail: 'no demo plan for this family',
    });
    expect(report.ok).toBe(false);
  }, 120_000);
});
