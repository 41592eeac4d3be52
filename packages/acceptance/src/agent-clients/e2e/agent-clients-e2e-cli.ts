/**
 * `npx --yes pnpm@12.4.2 test:agent-clients [--client claude,codex] [--scenario plain,tool,thinking]
 * [--via simulator|gateway] [--target same|<family>] [--websocket] [--matrix] [--write <file>]`: installs (or reuses) the pinned
 * CLIs, starts the provider
 * simulator, and runs every CLI against it (directly, or through a gateway process whose catalogue sends each CLI's
 * model to a simulator target of its own dialect or of `--target`'s family), asserting
 * on what the CLI itself prints: a plain prompt gets the simulator's text; in the tool scenario the CLI runs the tool
 * the scripted model calls and then prints the scripted final text; the thinking scenario (effort set) gets the
 * reasoning scenario's answer. `--matrix` runs, through the gateway, every CLI to its own dialect and the
 * cross-dialect pairs of {@link MATRIX}, and Codex over its Responses WebSocket (`supports_websockets = true`, the only
 * config change; `--websocket` does the same for any run): such a cell also fails when the gateway's operator log shows
 * a `POST /v1/responses` or no `WS /v1/responses` turn (Codex falls back to HTTP silently). Prints a table (CLI x target family x scenario; `--write` also writes it to
 * a file) and exits 1 when any cell fails. Not part of `check` (1.3 GB of CLIs).
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

/** One result cell: CLI (with version) x target family x scenario. */
interface ResultRow {
  readonly client: string;
  /** `http`, or `websocket` for Codex with `supports_websockets = true`. */
  readonly transport: 'http' | 'websocket';
  readonly family: string;
  readonly scenario: AgentClientScenario;
  readonly problem: string | undefined;
  readonly tools: string;
  readonly seconds: number;
  /** Through the gateway: ms from the CLI's start until its first model request reached the gateway. */
  readonly firstRequestMs: number | undefined;
  /** Through the gateway: the model requests of the run, by operator-log route (`WS /v1/responses: 2`). */
  readonly routes: string;
}

/** The operator log's request lines the gateway wrote from `offset` on. */
interface RequestLine {
  readonly route: string;
  readonly outcome: string;
  readonly time: number;
  readonly totalMs: number;
  /** WebSocket turns: the connection and whether the turn named `previous_response_id` (expanded by the gateway). */
  readonly websocket?: { readonly connection: string; readonly continued: boolean };
}

function requestLines(log: string, offset: number): RequestLine[] {
  return log
    .slice(offset)
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as RequestLine & { message?: string })
    .filter((line) => line.message === 'request');
}

const WEBSOCKET_ROUTE = 'WS /v1/responses';
const POST_ROUTE = 'POST /v1/responses';

/**
 * Codex with its WebSocket on: every turn must have gone over the socket (it falls back to HTTP silently), and the
 * tool round trip over one connection, its result sent as a `previous_response_id` continuation.
 */
function websocketProblem(scenario: AgentClientScenario, lines: readonly RequestLine[]): string | undefined {
  const posts = lines.filter((line) => line.route === POST_ROUTE).length;
  if (posts > 0) return `${posts} POST /v1/responses (fell back to HTTP)`;
  const turns = lines.filter((line) => line.route === WEBSOCKET_ROUTE && line.outcome !== 'warmup');
  if (scenario !== 'tool') return turns.length < 1 ? 'no WebSocket turn' : undefined;
  const connections = new Set(turns.map((line) => line.websocket?.connection));
  if (turns.length < 2 || connections.size !== 1) return `${turns.length} WebSocket turns over ${connections.size} connections, expected at least 2 over 1`;
  return turns.slice(1).every((line) => line.websocket?.continued === true) ? undefined : 'a tool turn did not continue the previous response';
}

/**
 * The pairs `--matrix` runs: every CLI to a target of its own dialect, and the cross-dialect pairs of issue 16
 * (Claude Code to openai-chat and gemini, Codex to anthropic, Gemini CLI to openai-chat).
 */
const MATRIX: readonly { readonly target: string; readonly clients: readonly AgentClient[]; readonly websocket?: boolean }[] = [
  { target: 'same', clients: AGENT_CLIENTS },
  { target: 'openai-chat/v1', clients: ['claude', 'gemini'] },
  { target: 'gemini-generate-content/v1', clients: ['claude'] },
  { target: 'anthropic-messages/v1', clients: ['codex'] },
  // Issue 32: Codex over its Responses WebSocket, same and cross dialect.
  { target: 'same', clients: ['codex'], websocket: true },
  { target: 'anthropic-messages/v1', clients: ['codex'], websocket: true },
];

