/**
 * How each coding-agent CLI is run non-interactively against a base URL: its environment (fake key, telemetry and
 * update checks off), its config files in its own HOME, its arguments per scenario, and the tool the recorder asks
 * it to call. Checked against each CLI's own `--help` at the versions pinned in tools/agent-clients/package.json.
 */
import type { RecorderToolChoice } from '../recorder/recorder-answers.js';

/** The CLIs. */
export const AGENT_CLIENTS = ['claude', 'codex', 'gemini', 'opencode'] as const;
export type AgentClient = (typeof AGENT_CLIENTS)[number];

/** The scenarios: a plain prompt, a prompt that makes the CLI call one of its own tools, a run with thinking set. */
export const AGENT_CLIENT_SCENARIOS = ['plain', 'tool', 'thinking'] as const;
export type AgentClientScenario = (typeof AGENT_CLIENT_SCENARIOS)[number];

/** Everything needed to start one run. */
export interface AgentClientRun {
  readonly args: readonly string[];
  readonly env: Record<string, string>;
  /** Files to write before the run, relative to HOME. */
  readonly homeFiles: Record<string, string>;
  /** Tools the recorder calls in the `tool` scenario, by preference. */
  readonly toolPreferences: readonly RecorderToolChoice[];
}

/** Inputs of a run. */
export interface AgentClientRunContext {
  /** The recorder's or gateway's origin, e.g. `http://127.0.0.1:4000`. */
  readonly baseUrl: string;
  readonly home: string;
  readonly scratch: string;
  /** The model to ask for (a simulator scenario, a catalogue name); each CLI's default when absent. */
  readonly model?: string;
  /** Extra request headers; only Codex takes them from its config (`http_headers` of the provider). */
  readonly headers?: Readonly<Record<string, string>>;
  /** Codex only: `supports_websockets = true` (the Responses WebSocket transport) instead of HTTP only. */
  readonly websockets?: boolean;
}

export const FAKE_API_KEY = 'tf-fake-key-0000';

export const AGENT_CLIENT_PROMPTS: Record<AgentClientScenario, string> = {
  plain: 'Say hello in one short sentence.',
  tool: 'List the files in the current directory using your tools, then say how many there are.',
  thinking: 'Think carefully, then say which is larger: 9.11 or 9.9.',
};

const commonEnv = (context: AgentClientRunContext): Record<string, string> => ({
  HOME: context.home,
  XDG_CONFIG_HOME: `${context.home}/.config`,
  XDG_CACHE_HOME: `${context.home}/.cache`,
  XDG_DATA_HOME: `${context.home}/.local/share`,
  XDG_STATE_HOME: `${context.home}/.local/state`,
  NO_COLOR: '1',
  CI: '1',
});

function claudeRun(scenario: AgentClientScenario, context: AgentClientRunContext): AgentClientRun {
  return {
    args: [
      '-p',
      AGENT_CLIENT_PROMPTS[scenario],
      '--output-format',
      'stream-json',
      '--verbose',
      ...(scenario === 'tool' ? ['--allowedTools', 'Bash(ls:*)', 'Glob', 'LS', 'Read'] : []),
      ...(scenario === 'thinking' ? ['--effort', 'high'] : []),
      ...(context.model === undefined ? [] : ['--model', context.model]),
    ],
    env: {
      ...commonEnv(context),
      ANTHROPIC_BASE_URL: context.baseUrl,
      ANTHROPIC_API_KEY: FAKE_API_KEY,
      DISABLE_TELEMETRY: '1',
      DISABLE_ERROR_REPORTING: '1',
      DISABLE_AUTOUPDATER: '1',
      CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
    },
    homeFiles: {},
    toolPreferences: [
      { name: 'Glob', arguments: { pattern: '*' } },
      { name: 'Bash', arguments: { command: 'ls', description: 'List files' } },
    ],
  };
}

