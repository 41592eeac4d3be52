import type { ChatTaskV4, ProviderProcessExitV4 } from '@tokenforge/model-protocol';
import type { AgentCliName } from './cli-mapping.js';

/** One `agent-cli/v1` conformance case: recorded (or constructed) NDJSON replayed through the engine. */
export interface AgentCliConformanceCase {
  readonly name: string;
  /** The program the transport runs. */
  readonly program: AgentCliName;
  /** A file in `__fixtures__/` (recorded) or inline text (constructed). */
  readonly stdout: { readonly source: 'recorded'; readonly file: string } | { readonly source: 'constructed'; readonly text: string };
  /** How the run ends (default exited 0). */
  readonly exit?: ProviderProcessExitV4;
  /** The task (default: one user turn, `Say hello`). */
  readonly task?: Omit<ChatTaskV4, 'stream'>;
  /** The built-in tools the host's transport allows (default: the transport says nothing, which means none). */
  readonly builtInTools?: 'none' | 'read-only';
  /** Files the run must ask for, by name, with a part of their text. */
  readonly files?: Readonly<Record<string, string>>;
  /** Arguments the run must carry (each, in order of appearance, as a sub-sequence). */
  readonly args?: readonly string[];
  /** What the engine answers. */
  readonly expect:
    | {
        readonly kind: 'answer';
        /** The streamed text and reasoning, concatenated per kind. */
        readonly text: string;
        readonly reasoning?: string;
        /** The terminal, matched as a subset. */
        readonly terminal: Record<string, unknown>;
      }
    | { readonly kind: 'failed'; readonly code: string; readonly providerCode?: string; readonly retryable: boolean }
    /** The adapter refused before running anything (the engine answers `rejected`). */
    | { readonly kind: 'rejected'; readonly code: string }
    /** The engine refused by the target's capability before the adapter saw the task. */
    | { readonly kind: 'engine-refused'; readonly code: string };
}

const ok = { reason: 'exited', exitCode: 0 } as const;
const exitOne = { reason: 'exited', exitCode: 1 } as const;

