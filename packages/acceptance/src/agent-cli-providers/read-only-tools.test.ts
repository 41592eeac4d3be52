/**
 * The CLIs' built-in tools: off by default, and a target's `read-only` opt-in confined to the run's working folder.
 * The scripted model (the provider simulator) asks each CLI to read a canary file OUTSIDE its working folder: the
 * CLI's own tool result is an error and carries no canary, and the canary's content never reaches the client, the
 * operator log or the governance ledger. With the opt-in, a listing of the working folder itself succeeds (the
 * tools are really on); with the tools off, the same scripted request runs no tool at all. Claude Code and Gemini
 * CLI (Codex cannot confine reading and refuses the opt-in: conformance-cases.ts). Runs where the agent-clients
 * cache is, and in the agent-clients phase of `.ci/run`, where a missing cache fails.
 *
 * Set TOKENFORGE_RECORD_AGENT_CLI=<folder> to write each refused read's stdout there as a fixture (the temporary
 * paths replaced as `__fixtures__/NOTICE.md` says).
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startGateway, type GatewayCatalogueV1 } from '@tokenforge/gateway';
import type { NormalizedStreamEventV4, ProviderDispatchTargetV3, ProviderProcessBuiltInToolsV4, ProviderProcessTransportV4, TaskEnvelopeV4 } from '@tokenforge/model-protocol';
import { createProcessProviderTransport, type ProcessRunReport } from '@tokenforge/process-transport';
import { createProtocolEngineTargetBindingV1, createProtocolEngineV1 } from '@tokenforge/protocol-engine';
import { AGENT_CLI_CAPABILITY, createAgentCliSuiteEntryV1, createTokenForgeProtocolSuiteV1, type AgentCliName } from '@tokenforge/provider-adapters';
import { startProviderSimulator, type ProviderSimulator } from '@tokenforge/provider-simulator';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findAgentCliExecutables, SIMULATOR_KEY, simulatorTargetFor } from './agent-cli-targets.js';

const found = findAgentCliExecutables();
if ('missing' in found) {
  if (process.env.TOKENFORGE_AGENT_CLIENTS_PHASE === '1') throw new Error(`the agent-clients phase needs the pinned CLIs: ${found.missing}`);
  console.warn(`SKIPPED agent CLI read-only tools: ${found.missing}`);
}

const CANARY = 'CANARY-3c1f9e7a-never-to-leave';
const CLIENT_KEY = 'agent-cli-tools-client-key-0001';

/** Per CLI: its read tool and listing tool as the scripted model calls them. */
const CLIS: Record<'claude-code' | 'gemini-cli', { readonly read: string; readonly list: string }> = {
  'claude-code': { read: 'Read', list: 'Glob' },
  'gemini-cli': { read: 'read_file', list: 'list_directory' },
};
const PROGRAMS = Object.keys(CLIS) as ('claude-code' | 'gemini-cli')[];

let simulator: ProviderSimulator;
let root: string;
let canaryFile: string;

beforeAll(async () => {
  if ('missing' in found) return;
  root = mkdtempSync(join(tmpdir(), 'agent-cli-tools-'));
  canaryFile = join(root, 'canary.txt');
  writeFileSync(canaryFile, `${CANARY}\n`);
  simulator = await startProviderSimulator({
    credentials: { anthropicApiKey: SIMULATOR_KEY, openAiApiKey: SIMULATOR_KEY, geminiApiKey: SIMULATOR_KEY },
    scriptedToolArguments: { Read: { file_path: canaryFile }, read_file: { file_path: canaryFile }, Glob: { pattern: '*' }, list_directory: { dir_path: '.' } },
  });
});
afterAll(async () => {
  await simulator?.close();
  if (root !== undefined) rmSync(root, { recursive: true, force: true });
});

const engine = createProtocolEngineV1({ registry: createTokenForgeProtocolSuiteV1({ entries: [createAgentCliSuiteEntryV1()] }).registry });
const chat: TaskEnvelopeV4 = { kind: 'chat', stream: true, messages: [{ role: 'user', content: [{ type: 'text', text: 'Read the file, please.' }] }] };

