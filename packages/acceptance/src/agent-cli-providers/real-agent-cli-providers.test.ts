/**
 * The pinned Claude Code, Codex and Gemini CLI as providers: each one run by the real process transport, through
 * the engine and the `agent-cli/v1` family, with the provider simulator as its model endpoint (no network). Sync
 * and stream answers, a cancelled stream whose whole process group is gone afterwards, and a run killed at its
 * deadline.
 *
 * The CLIs live in the agent-clients cache, which CI fills after the main check (`.ci/run`), so this file runs
 * again in that phase with TOKENFORGE_AGENT_CLIENTS_PHASE=1, where a missing cache fails. Elsewhere a missing
 * cache skips the file with the reason printed (never silently).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { NormalizedStreamEventV4, ProviderDispatchTargetV3, TaskEnvelopeV4 } from '@tokenforge/model-protocol';
import { createProcessProviderTransport, type ProcessRunReport } from '@tokenforge/process-transport';
import { createProtocolEngineTargetBindingV1, createProtocolEngineV1 } from '@tokenforge/protocol-engine';
import { AGENT_CLI_CAPABILITY, AGENT_CLI_NAMES, createAgentCliSuiteEntryV1, createTokenForgeProtocolSuiteV1, type AgentCliName } from '@tokenforge/provider-adapters';
import { startProviderSimulator, type ProviderSimulator } from '@tokenforge/provider-simulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findAgentCliExecutables, SIMULATOR_KEY, simulatorTargetFor } from './agent-cli-targets.js';
import { processGroupMembers } from './test-support/process-group-members.js';

const found = findAgentCliExecutables();
const mustRun = process.env.TOKENFORGE_AGENT_CLIENTS_PHASE === '1' || (process.env.CI === 'true' && process.env.TOKENFORGE_AGENT_CLIENTS_PHASE !== '0' && 'executables' in found);
if ('missing' in found) {
  if (mustRun) throw new Error(`the agent-clients phase needs the pinned CLIs: ${found.missing}`);
  console.warn(`SKIPPED real agent CLI providers: ${found.missing}`);
}

const engine = createProtocolEngineV1({ registry: createTokenForgeProtocolSuiteV1({ entries: [createAgentCliSuiteEntryV1()] }).registry });
let simulator: ProviderSimulator;
let root: string;

beforeAll(async () => {
  simulator = await startProviderSimulator({ credentials: { anthropicApiKey: SIMULATOR_KEY, openAiApiKey: SIMULATOR_KEY, geminiApiKey: SIMULATOR_KEY } });
  root = mkdtempSync(join(tmpdir(), 'agent-cli-providers-'));
});
afterAll(async () => {
  await simulator?.close();
  if (root !== undefined) rmSync(root, { recursive: true, force: true });
});

/** Processes still in the group `pgid` (zombies count as gone). */

function bindingFor(program: AgentCliName, model: string, options: { deadlineMs?: number; reports?: ProcessRunReport[] } = {}) {
  const executables = (found as { executables: Record<AgentCliName, string> }).executables;
  const configFolder = join(root, `${program}-${model}-${Math.random().toString(36).slice(2)}`);
  const transport = createProcessProviderTransport({
    program,
    executable: executables[program],
    configFolder,
    environment: simulatorTargetFor(program, simulator.url, configFolder),
    workRoot: root,
    deadlineMs: options.deadlineMs ?? 120_000,
    onRunEnd: (report) => options.reports?.push(report),
  });
  const target: ProviderDispatchTargetV3 = { provider: 'local-cli', providerModel: model, connectionRef: program, capability: AGENT_CLI_CAPABILITY };
  return createProtocolEngineTargetBindingV1({ target, bindTransport: () => transport });
}

const chat = (stream: boolean): TaskEnvelopeV4 => ({ kind: 'chat', stream, messages: [{ role: 'user', content: [{ type: 'text', text: 'Say hello' }] }] });

describe.skipIf('missing' in found)('real agent CLIs as providers (simulator as their model endpoint)', () => {
  for (const program of AGENT_CLI_NAMES) {
    describe(program, () => {
      it('answers a sync chat task', async () => {
        const execution = await engine.execute({ binding: bindingFor(program, 'text'), task: chat(false), signal: new AbortController().signal });
        expect(execution.kind).toBe('response');
        if (execution.kind !== 'response') return;
        expect(execution.terminal).toMatchObject({ status: 'completed', result: { kind: 'chat', content: [{ type: 'text', text: 'Hello from the simulator.' }] } });
        if (execution.terminal.status === 'completed') expect(execution.terminal.usage?.outputTokens).toBeGreaterThan(0);
      }, 150_000);

      it('streams text (and reasoning where the CLI streams it)', async () => {
        const execution = await engine.execute({ binding: bindingFor(program, 'reasoning'), task: chat(true), signal: new AbortController().signal });
        expect(execution.kind).toBe('stream');
        if (execution.kind !== 'stream') return;
        const events: NormalizedStreamEventV4[] = [];
        for await (const event of execution.events) events.push(event);
        const text = events.flatMap((event) => (event.type === 'text-delta' ? [event.delta] : [])).join('');
        const reasoning = events.flatMap((event) => (event.type === 'reasoning-delta' ? [event.delta] : [])).join('');
        expect(text).toBe('The answer is 42.');
        // Gemini CLI's stream-json carries no thought text; the other two stream their reasoning.
        expect(reasoning).toBe(program === 'gemini-cli' ? '' : 'Let me think about this.');
        expect(await execution.terminal).toMatchObject({ status: 'completed' });
      }, 150_000);

      it('a cancelled stream leaves no process of its group behind', async () => {
        const reports: ProcessRunReport[] = [];
        const controller = new AbortController();
        const execution = await engine.execute({ binding: bindingFor(program, 'stall', { reports }), task: chat(true), signal: controller.signal });
        expect(execution.kind).toBe('stream');
        if (execution.kind !== 'stream') return;
        setTimeout(() => controller.abort(), 3000);
        const events: NormalizedStreamEventV4[] = [];
        await (async () => {
          for await (const event of execution.events) events.push(event);
        })().catch(() => undefined);
        expect(await execution.terminal).toEqual({ status: 'cancelled' });
        await expect.poll(() => reports.length, { timeout: 10_000 }).toBe(1);
        expect(reports[0]?.reason).toBe('aborted');
        expect(processGroupMembers(reports[0]!.pid)).toEqual([]);
      }, 150_000);

      it('a run over its deadline is a timeout (agent-cli.deadline), its group killed', async () => {
        const reports: ProcessRunReport[] = [];
        const execution = await engine.execute({ binding: bindingFor(program, 'stall', { deadlineMs: 4000, reports }), task: chat(false), signal: new AbortController().signal });
        expect(execution.kind).toBe('response');
        if (execution.kind !== 'response') return;
        expect(execution.terminal).toMatchObject({ status: 'failed', failure: { code: 'timeout', providerCode: 'agent-cli.deadline', retryable: true } });
        await expect.poll(() => reports.length, { timeout: 10_000 }).toBe(1);
        expect(processGroupMembers(reports[0]!.pid)).toEqual([]);
      }, 150_000);
    });
  }
});
