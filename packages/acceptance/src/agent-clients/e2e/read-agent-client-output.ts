/**
 * Reads what a coding-agent CLI printed in its JSON output mode: the tools it ran (and whether they succeeded), the
 * final answer text, and whether the run ended successfully. This is what the end-to-end checks assert on.
 */
import type { AgentClient } from '../capture/agent-client-runs.js';

/** One tool the CLI ran. */
export interface AgentClientToolRun {
  /** The tool's name as the CLI reports it (Codex reports the kind of item, e.g. `command_execution`). */
  readonly name: string;
  readonly ok: boolean;
}

/** The facts of one run. */
export interface AgentClientOutput {
  readonly tools: readonly AgentClientToolRun[];
  /** The last answer text the CLI printed. */
  readonly finalText: string | undefined;
  /** The CLI reported a successful end of the run. */
  readonly success: boolean;
}

type Json = Record<string, any>;

function lines(stdout: string): Json[] {
  const out: Json[] = [];
  for (const line of stdout.split('\n')) {
    if (!line.startsWith('{')) continue;
    try {
      out.push(JSON.parse(line) as Json);
    } catch {
      // a line that is not an event (some CLIs print notices on stdout)
    }
  }
  return out;
}

function claude(events: Json[]): AgentClientOutput {
  const tools: AgentClientToolRun[] = [];
  const names = new Map<string, string>();
  for (const event of events) {
    for (const block of (event.type === 'assistant' || event.type === 'user' ? event.message?.content : undefined) ?? []) {
      if (block?.type === 'tool_use') names.set(block.id, block.name);
      if (block?.type === 'tool_result') tools.push({ name: names.get(block.tool_use_id) ?? '?', ok: block.is_error !== true });
    }
  }
  const result = events.filter((event) => event.type === 'result').pop();
  return { tools, finalText: typeof result?.result === 'string' ? result.result : undefined, success: result?.subtype === 'success' && result?.is_error !== true };
}

function codex(events: Json[]): AgentClientOutput {
  const completed = events.filter((event) => event.type === 'item.completed').map((event) => event.item as Json);
  // `error` items are notices (for example about unknown model metadata), not tools.
  const tools = completed.filter((item) => item.type !== 'agent_message' && item.type !== 'reasoning' && item.type !== 'error').map((item) => ({ name: String(item.type), ok: item.status === 'completed' && (item.exit_code === undefined || item.exit_code === 0) }));
  const message = completed.filter((item) => item.type === 'agent_message').pop();
  return { tools, finalText: message?.text, success: events.some((event) => event.type === 'turn.completed') && !events.some((event) => event.type === 'turn.failed' || event.type === 'error') };
}

function gemini(events: Json[]): AgentClientOutput {
  const names = new Map<string, string>();
  const tools: AgentClientToolRun[] = [];
  let text = '';
  for (const event of events) {
    if (event.type === 'tool_use') names.set(event.tool_id, event.tool_name);
    if (event.type === 'tool_result') tools.push({ name: names.get(event.tool_id) ?? '?', ok: event.status === 'success' });
    if (event.type === 'tool_use' || event.type === 'tool_result') text = '';
    if (event.type === 'message' && event.role === 'assistant') text += String(event.content ?? '');
  }
  const result = events.filter((event) => event.type === 'result').pop();
  return { tools, finalText: text === '' ? undefined : text, success: result?.status === 'success' };
}

function opencode(events: Json[]): AgentClientOutput {
  const tools = events.filter((event) => event.type === 'tool_use').map((event) => ({ name: String(event.part?.tool), ok: event.part?.state?.status === 'completed' }));
  const text = events.filter((event) => event.type === 'text').pop()?.part?.text;
  const finish = events.filter((event) => event.type === 'step_finish').pop();
  return { tools, finalText: typeof text === 'string' ? text : undefined, success: finish?.part?.reason === 'stop' && !events.some((event) => event.type === 'error') };
}

/** The facts of one run, from the CLI's stdout. */
export function readAgentClientOutput(client: AgentClient, stdout: string): AgentClientOutput {
  const events = lines(stdout);
  switch (client) {
    case 'claude':
      return claude(events);
    case 'codex':
      return codex(events);
    case 'gemini':
      return gemini(events);
    case 'opencode':
      return opencode(events);
    default: {
      const exhaustive: never = client;
      return exhaustive;
    }
  }
}