async function runTarget(
  installed: ReturnType<typeof installAgentClients>,
  runRoot: string,
  clients: readonly AgentClient[],
  scenarios: readonly AgentClientScenario[],
  via: string,
  target: string,
  websocket: boolean,
): Promise<ResultRow[]> {
  const simulator = await startProviderSimulator({
    credentials: { anthropicApiKey: FAKE_API_KEY, openAiApiKey: FAKE_API_KEY, geminiApiKey: FAKE_API_KEY },
    scriptedToolArguments: TOOL_ARGUMENTS,
  });
  let gateway: GatewayProcess | undefined;
  const rows: ResultRow[] = [];
  const folder = join(runRoot, `${target === 'same' ? 'same' : target.replace(/\//g, '-')}${websocket ? '-websocket' : ''}`);
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
      mkdirSync(folder, { recursive: true });
      gateway = await startGatewayProcess({ folder, catalogue, env: { [CLIENT_KEY_ENV]: FAKE_API_KEY, [SIMULATOR_KEY_ENV]: FAKE_API_KEY } });
      console.error(`gateway at ${gateway.url} (targets: ${target === 'same' ? 'each CLI\'s own dialect' : target})`);
    }
    for (const client of clients) {
      const version = installed.clients[client].version ?? '?';
      for (const scenario of scenarios) {
        // Codex keeps its default model (its tool set depends on the model's metadata) and picks the scenario by header.
        const direct = client === 'codex' ? { headers: { [SIMULATOR_SCENARIO_HEADER]: EXPECTATIONS[scenario].model(client) } } : { model: EXPECTATIONS[scenario].model(client) };
        const pick = gateway === undefined ? direct : { model: gatewayModel(client, scenario) };
        const overSocket = websocket && client === 'codex';
        const logOffset = gateway?.log().length ?? 0;
        const startedAt = Date.now();
        const result = await runAgentClient({ installed, client, scenario, baseUrl: gateway?.url ?? simulator.url, folder: join(folder, client, scenario), timeoutMs: 180_000, websockets: overSocket, ...pick });
        // pino writes off the response path: give the last line a moment to arrive.
        await new Promise((resolvePromise) => setTimeout(resolvePromise, 300));
        const lines = gateway === undefined ? [] : requestLines(gateway.log(), logOffset);
        const output = readAgentClientOutput(client, result.stdout);
        const problem = verdict(client, scenario, result.code, output) ?? (overSocket && gateway !== undefined ? websocketProblem(scenario, lines) : undefined);
        const family = via === 'simulator' ? `${DIALECTS[client]} (simulator)` : target === 'same' ? DIALECTS[client] : target;
        const first = lines[0];
        const routes = [...new Set(lines.map((line) => line.route))].map((route) => `${route}: ${lines.filter((line) => line.route === route).length}`).join(', ');
        rows.push({
          client: `${client} ${version}`,
          transport: overSocket ? 'websocket' : 'http',
          family,
          scenario,
          problem,
          tools: output.tools.map((tool) => `${tool.name}${tool.ok ? '' : ' (failed)'}`).join(', '),
          seconds: result.seconds,
          firstRequestMs: first === undefined ? undefined : first.time - first.totalMs - startedAt,
          routes,
        });
        console.error(`${client}/${scenario} -> ${family}${overSocket ? ' (WebSocket)' : ''}: ${problem ?? 'pass'} (${result.folder})`);
        if (problem !== undefined) console.error(`  ${`${result.stdout}${result.stderr}`.trim().slice(-400).replace(/\n/g, '\n  ')}`);
      }
    }
  } finally {
    if (gateway !== undefined) writeFileSync(join(folder, 'gateway.log'), gateway.log());
    await gateway?.close();
    await simulator.close();
  }
  return rows;
}

/** The result table: CLI x target family x scenario. */
function renderResultTable(rows: readonly ResultRow[]): string {
  return [
    '| CLI | transport | target family | scenario | result | tools run | gateway routes | first request | time |',
    '|---|---|---|---|---|---|---|---|---|',
    ...rows.map(
      (row) =>
        `| ${row.client} | ${row.transport} | \`${row.family}\` | ${row.scenario} | ${row.problem === undefined ? 'pass' : `FAIL: ${row.problem}`} | ${row.tools} | ${row.routes} | ${row.firstRequestMs === undefined ? '' : `${(row.firstRequestMs / 1000).toFixed(1)} s`} | ${row.seconds} s |`,
    ),
  ].join('\n');
}

async function main(): Promise<void> {
  const clients = (option('--client') ?? [...AGENT_CLIENTS]) as AgentClient[];
  const scenarios = (option('--scenario') ?? [...AGENT_CLIENT_SCENARIOS]) as AgentClientScenario[];
  const matrix = process.argv.includes('--matrix');
  const via = matrix ? 'gateway' : (option('--via')?.[0] ?? 'simulator');
  const target = option('--target')?.[0] ?? 'same';
  const write = option('--write')?.[0];
  if (via !== 'simulator' && via !== 'gateway') throw new Error('--via takes simulator or gateway');
  if (via === 'simulator' && target !== 'same') throw new Error('--target needs --via gateway');
  const installed = installAgentClients();
  const runRoot = join(dirname(installed.cacheDir), 'e2e', new Date().toISOString().replace(/[:.]/g, '-'));
  mkdirSync(runRoot, { recursive: true });
  const websocket = process.argv.includes('--websocket');
  const runs = matrix
    ? MATRIX.map((entry) => ({ target: entry.target, clients: entry.clients.filter((client) => clients.includes(client)), websocket: entry.websocket === true }))
    : [{ target, clients, websocket }];
  const rows: ResultRow[] = [];
  for (const run of runs) if (run.clients.length > 0) rows.push(...(await runTarget(installed, runRoot, run.clients, scenarios, via, run.target, run.websocket)));
  const table = renderResultTable(rows);
  console.log(`via ${via}${matrix ? ', the matrix of issues 16 and 32' : via === 'gateway' ? `, targets ${target === 'same' ? 'of each CLI\'s own dialect' : target}` : ''}`);
  console.log(table);
  if (write !== undefined) writeFileSync(write, `${table}\n`);
  if (rows.some((row) => row.problem !== undefined)) process.exitCode = 1;
}

main().catch((error: unknown) => {
  console.error('agent-client end-to-end run failed:', error instanceof Error ? error.message : typeof error);
  process.exitCode = 1;
});