/** The CLI's own tool results, read from its raw stdout (what the family never forwards). */
function toolResults(program: AgentCliName, stdout: string): { readonly isError: boolean; readonly text: string }[] {
  const results: { isError: boolean; text: string }[] = [];
  for (const line of stdout.split('\n')) {
    if (line.trim().length === 0) continue;
    const document = JSON.parse(line) as Record<string, unknown>;
    if (program === 'gemini-cli' && document.type === 'tool_result') results.push({ isError: document.status === 'error', text: line });
    if (program === 'claude-code' && document.type === 'user') {
      const content = (document.message as { content?: unknown } | undefined)?.content;
      for (const block of Array.isArray(content) ? (content as Record<string, unknown>[]) : []) {
        if (block.type === 'tool_result') results.push({ isError: block.is_error === true, text: line });
      }
    }
  }
  return results;
}

/** One real run through the engine and the real process transport, its raw stdout kept by the test (a tee). */
async function runWithTools(program: AgentCliName, model: string, builtInTools: ProviderProcessBuiltInToolsV4) {
  const executables = (found as { executables: Record<AgentCliName, string> }).executables;
  const configFolder = join(root, `${program}-${model}-${builtInTools}`);
  const reports: ProcessRunReport[] = [];
  const real = createProcessProviderTransport({
    program,
    executable: executables[program],
    configFolder,
    environment: simulatorTargetFor(program, simulator.url, configFolder),
    workRoot: root,
    builtInTools,
    deadlineMs: 120_000,
    onRunEnd: (report) => reports.push(report),
  });
  let raw = '';
  const teed: ProviderProcessTransportV4 = {
    ...real,
    async run(request) {
      const run = await real.run(request);
      const decoder = new TextDecoder();
      async function* tee() {
        for await (const chunk of run.stdout) {
          raw += decoder.decode(chunk, { stream: true });
          yield chunk;
        }
      }
      return { stdout: tee(), exit: run.exit };
    },
  };
  const target: ProviderDispatchTargetV3 = { provider: 'local-cli', providerModel: model, connectionRef: program, capability: AGENT_CLI_CAPABILITY };
  const execution = await engine.execute({ binding: createProtocolEngineTargetBindingV1({ target, bindTransport: () => teed }), task: chat, signal: new AbortController().signal });
  if (execution.kind !== 'stream') throw new Error(`expected a stream, got ${execution.kind}`);
  const events: NormalizedStreamEventV4[] = [];
  for await (const event of execution.events) events.push(event);
  const terminal = await execution.terminal;
  await expect.poll(() => reports.length, { timeout: 10_000 }).toBe(1);
  return { events, terminal, raw, report: reports[0]!, results: toolResults(program, raw) };
}

function record(program: AgentCliName, raw: string): void {
  const folder = process.env.TOKENFORGE_RECORD_AGENT_CLI;
  if (folder === undefined) return;
  const cleaned = raw.split(root).join('/tmp/tokenforge-run').replace(/tokenforge-run\/tokenforge-run-[A-Za-z0-9]+\/work/g, 'tokenforge-run/work').replace(/-tmp-agent-cli-tools-[A-Za-z0-9]+-tokenforge-run-[A-Za-z0-9]+-work/g, '-tmp-tokenforge-run-work');
  writeFileSync(join(folder, `${program === 'claude-code' ? 'claude' : 'gemini'}-read-only-canary-refused.ndjson`), cleaned);
}

function filesUnder(folder: string): string[] {
  return readdirSync(folder, { recursive: true, encoding: 'utf8' }).map((name) => join(folder, name)).filter((path) => statSync(path).isFile());
}

