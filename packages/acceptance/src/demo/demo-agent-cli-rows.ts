import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startGateway, type GatewayCatalogueV1 } from '@tokenforge/gateway';
import type { AgentCliName } from '@tokenforge/provider-adapters';
import { startProviderSimulator } from '@tokenforge/provider-simulator';
import { findAgentCliExecutables, SIMULATOR_KEY, simulatorTargetFor } from '../agent-cli-providers/agent-cli-targets.js';
import { timedCell, type DemoCell, type DemoCellKey } from './demo-cell.js';
import { anthropicStream, anthropicSync, createDemoClients, geminiStream, geminiSync, openAiChatStream, openAiChatSync } from './demo-clients.js';
import type { DemoCall } from './demo-plans.js';

/** One agent-cli row: a coding-agent CLI as the provider, called by the client of one dialect. */
export interface DemoAgentCliPlan {
  readonly label: string;
  readonly program: AgentCliName;
  readonly model: string;
  /** The gateway route the client calls, as the operator log names it. */
  readonly route: string;
  readonly sync: DemoCall;
  readonly stream: DemoCall;
}

/** The agent-cli rows: each pinned CLI served to a client of a different dialect. They need the agent-clients install. */
export const DEMO_AGENT_CLI_PLANS: readonly DemoAgentCliPlan[] = [
  { label: 'openai client -> claude-code CLI', program: 'claude-code', model: 'demo-claude-code', route: 'POST /v1/chat/completions', sync: openAiChatSync, stream: openAiChatStream },
  { label: 'gemini client -> codex CLI', program: 'codex', model: 'demo-codex', route: 'POST /v1beta/models/{model}:', sync: geminiSync, stream: geminiStream },
  { label: 'anthropic client -> gemini-cli CLI', program: 'gemini-cli', model: 'demo-gemini-cli', route: 'POST /v1/messages', sync: anthropicSync, stream: anthropicStream },
];

/** What the agent-cli rows observed. */
export interface DemoAgentCliRow {
  readonly plan: DemoAgentCliPlan;
  readonly cells: Readonly<Partial<Record<DemoCellKey, DemoCell>>>;
  /** The families of the targets that answered, from this gateway's operator log. */
  readonly servedBy: readonly string[];
  readonly gatewayRequests: number;
}

/**
 * Runs the agent-cli rows when the agent-clients install is there: a second gateway (embedded in this process, on an
 * ephemeral loopback port) whose catalogue has one `agent-cli/v1` target per pinned CLI, each CLI pointed at an
 * in-process provider simulator as its model endpoint; every cell is an SDK call through it. Without the install
 * each cell is `skipped`, its detail saying how to install. `cache` overrides where the install is looked for.
 */
export async function runDemoAgentCliRows(emit: (plan: DemoAgentCliPlan, key: DemoCellKey, cell: DemoCell) => void, cache?: string): Promise<DemoAgentCliRow[]> {
  const found = findAgentCliExecutables(cache);
  if ('missing' in found) {
    const skipped: DemoCell = { status: 'skipped', detail: `needs the agent-clients install: ${found.missing}` };
    return DEMO_AGENT_CLI_PLANS.map((plan) => {
      for (const key of ['sync', 'stream'] as const) emit(plan, key, skipped);
      return { plan, cells: { sync: skipped, stream: skipped }, servedBy: [], gatewayRequests: 0 };
    });
  }
  const simulator = await startProviderSimulator({ credentials: { anthropicApiKey: SIMULATOR_KEY, openAiApiKey: SIMULATOR_KEY, geminiApiKey: SIMULATOR_KEY } });
  const root = mkdtempSync(join(tmpdir(), 'tokenforge-demo-agent-cli-'));
  const clientKey = 'tfg-demo-agent-cli-key-0001';
  const env: Record<string, string> = { DEMO_AGENT_CLI_CLIENT_KEY: clientKey };
  const models: GatewayCatalogueV1['models'] = DEMO_AGENT_CLI_PLANS.map((plan) => {
    const configFolder = join(root, plan.program);
    const variables = simulatorTargetFor(plan.program, simulator.url, configFolder);
    Object.assign(env, variables);
    return {
      name: plan.model,
      taskKind: 'chat',
      targets: [
        {
          provider: 'local-cli',
          family: 'agent-cli/v1',
          model: 'text',
          agentCli: { program: plan.program, executable: found.executables[plan.program], configFolder, environment: Object.keys(variables), maxConcurrentRuns: 1, maxQueuedRuns: 2, deadlineMs: 120_000 },
        },
      ],
    };
  });
  const operatorLog: string[] = [];
  const rows: Omit<DemoAgentCliRow, 'servedBy' | 'gatewayRequests'>[] = [];
  try {
    const gateway = await startGateway({
      catalogue: { version: 1, clientKeys: [{ id: 'demo', env: 'DEMO_AGENT_CLI_CLIENT_KEY' }], models },
      env,
      logger: { write: (line: string) => void operatorLog.push(line) },
    });
    try {
      const clients = createDemoClients(gateway.url, clientKey);
      for (const plan of DEMO_AGENT_CLI_PLANS) {
        const cells: Partial<Record<DemoCellKey, DemoCell>> = {};
        for (const key of ['sync', 'stream'] as const) {
          const cell = await timedCell(() => plan[key](clients, plan.model));
          cells[key] = cell;
          emit(plan, key, cell);
        }
        rows.push({ plan, cells });
      }
    } finally {
      await gateway.close();
    }
  } finally {
    await simulator.close();
    rmSync(root, { recursive: true, force: true });
  }
  const logged = operatorLog.map((line) => JSON.parse(line) as { model?: string; route?: string; target?: { family?: string } });
  return rows.map((row) => {
    const mine = logged.filter((line) => line.model === row.plan.model && (line.route ?? '').startsWith(row.plan.route));
    return { ...row, gatewayRequests: mine.length, servedBy: [...new Set(mine.flatMap((line) => (line.target?.family === undefined ? [] : [line.target.family])))].sort() };
  });
}