function codexRun(scenario: AgentClientScenario, context: AgentClientRunContext): AgentClientRun {
  const config = [
    'model_provider = "tokenforge"',
    ...(context.model === undefined ? [] : [`model = "${context.model}"`]),
    ...(scenario === 'thinking' ? ['model_reasoning_effort = "high"', 'model_reasoning_summary = "auto"'] : []),
    'check_for_update_on_startup = false',
    '',
    '[analytics]',
    'enabled = false',
    '',
    '[model_providers.tokenforge]',
    'name = "TokenForge"',
    `base_url = "${context.baseUrl}/v1"`,
    'env_key = "TOKENFORGE_API_KEY"',
    'wire_api = "responses"',
    `supports_websockets = ${context.websockets === true}`,
    'request_max_retries = 0',
    ...(context.headers === undefined ? [] : [`http_headers = { ${Object.entries(context.headers).map(([name, value]) => `${JSON.stringify(name)} = ${JSON.stringify(value)}`).join(', ')} }`]),
    'stream_max_retries = 0',
    '',
  ].join('\n');
  return {
    args: ['exec', '--json', '--skip-git-repo-check', '--cd', context.scratch, AGENT_CLIENT_PROMPTS[scenario]],
    env: { ...commonEnv(context), CODEX_HOME: `${context.home}/.codex`, TOKENFORGE_API_KEY: FAKE_API_KEY },
    homeFiles: { '.codex/config.toml': config },
    toolPreferences: [
      // Codex's code mode: one freeform `exec` tool running JavaScript that reaches the nested tools.
      { name: 'exec', arguments: {}, input: 'text(await tools.exec_command({ cmd: "ls" }));' },
      { name: 'exec_command', arguments: { cmd: 'ls' } },
      { name: 'shell_command', arguments: { command: 'ls' } },
      { name: 'shell', arguments: { command: ['ls'] } },
    ],
  };
}

function geminiRun(scenario: AgentClientScenario, context: AgentClientRunContext): AgentClientRun {
  const settings = {
    security: { auth: { selectedType: 'gemini-api-key' } },
    privacy: { usageStatisticsEnabled: false },
    telemetry: { enabled: false },
    general: { disableAutoUpdate: true, disableUpdateNag: true },
    ...(context.model !== undefined ? { model: { name: context.model } } : scenario === 'thinking' ? { model: { name: 'gemini-3-pro-preview' } } : {}),
  };
  return {
    args: ['-o', 'stream-json', '-p', AGENT_CLIENT_PROMPTS[scenario], '--skip-trust'],
    env: { ...commonEnv(context), GOOGLE_GEMINI_BASE_URL: context.baseUrl, GEMINI_API_KEY: FAKE_API_KEY },
    homeFiles: { '.gemini/settings.json': `${JSON.stringify(settings, null, 2)}\n` },
    toolPreferences: [
      { name: 'list_directory', arguments: { dir_path: '.' } },
      { name: 'glob', arguments: { pattern: '*' } },
    ],
  };
}

function opencodeRun(scenario: AgentClientScenario, context: AgentClientRunContext): AgentClientRun {
  const model = context.model ?? 'recorded-model';
  const config = {
    $schema: 'https://opencode.ai/config.json',
    autoupdate: false,
    share: 'disabled',
    model: `tokenforge/${model}`,
    small_model: `tokenforge/${model}`,
    provider: {
      tokenforge: {
        npm: '@ai-sdk/openai-compatible',
        name: 'TokenForge',
        options: { baseURL: `${context.baseUrl}/v1`, apiKey: FAKE_API_KEY },
        models: {
          [model]: {
            name: model,
            tool_call: true,
            reasoning: scenario === 'thinking',
            ...(scenario === 'thinking' ? { options: { reasoningEffort: 'high' } } : {}),
          },
        },
      },
    },
  };
  return {
    args: ['run', '--format', 'json', AGENT_CLIENT_PROMPTS[scenario]],
    env: { ...commonEnv(context), OPENCODE_DISABLE_MODELS_FETCH: '1', OPENCODE_DISABLE_AUTOUPDATE: '1', OPENCODE_DISABLE_SHARE: '1' },
    homeFiles: { '.config/opencode/opencode.json': `${JSON.stringify(config, null, 2)}\n` },
    toolPreferences: [
      { name: 'list', arguments: { path: context.scratch } },
      { name: 'glob', arguments: { pattern: '*' } },
      { name: 'bash', arguments: { command: 'ls', description: 'List files' } },
    ],
  };
}

/** The run of one CLI in one scenario. */
export function agentClientRun(client: AgentClient, scenario: AgentClientScenario, context: AgentClientRunContext): AgentClientRun {
  switch (client) {
    case 'claude':
      return claudeRun(scenario, context);
    case 'codex':
      return codexRun(scenario, context);
    case 'gemini':
      return geminiRun(scenario, context);
    case 'opencode':
      return opencodeRun(scenario, context);
    default: {
      const exhaustive: never = client;
      return exhaustive;
    }
  }
}
