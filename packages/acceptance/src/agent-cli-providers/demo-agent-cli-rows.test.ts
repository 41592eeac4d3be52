/**
 * The demo's agent-cli rows with the agent-clients install: each pinned CLI answers its row's client, sync and
 * stream, through a gateway whose operator log names `agent-cli/v1` as the family that served it. Runs where the
 * agent-clients cache is, and in the agent-clients phase of `.ci/run`, where a missing cache fails. (Without the
 * install the rows are skipped with the reason: demo/run-gateway-demo.test.ts and demo/demo-cli.test.ts.)
 */
import { describe, expect, it } from 'vitest';
import { DEMO_AGENT_CLI_PLANS, runDemoAgentCliRows } from '../demo/demo-agent-cli-rows.js';
import { findAgentCliExecutables } from './agent-cli-targets.js';

const found = findAgentCliExecutables();
if ('missing' in found) {
  if (process.env.TOKENFORGE_AGENT_CLIENTS_PHASE === '1') throw new Error(`the agent-clients phase needs the pinned CLIs: ${found.missing}`);
  console.warn(`SKIPPED the demo's agent-cli rows with the CLIs: ${found.missing}`);
}

describe.skipIf('missing' in found)('the demo\'s agent-cli rows with the agent-clients install', () => {
  it('pass every cell, each served by agent-cli/v1', async () => {
    const lines: string[] = [];
    const rows = await runDemoAgentCliRows((plan, key, cell) => lines.push(`${plan.label} ${key} ${cell.status} ${cell.detail ?? ''}`));
    expect(rows.map((row) => row.plan.label)).toEqual(DEMO_AGENT_CLI_PLANS.map((plan) => plan.label));
    for (const row of rows) {
      expect([row.cells.sync?.status, row.cells.stream?.status], lines.join('\n')).toEqual(['pass', 'pass']);
      expect(row.servedBy).toEqual(['agent-cli/v1']);
      expect(row.gatewayRequests).toBe(2);
    }
  }, 180_000);
});