describe.skipIf('missing' in found)('agent CLI built-in tools: off by default, read-only confined to the working folder', () => {
  for (const program of PROGRAMS) {
    const tools = CLIS[program];
    describe(program, () => {
      it('read-only: a read of a canary outside the working folder is refused by the CLI; its content is nowhere', async () => {
        const run = await runWithTools(program, `scripted.${tools.read}`, 'read-only');
        record(program, run.raw);
        expect(run.terminal).toMatchObject({ status: 'completed', result: { content: [{ type: 'text', text: 'The tool returned its result.' }] } });
        // The CLI tried (the scripted call reached it) and refused: one tool result, an error, without the canary.
        expect(run.results).toHaveLength(1);
        expect(run.results[0]?.isError).toBe(true);
        expect(run.raw).not.toContain(CANARY);
        expect(JSON.stringify(run.events)).not.toContain(CANARY);
        expect(JSON.stringify(run.report)).not.toContain(CANARY);
      }, 120_000);

      it('read-only: the tools are really on (a listing of the working folder itself succeeds)', async () => {
        const run = await runWithTools(program, `scripted.${tools.list}`, 'read-only');
        expect(run.terminal).toMatchObject({ status: 'completed' });
        expect(run.results.map((result) => result.isError)).toEqual([false]);
      }, 120_000);

      it('tools off (the default): the same scripted read runs no tool', async () => {
        const run = await runWithTools(program, `scripted.${tools.read}`, 'none');
        // No tool is declared, so the scripted model cannot call one (Gemini CLI's simulator turn refuses the call
        // of an undeclared tool; Claude Code's model answers in text): nothing was read either way.
        expect(run.results).toEqual([]);
        expect(run.raw).not.toContain(CANARY);
        expect(run.raw).not.toContain('"tool_use"');
      }, 120_000);
    });
  }

  it('through the gateway: the canary reaches neither the client, the operator log nor the ledger', async () => {
    const executables = (found as { executables: Record<AgentCliName, string> }).executables;
    const env: Record<string, string> = { AGENT_CLI_TOOLS_CLIENT_KEY: CLIENT_KEY };
    const models: GatewayCatalogueV1['models'] = PROGRAMS.map((program) => {
      const configFolder = join(root, `gateway-${program}`);
      const variables = simulatorTargetFor(program, simulator.url, configFolder);
      Object.assign(env, variables);
      return {
        name: `${program}-read-only`,
        taskKind: 'chat',
        targets: [
          {
            provider: 'local-cli',
            family: 'agent-cli/v1',
            model: `scripted.${CLIS[program].read}`,
            agentCli: { program, executable: executables[program], configFolder, environment: Object.keys(variables), builtInTools: 'read-only', deadlineMs: 120_000 },
          },
        ],
      };
    });
    const dataDir = join(root, 'governance');
    const logLines: string[] = [];
    const gateway = await startGateway({
      catalogue: { version: 1, clientKeys: [{ id: 'agent-cli-tools', env: 'AGENT_CLI_TOOLS_CLIENT_KEY' }], models },
      env,
      dataDir,
      logger: { write: (line: string) => void logLines.push(line) },
    });
    const bodies: string[] = [];
    try {
      for (const program of PROGRAMS) {
        const response = await fetch(`${gateway.url}/v1/chat/completions`, {
          method: 'POST',
          headers: { authorization: `Bearer ${CLIENT_KEY}`, 'content-type': 'application/json' },
          body: JSON.stringify({ model: `${program}-read-only`, messages: [{ role: 'user', content: 'Read the file, please.' }] }),
        });
        const body = await response.text();
        bodies.push(body);
        expect(response.status, body).toBe(200);
        const completion = JSON.parse(body) as OpenAI.ChatCompletion;
        expect(completion.choices[0]?.message.content).toBe('The tool returned its result.');
      }
      await gateway.governance?.settled();
      const spend = await gateway.governance?.store.admin.spend({ groupBy: [] });
      // The ledger holds both requests (so looking for the canary in it is not vacuous).
      expect(spend?.reduce((count, group) => count + group.attempts, 0)).toBe(PROGRAMS.length);
      // Each run's line (its stderr included) is written once the child is gone, which may be after the answer.
      await expect.poll(() => logLines.filter((line) => line.includes('"agentCliRun"')).length, { timeout: 10_000 }).toBe(PROGRAMS.length);
    } finally {
      await gateway.close();
    }
    expect(bodies.join('\n')).not.toContain(CANARY);
    expect(logLines.join('\n')).not.toContain(CANARY);
    const stored = filesUnder(dataDir);
    expect(stored.length).toBeGreaterThan(0);
    for (const file of stored) expect(readFileSync(file).includes(CANARY), file).toBe(false);
  }, 120_000);
});
