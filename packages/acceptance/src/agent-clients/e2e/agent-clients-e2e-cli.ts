/**
 * `npx --yes pnpm@12.4.2 test:agent-clients [--client claude,codex] [--scenario plain,tool,thinking]`: installs (or
 * reuses) the pinned CLIs, starts the provider simulator, and runs every CLI against it in its own dialect, asserting
 * on what the CLI itself prints: a plain prompt gets the simulator's text; in the tool scenario the CLI runs the tool
 * the scripted model calls and then prints the scripted final text; the thinking scenario (effort set) gets the
 * reasoning scenario's answer. Prints a table and exits 1 when any cell fails. Not part of `check` (1.3 GB of CLIs).
 */
import { dirname, join } from 'node:path';
import { SIMULATOR_SCENARIO_HEADER, startProviderSimulator } from '@tokenforge/provider-simulator';
import { AGENT_CLIENT_SCENARIOS, AGENT_CLIENTS, FAKE_API_KEY, type AgentClient, type AgentClientScenario } from '../capture/agent-client-runs.js';
import { installAgentClients, runAgentClient } from '../capture/run-agent-client.js';
import { readAgentClientOutput, type AgentClientOutput } from './read-agent-client-output.js';

/** The tool each CLI is asked to run (one of its own read-only tools) and the arguments the scripted model passes. */
const SCRIPTED_TOOLS: Record<AgentClient, { readonly tool: string; readonly reported: string }> = {
  claude: { tool: 'Glob', reported: 'Glob' },
  codex: { tool: 'exec', reported: 'command_execution' },
  gemini: { tool: 'list_directory', reported: 'list_directory' },
  opencode: { tool: 'glob', reported: 'glob' },
};
const TOOL_ARGUMENTS = {
  Glob: { pattern: '*' },
  exec: 'text(await tools.exec_command({ cmd: "ls" }));',
  list_directory: { dir_path: '.' },
  glob: { pattern: '*' },
};

/** Simulator scenario (as the model name) and the final text each scenario must print. */
const EXPECTATIONS: Record<AgentClientScenario, { readonly model: (client: AgentClient) => string; readonly text: string }> = {
  plain: { model: () => 'text', text: 'Hello from the simulator.' },
  tool: { model: (client) => `scripted.${SCRIPTED_TOOLS[client].tool}`, text: 'The tool returned its result.' },
  thinking: { model: () => 'reasoning', text: 'The answer is 42.' },
};

function option(name: string): string[] | undefined {
  const position = process.argv.indexOf(name);
  return position < 0 ? undefined : (process.argv[position + 1] ?? '').split(',');
}

function verdict(client: AgentClient, scenario: AgentClientScenario, code: number | null, output: AgentClientOutput): string | undefined {
  if (code !== 0) return `exit ${code}`;
  if (!output.success) return 'the CLI did not report success';
  if (output.finalText?.trim() !== EXPECTATIONS[scenario].text) return `final text ${JSON.stringify(output.finalText?.slice(0, 80))}`;
  if (scenario === 'tool' && !output.tools.some((tool) => tool.name === SCRIPTED_TOOLS[client].reported && tool.ok)) return `tools ${JSON.stringify(output.tools)}`;
  return undefined;
}

async function main(): Promise<void> {
  const clients = (option('--client') ?? [...AGENT_CLIENTS]) as AgentClient[];
  const scenarios = (option('--scenario') ?? [...AGENT_CLIENT_SCENARIOS]) as AgentClientScenario[];
  const installed = installAgentClients();
  const runRoot = join(dirname(installed.cacheDir), 'e2e', new Date().toISOString().replace(/[:.]/g, '-'));
  const simulator = await startProviderSimulator({
    credentials: { anthropicApiKey: FAKE_API_KEY, openAiApiKey: FAKE_API_KEY, geminiApiKey: FAKE_API_KEY },
    scriptedToolArguments: TOOL_ARGUMENTS,
  });
  const rows: string[] = [];
  let failed = 0;
  try {
    for (const client of clients) {
      const version = installed.clients[client].version ?? '?';
      for (const scenario of scenarios) {
        // Codex keeps its default model (its tool set depends on the model's metadata) and picks the scenario by header.
        const pick = client === 'codex' ? { headers: { [SIMULATOR_SCENARIO_HEADER]: EXPECTATIONS[scenario].model(client) } } : { model: EXPECTATIONS[scenario].model(client) };
        const result = await runAgentClient({ installed, client, scenario, baseUrl: simulator.url, folder: join(runRoot, client, scenario), timeoutMs: 180_000, ...pick });
        const output = readAgentClientOutput(client, result.stdout);
        const problem = verdict(client, scenario, result.code, output);
        if (problem !== undefined) failed += 1;
        rows.push(`| ${client} ${version} | ${scenario} | ${problem === undefined ? 'pass' : `FAIL: ${problem}`} | ${output.tools.map((tool) => `${tool.name}${tool.ok ? '' : ' (failed)'}`).join(', ')} | ${result.seconds} s |`);
        console.error(`${client}/${scenario}: ${problem ?? 'pass'} (${result.folder})`);
      }
    }
  } finally {
    await simulator.close();
  }
  console.log(['| CLI | scenario | result | tools run | time |', '|---|---|---|---|---|', ...rows].join('\n'));
  if (failed > 0) process.exitCode = 1;
}

main().catch((error: unknown) => {
  console.error('agent-client end-to-end run failed:', error instanceof Error ? error.message : typeof error);
  process.exitCode = 1;
});
