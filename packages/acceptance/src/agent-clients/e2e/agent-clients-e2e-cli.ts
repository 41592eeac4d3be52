/**
 * `npx --yes pnpm@12.4.2 test:agent-clients [--client claude,codex] [--scenario plain,tool,thinking]
 * [--via simulator|gateway] [--target same|<family>]`: installs (or reuses) the pinned CLIs, starts the provider
 * simulator, and runs every CLI against it (directly, or through a gateway process whose catalogue sends each CLI's
 * model to a simulator target of its own dialect or of `--target`'s family), asserting
 * on what the CLI itself prints: a plain prompt gets the simulator's text; in the tool scenario the CLI runs the tool
 * the scripted model calls and then prints the scripted final text; the thinking scenario (effort set) gets the
 * reasoning scenario's answer. Prints a table and exits 1 when any cell fails. Not part of `check` (1.3 GB of CLIs).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { SIMULATOR_SCENARIO_HEADER, startProviderSimulator } from '@tokenforge/provider-simulator';
import { AGENT_CLIENT_SCENARIOS, AGENT_CLIENTS, FAKE_API_KEY, type AgentClient, type AgentClientScenario } from '../capture/agent-client-runs.js';
import { installAgentClients, runAgentClient } from '../capture/run-agent-client.js';
import { startGatewayProcess, type GatewayProcess } from './gateway-process.js';
import { readAgentClientOutput, type AgentClientOutput } from './read-agent-client-output.js';

/** The dialect each CLI speaks. */
const DIALECTS: Record<AgentClient, string> = {
  claude: 'anthropic-messages/v1',
  codex: 'openai-responses/v1',
  gemini: 'gemini-generate-content/v1',
  opencode: 'openai-chat/v1',
};
/** Codex's default model at the pinned version (see its captures): its code-mode tool set comes with it. */
const CODEX_DEFAULT_MODEL = 'gpt-6.2-sol';
const CLIENT_KEY_ENV = 'TOKENFORGE_AGENT_CLIENTS_KEY';
const SIMULATOR_KEY_ENV = 'TOKENFORGE_AGENT_CLIENTS_SIMULATOR_KEY';

/** The public model name a CLI asks the gateway for in a scenario. */
function gatewayModel(client: AgentClient, scenario: AgentClientScenario): string {
  return client === 'codex' && scenario === 'tool' ? CODEX_DEFAULT_MODEL : `${client}-${scenario}`;
}

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
  const via = option('--via')?.[0] ?? 'simulator';
  const target = option('--target')?.[0] ?? 'same';
  if (via !== 'simulator' && via !== 'gateway') throw new Error('--via takes simulator or gateway');
  if (via === 'simulator' && target !== 'same') throw new Error('--target needs --via gateway');
  const installed = installAgentClients();
  const runRoot = join(dirname(installed.cacheDir), 'e2e', new Date().toISOString().replace(/[:.]/g, '-'));
  mkdirSync(runRoot, { recursive: true });
  const simulator = await startProviderSimulator({
    credentials: { anthropicApiKey: FAKE_API_KEY, openAiApiKey: FAKE_API_KEY, geminiApiKey: FAKE_API_KEY },
    scriptedToolArguments: TOOL_ARGUMENTS,
  });
  let gateway: GatewayProcess | undefined;
  const rows: string[] = [];
  let failed = 0;
  try {
    if (via === 'gateway') {
      const models = clients.flatMap((client) =>
        scenarios.map((scenario) => {
          const family = target === 'same' ? DIALECTS[client] : target;
          return {
            name: gatewayModel(client, scenario),
            taskKind: 'chat',
            targets: [{ provider: 'provider-simulator', family, model: EXPECTATIONS[scenario].model(client), baseUrl: simulator.baseUrlFor(family) ?? simulator.url, credentials: { apiKeyEnv: SIMULATOR_KEY_ENV }, network: { allowLoopback: true } }],
          };
        }),
      );
      const catalogue = { version: 1, clientKeys: [{ id: 'agent-clients', env: CLIENT_KEY_ENV }], models };
      gateway = await startGatewayProcess({ folder: runRoot, catalogue, env: { [CLIENT_KEY_ENV]: FAKE_API_KEY, [SIMULATOR_KEY_ENV]: FAKE_API_KEY } });
      console.error(`gateway at ${gateway.url} (targets: ${target === 'same' ? 'each CLI\'s own dialect' : target})`);
    }
    for (const client of clients) {
      const version = installed.clients[client].version ?? '?';
      for (const scenario of scenarios) {
        // Codex keeps its default model (its tool set depends on the model's metadata) and picks the scenario by header.
        const direct = client === 'codex' ? { headers: { [SIMULATOR_SCENARIO_HEADER]: EXPECTATIONS[scenario].model(client) } } : { model: EXPECTATIONS[scenario].model(client) };
        const pick = gateway === undefined ? direct : { model: gatewayModel(client, scenario) };
        const result = await runAgentClient({ installed, client, scenario, baseUrl: gateway?.url ?? simulator.url, folder: join(runRoot, client, scenario), timeoutMs: 180_000, ...pick });
        const output = readAgentClientOutput(client, result.stdout);
        const problem = verdict(client, scenario, result.code, output);
        if (problem !== undefined) failed += 1;
        rows.push(`| ${client} ${version} | ${scenario} | ${problem === undefined ? 'pass' : `FAIL: ${problem}`} | ${output.tools.map((tool) => `${tool.name}${tool.ok ? '' : ' (failed)'}`).join(', ')} | ${result.seconds} s |`);
        console.error(`${client}/${scenario}: ${problem ?? 'pass'} (${result.folder})`);
        if (problem !== undefined) console.error(`  ${`${result.stdout}${result.stderr}`.trim().slice(-400).replace(/\n/g, '\n  ')}`);
      }
    }
  } finally {
    if (gateway !== undefined) writeFileSync(join(runRoot, 'gateway.log'), gateway.log());
    await gateway?.close();
    await simulator.close();
  }
  console.log(`via ${via}${via === 'gateway' ? `, targets ${target === 'same' ? 'of each CLI\'s own dialect' : target}` : ''}`);
  console.log(['| CLI | scenario | result | tools run | time |', '|---|---|---|---|---|', ...rows].join('\n'));
  if (failed > 0) process.exitCode = 1;
}

main().catch((error: unknown) => {
  console.error('agent-client end-to-end run failed:', error instanceof Error ? error.message : typeof error);
  process.exitCode = 1;
});
