import {
  isCodecErrorV1,
  isProviderProcessTransportV4,
  type ProviderAdapterExecuteInputV1,
  type ProviderAdapterExecutionV1,
  type ProviderAdapterFactory,
  type ProviderAdapterV1,
} from '@tokenforge/model-protocol';
import { createAdapterStreamParts, finishedExecution } from '../../codec-kit/index.js';
import { CLAUDE_CODE_MAPPING } from './map-claude-code-frames.js';
import type { AgentCliName, CliMapping } from './cli-mapping.js';
import { CODEX_MAPPING } from './map-codex-frames.js';
import { CliFrameFold } from './convert-cli-frames.js';
import { GEMINI_CLI_MAPPING } from './map-gemini-cli-frames.js';
import { AGENT_CLI_PROTOCOL_FAMILY } from './protocol-family.js';
import { readCliDocuments } from './decode-stream.js';
import { terminalOf } from './decode-response.js';
import { renderPrompt } from './encode-request.js';

/** Options of {@link createAgentCliAdapterFactory}. */
export interface AgentCliAdapterOptionsV1 {
  /** Longest stdout line read as one document, in bytes (default 1 MiB; the transport bounds it too). */
  readonly maxLineBytes?: number;
}

const MAPPINGS: Record<AgentCliName, CliMapping> = { 'claude-code': CLAUDE_CODE_MAPPING, codex: CODEX_MAPPING, 'gemini-cli': GEMINI_CLI_MAPPING };

/** The mapping of one CLI, or undefined for a program the family does not map. */
export function agentCliMapping(program: string): CliMapping | undefined {
  return Object.hasOwn(MAPPINGS, program) ? MAPPINGS[program as AgentCliName] : undefined;
}

/**
 * Creates the `agent-cli/v1` adapter factory: a chat task becomes one run of the target's CLI over the host's
 * process transport (`ProviderProcessTransportV4`; its `program` picks the mapping: `claude-code`, `codex`,
 * `gemini-cli`), its stdout read by the family's one NDJSON reader and the
 * CLI's mapping, folded into normalized events and one terminal.
 *
 * Outcomes: a task of another kind, content the CLI cannot carry (images, documents, audio, tool turns), or a
 * transport that is not a process transport or runs a program the family does not map, or one that allows
 * `read-only` built-in tools for a CLI whose flags cannot confine them to its working folder (Codex:
 * `agent-cli.read-only-tools`): a failed `unsupported` terminal, acceptance `not-accepted`, nothing run. The
 * transport's `builtInTools` (default `none`) picks the CLI's tool flags. A run that cannot start rejects with the transport's `ProviderProcessFailureV4` (stage `before-send`, so
 * the host may fall back). Once running, acceptance is `accepted` and every ending is a terminal: the CLI's
 * `result`/`turn.completed` frame; its failed verdict (`agent-cli.not-signed-in`, `agent-cli.cli-error`); an
 * end without the terminal frame (`agent-cli.exit-nonzero`, `agent-cli.deadline`, `agent-cli.truncated`,
 * `agent-cli.output-too-large`); an unknown frame kind or a non-JSON line (`protocol-violation`).
 */
export function createAgentCliAdapterFactory(options?: AgentCliAdapterOptionsV1): ProviderAdapterFactory {
  const maxLineBytes = options?.maxLineBytes ?? 1024 * 1024;
  const adapter: ProviderAdapterV1 = { execute: (input) => execute(maxLineBytes, input) };
  return { protocolFamily: AGENT_CLI_PROTOCOL_FAMILY, createAdapter: () => adapter };
}

async function execute(maxLineBytes: number, input: ProviderAdapterExecuteInputV1): Promise<ProviderAdapterExecutionV1> {
  const { task, target, transport, signal } = input;
  const stream = 'stream' in task && task.stream === true;
  const refuse = (providerCode: string): ProviderAdapterExecutionV1 =>
    finishedExecution(stream, { state: 'not-accepted' }, {}, { status: 'failed', failure: { code: 'unsupported', retryable: false, providerCode } });
  if (task.kind !== 'chat') return refuse('agent-cli.task-kind');
  if (!isProviderProcessTransportV4(transport)) return refuse('agent-cli.not-process-transport');
  const mapping = agentCliMapping(transport.program);
  if (mapping === undefined) return refuse('agent-cli.unknown-program');
  const tools = transport.builtInTools ?? 'none';
  if (tools === 'read-only' && !mapping.confinesReadOnlyTools) return refuse('agent-cli.read-only-tools');
  let prompt;
  try {
    prompt = renderPrompt(task);
  } catch (error) {
    if (isCodecErrorV1(error)) return refuse('agent-cli.content');
    throw error;
  }
  const plan = mapping.plan(prompt, target.providerModel, tools);
  const run = await transport.run({ ...plan, signal });
  const fold = new CliFrameFold(mapping, input.reportDiagnostic);
  const parts = createAdapterStreamParts({
    body: run.stdout,
    decodeFrames: (body) => readCliDocuments(body, run.exit, { maxLineBytes, ...(mapping.isKnownNoise === undefined ? {} : { isKnownNoise: mapping.isKnownNoise }) }),
    machine: fold,
    signal,
    reportDiagnostic: input.reportDiagnostic,
  });
  const responseMetadata = { providerModel: target.providerModel };
  if (stream) return { kind: 'stream', acceptance: { state: 'accepted' }, responseMetadata, parts };
  return { kind: 'response', acceptance: { state: 'accepted' }, responseMetadata, terminal: await terminalOf(parts) };
}