/** The family's conformance cases (`__fixtures__/NOTICE.md` names each recording). */
export const agentCliConformanceCases: readonly AgentCliConformanceCase[] = [
  {
    name: 'Claude Code text: partial deltas, result with usage and cost',
    program: 'claude-code',
    stdout: { source: 'recorded', file: 'claude-text.ndjson' },
    args: ['-p', '--input-format', 'stream-json', '--output-format', 'stream-json', '--include-partial-messages', '--model', 'claude-model', '--tools', '', '--permission-mode', 'default', '--strict-mcp-config'],
    expect: {
      kind: 'answer',
      text: 'Hello from the simulator.',
      terminal: { status: 'completed', usage: { inputTokens: 525, outputTokens: 3, cacheReadInputTokens: 0, cacheWriteInputTokens: 0, reasoningOutputTokens: 0 }, cost: { amountMicros: 2160, currency: 'USD' } },
    },
  },
  {
    name: 'Claude Code reasoning: thinking deltas then text, bookkeeping frames harmless',
    program: 'claude-code',
    stdout: { source: 'recorded', file: 'claude-reasoning.ndjson' },
    expect: { kind: 'answer', reasoning: 'Let me think about this.', text: 'The answer is 42.', terminal: { status: 'completed', usage: { outputTokens: 14 } } },
  },
  {
    name: 'Claude Code with its tools off: the scripted tool cannot be called, the answer is text',
    program: 'claude-code',
    stdout: { source: 'recorded', file: 'claude-tool-refused.ndjson' },
    expect: { kind: 'answer', text: 'The tool returned its result.', terminal: { status: 'completed' } },
  },
  {
    name: 'Claude Code not signed in: authentication, agent-cli.not-signed-in',
    program: 'claude-code',
    stdout: { source: 'recorded', file: 'claude-not-signed-in.ndjson' },
    exit: exitOne,
    expect: { kind: 'failed', code: 'authentication', providerCode: 'agent-cli.not-signed-in', retryable: false },
  },
  {
    name: 'Claude Code with read-only tools (a target\'s opt-in): only Read, Glob, Grep, restricted to the working folder, never asking',
    program: 'claude-code',
    builtInTools: 'read-only',
    stdout: { source: 'recorded', file: 'claude-read-only-canary-refused.ndjson' },
    args: ['--tools', 'Read,Glob,Grep', '--restricted', '--permission-mode', 'dontAsk', '--strict-mcp-config'],
    expect: { kind: 'answer', text: 'The tool returned its result.', terminal: { status: 'completed' } },
  },
  {
    name: 'Codex text: agent_message item, turn.completed usage, warning error item harmless',
    program: 'codex',
    stdout: { source: 'recorded', file: 'codex-text.ndjson' },
    args: ['exec', '--json', '--sandbox', 'read-only', '-c', 'features.shell_tool=false', '-m', 'claude-model', '--', 'Say hello'],
    expect: { kind: 'answer', text: 'Hello from the simulator.', terminal: { status: 'completed', usage: { inputTokens: 2380, outputTokens: 3, cacheReadInputTokens: 0, reasoningOutputTokens: 0 } } },
  },
  {
    name: 'Codex reasoning item before the answer',
    program: 'codex',
    stdout: { source: 'recorded', file: 'codex-reasoning.ndjson' },
    expect: { kind: 'answer', reasoning: 'Let me think about this.', text: 'The answer is 42.', terminal: { status: 'completed', usage: { reasoningOutputTokens: 6 } } },
  },
  {
    name: 'Codex turn.failed (the scripted shell tool is undeclared): a failed verdict',
    program: 'codex',
    stdout: { source: 'recorded', file: 'codex-tool-undeclared.ndjson' },
    exit: exitOne,
    expect: { kind: 'failed', code: 'provider-error', providerCode: 'agent-cli.cli-error', retryable: false },
  },
  {
    name: 'Codex without its key: turn.failed',
    program: 'codex',
    stdout: { source: 'recorded', file: 'codex-not-signed-in.ndjson' },
    exit: exitOne,
    expect: { kind: 'failed', code: 'provider-error', providerCode: 'agent-cli.cli-error', retryable: false },
  },
  {
    name: 'Gemini CLI text deltas, result stats, the user echo harmless',
    program: 'gemini-cli',
    stdout: { source: 'recorded', file: 'gemini-text.ndjson' },
    args: ['-o', 'stream-json', '-m', 'claude-model', '--approval-mode', 'plan', '--admin-policy', '-p', 'Say hello'],
    expect: { kind: 'answer', text: 'Hello from the simulator.', terminal: { status: 'completed', usage: { inputTokens: 1715, outputTokens: 3, totalTokens: 1718, cacheReadInputTokens: 0 } } },
  },
  {
    name: 'Gemini CLI with its tools off: the deny-all admin policy',
    program: 'gemini-cli',
    stdout: { source: 'recorded', file: 'gemini-text.ndjson' },
    args: ['--approval-mode', 'plan', '--admin-policy', '{run-files}/deny-all-tools.toml'],
    files: { 'deny-all-tools.toml': 'toolName = "*"\ndecision = "deny"' },
    expect: { kind: 'answer', text: 'Hello from the simulator.', terminal: { status: 'completed' } },
  },
  {
    name: 'Gemini CLI with read-only tools (a target\'s opt-in): the read-only admin policy; a read outside the workspace refused',
    program: 'gemini-cli',
    builtInTools: 'read-only',
    stdout: { source: 'recorded', file: 'gemini-read-only-canary-refused.ndjson' },
    args: ['--approval-mode', 'plan', '--admin-policy', '{run-files}/read-only-tools.toml'],
    files: { 'read-only-tools.toml': 'toolName = ["read_file", "read_many_files", "list_directory", "glob", "grep_search", "search_file_content"]\ndecision = "allow"' },
    expect: { kind: 'answer', text: 'The tool returned its result.', terminal: { status: 'completed' } },
  },
  {
    name: 'Codex with read-only tools: refused, nothing run (its sandbox cannot confine reading to the working folder)',
    program: 'codex',
    builtInTools: 'read-only',
    stdout: { source: 'constructed', text: '' },
    expect: { kind: 'rejected', code: 'unsupported' },
  },
  {
    name: 'Gemini CLI own tool activity is hosted: no client tool call, only the text',
    program: 'gemini-cli',
    stdout: { source: 'recorded', file: 'gemini-tool.ndjson' },
    expect: { kind: 'answer', text: 'The tool returned its result.', terminal: { status: 'completed' } },
  },
  {
    name: 'Gemini CLI killed at the deadline while retrying: timeout, agent-cli.deadline',
    program: 'gemini-cli',
    stdout: { source: 'recorded', file: 'gemini-retrying-no-terminal.ndjson' },
    exit: { reason: 'deadline', exitCode: null },
    expect: { kind: 'failed', code: 'timeout', providerCode: 'agent-cli.deadline', retryable: true },
  },
  {
    name: 'a run that exits 0 without its terminal frame is truncated, never a success',
    program: 'gemini-cli',
    stdout: { source: 'recorded', file: 'gemini-retrying-no-terminal.ndjson' },
    expect: { kind: 'failed', code: 'truncated-stream', providerCode: 'agent-cli.truncated', retryable: true },
  },
  {
    name: 'a non-zero exit without a terminal frame: agent-cli.exit-nonzero',
    program: 'codex',
    stdout: { source: 'constructed', text: '{"type":"thread.started","thread_id":"t"}\n' },
    exit: { reason: 'exited', exitCode: 2 },
    expect: { kind: 'failed', code: 'provider-error', providerCode: 'agent-cli.exit-nonzero', retryable: false },
  },
  {
    name: 'Gemini CLI exit 41 with no output: not signed in',
    program: 'gemini-cli',
    stdout: { source: 'constructed', text: '' },
    exit: { reason: 'exited', exitCode: 41 },
    expect: { kind: 'failed', code: 'authentication', providerCode: 'agent-cli.not-signed-in', retryable: false },
  },
  {
    name: 'stdout past its bounds: agent-cli.output-too-large',
    program: 'gemini-cli',
    // The transport drops the partial line a kill cut (process-transport's run-process.test.ts proves it).
    stdout: { source: 'constructed', text: '{"type":"init","session_id":"s","model":"m"}\n' },
    exit: { reason: 'output-too-large', exitCode: null },
    expect: { kind: 'failed', code: 'protocol-violation', providerCode: 'agent-cli.output-too-large', retryable: false },
  },
  {
    name: 'an unknown frame kind fails the run',
    program: 'gemini-cli',
    stdout: { source: 'constructed', text: '{"type":"init","session_id":"s","model":"m"}\n{"type":"brand_new_kind"}\n' },
    expect: { kind: 'failed', code: 'protocol-violation', retryable: false },
  },
  {
    name: 'a non-JSON stdout line fails the run',
    program: 'claude-code',
    stdout: { source: 'constructed', text: 'Warning: something\n{"type":"result","subtype":"success","is_error":false}\n' },
    expect: { kind: 'failed', code: 'protocol-violation', retryable: false },
  },
  {
    name: 'a trailing partial line is still a line; a blank line is not a document',
    program: 'gemini-cli',
    stdout: { source: 'constructed', text: '{"type":"message","role":"assistant","content":"Hi","delta":true}\n\n   \n{"type":"result","status":"success","stats":{"input_tokens":5,"output_tokens":1}}' },
    expect: { kind: 'answer', text: 'Hi', terminal: { status: 'completed', usage: { inputTokens: 5, outputTokens: 1 } } },
  },
  {
    name: 'documents after the terminal frame are never read: one terminal (settle once)',
    program: 'codex',
    stdout: { source: 'constructed', text: '{"type":"turn.completed","usage":{"input_tokens":1,"output_tokens":1}}\n{"type":"turn.completed","usage":{"input_tokens":1,"output_tokens":1}}\n' },
    expect: { kind: 'answer', text: '', terminal: { status: 'completed' } },
  },
  {
    name: 'a repeated hosted tool result is dropped (each hosted call settled once)',
    program: 'gemini-cli',
    stdout: {
      source: 'constructed',
      text: '{"type":"tool_use","tool_name":"read_file","tool_id":"t1","parameters":{}}\n{"type":"tool_result","tool_id":"t1","status":"success"}\n{"type":"tool_result","tool_id":"t1","status":"success"}\n{"type":"message","role":"assistant","content":"Done","delta":true}\n{"type":"result","status":"success"}\n',
    },
    expect: { kind: 'answer', text: 'Done', terminal: { status: 'completed' } },
  },
  {
    name: 'an image part: refused by the capability, nothing run',
    program: 'claude-code',
    stdout: { source: 'constructed', text: '' },
    task: { kind: 'chat', messages: [{ role: 'user', content: [{ type: 'image', source: { type: 'url', url: 'https://example.com/cat.png' } }] }] } as unknown as Omit<ChatTaskV4, 'stream'>,
    expect: { kind: 'engine-refused', code: 'PROTOCOL_ENGINE_CAPABILITY_UNSUPPORTED' },
  },
  {
    name: 'client-declared tools: refused by the capability, nothing run',
    program: 'codex',
    stdout: { source: 'constructed', text: '' },
    task: {
      kind: 'chat',
      messages: [{ role: 'user', content: [{ type: 'text', text: 'Weather?' }] }],
      tools: [{ name: 'get_weather', description: 'weather', inputSchema: { type: 'object', properties: {} } }],
    } as unknown as Omit<ChatTaskV4, 'stream'>,
    expect: { kind: 'engine-refused', code: 'PROTOCOL_ENGINE_CAPABILITY_UNSUPPORTED' },
  },
  {
    name: 'a conversation ending on an assistant turn cannot be a run: unsupported, nothing run',
    program: 'gemini-cli',
    stdout: { source: 'constructed', text: '' },
    task: { kind: 'chat', messages: [{ role: 'user', content: [{ type: 'text', text: 'Hi' }] }, { role: 'assistant', content: [{ type: 'text', text: 'Hello' }] }] },
    expect: { kind: 'rejected', code: 'unsupported' },
  },
  {
    name: 'system text and earlier turns are rendered into the one prompt',
    program: 'codex',
    stdout: { source: 'recorded', file: 'codex-text.ndjson' },
    task: {
      kind: 'chat',
      system: [{ type: 'text', text: 'Be brief.' }],
      messages: [
        { role: 'user', content: [{ type: 'text', text: 'Hi' }] },
        { role: 'assistant', content: [{ type: 'text', text: 'Hello' }] },
        { role: 'user', content: [{ type: 'text', text: 'Say hello' }] },
      ],
    },
    args: ['--', 'Be brief.\n\nEarlier turns of this conversation:\n\n[User]\nHi\n\n[Assistant]\nHello\n\n[User]\nSay hello'],
    expect: { kind: 'answer', text: 'Hello from the simulator.', terminal: { status: 'completed' } },
  },
];
