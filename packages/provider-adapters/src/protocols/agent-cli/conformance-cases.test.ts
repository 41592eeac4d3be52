import { readFileSync } from 'node:fs';
import type { NormalizedStreamEventV4, ProviderDispatchTargetV3 } from '@tokenforge/model-protocol';
import { createProtocolEngineTargetBindingV1, createProtocolEngineV1, isProtocolEngineErrorV1 } from '@tokenforge/protocol-engine';
import { describe, expect, it } from 'vitest';
import { createTokenForgeProtocolSuiteV1 } from '../../suite/create-protocol-suite-v1.js';
import { agentCliConformanceCases, type AgentCliConformanceCase } from './conformance-cases.js';
import { AGENT_CLI_CAPABILITY } from './protocol-family.js';
import { createAgentCliSuiteEntryV1 } from './suite-entry.js';
import { createReplayProcessTransport } from './test-support/replay-process-transport.js';

const engine = createProtocolEngineV1({ registry: createTokenForgeProtocolSuiteV1({ entries: [createAgentCliSuiteEntryV1()] }).registry });
const target: ProviderDispatchTargetV3 = { provider: 'conformance', providerModel: 'claude-model', connectionRef: 'cli', capability: AGENT_CLI_CAPABILITY };
const signal = new AbortController().signal;

function stdoutOf(testCase: AgentCliConformanceCase): string {
  return testCase.stdout.source === 'recorded' ? readFileSync(new URL(`./__fixtures__/${testCase.stdout.file}`, import.meta.url), 'utf8') : testCase.stdout.text;
}

function bind(testCase: AgentCliConformanceCase, readSizes?: number[]) {
  const transport = createReplayProcessTransport(
    testCase.program,
    [{ stdout: stdoutOf(testCase), ...(testCase.exit === undefined ? {} : { exit: testCase.exit }), ...(readSizes === undefined ? {} : { readSizes }) }],
    testCase.builtInTools,
  );
  return { transport, binding: createProtocolEngineTargetBindingV1({ target, bindTransport: () => transport }) };
}

function taskOf(testCase: AgentCliConformanceCase, stream: boolean) {
  return { ...(testCase.task ?? { kind: 'chat', messages: [{ role: 'user', content: [{ type: 'text', text: 'Say hello' }] }] }), stream } as const;
}

function isSubsequence(needle: readonly string[], haystack: readonly string[]): boolean {
  let at = 0;
  for (const item of haystack) if (at < needle.length && item === needle[at]) at += 1;
  return at === needle.length;
}

describe('agent-cli/v1 conformance through the engine (recorded NDJSON)', () => {
  for (const testCase of agentCliConformanceCases) {
    for (const stream of [true, false]) {
      it(`${testCase.name} (${stream ? 'stream' : 'sync'})`, async () => {
        // Stream cases read the bytes in awkward splits (1, 7 and 64 bytes): the framing must not depend on reads.
        const { transport, binding } = bind(testCase, stream ? [1, 7, 64] : undefined);
        const expected = testCase.expect;
        const running = engine.execute({ binding, task: taskOf(testCase, stream) as never, signal });
        if (expected.kind === 'engine-refused') {
          const error = await running.catch((caught: unknown) => caught);
          expect(isProtocolEngineErrorV1(error) && error.code).toBe(expected.code);
          expect(transport.requests).toHaveLength(0);
          return;
        }
        const execution = await running;
        if (expected.kind === 'rejected') {
          if (execution.kind === 'stream') for await (const event of execution.events) expect(event).toBeUndefined();
          const refused = execution.kind === 'stream' ? await execution.terminal : execution.kind === 'response' ? execution.terminal : undefined;
          expect(execution.acceptance).toEqual({ state: 'not-accepted' });
          expect(refused).toMatchObject({ status: 'failed', failure: { code: expected.code } });
          expect(transport.requests).toHaveLength(0);
          return;
        }
        expect(transport.requests).toHaveLength(1);
        const request = transport.requests[0]!;
        if (testCase.args !== undefined) expect(isSubsequence(testCase.args, request.args), JSON.stringify(request.args)).toBe(true);
        for (const [name, part] of Object.entries(testCase.files ?? {})) expect(request.files?.[name]).toContain(part);
        if (testCase.program === 'claude-code') expect(JSON.parse(request.stdin ?? '')).toEqual({ type: 'user', message: { role: 'user', content: [{ type: 'text', text: 'Say hello' }] } });
        let terminal;
        const events: NormalizedStreamEventV4[] = [];
        if (stream) {
          expect(execution.kind).toBe('stream');
          if (execution.kind !== 'stream') return;
          for await (const event of execution.events) events.push(event);
          terminal = await execution.terminal;
        } else if (execution.kind === 'response') {
          terminal = execution.terminal;
        } else {
          expect(execution).toMatchObject({ kind: 'rejected', failureCode: expected.kind === 'failed' ? expected.code : 'none' });
          return;
        }
        if (expected.kind === 'failed') {
          expect(terminal).toMatchObject({ status: 'failed', failure: { code: expected.code, retryable: expected.retryable, ...(expected.providerCode === undefined ? {} : { providerCode: expected.providerCode }) } });
          return;
        }
        expect(terminal).toMatchObject(expected.terminal);
        expect(events.some((event) => event.type.startsWith('tool-call'))).toBe(false);
        const joined = (kind: 'text-delta' | 'reasoning-delta') => events.flatMap((event) => (event.type === kind ? [event.delta] : [])).join('');
        const result = terminal?.status === 'completed' && terminal.result.kind === 'chat' ? terminal.result.content : [];
        const fromResult = (type: 'text' | 'reasoning') => result.flatMap((part) => (part.type === type ? [part.text] : [])).join('');
        expect(fromResult('text')).toBe(expected.text);
        expect(fromResult('reasoning')).toBe(expected.reasoning ?? '');
        if (stream) {
          expect(joined('text-delta')).toBe(expected.text);
          expect(joined('reasoning-delta')).toBe(expected.reasoning ?? '');
        }
      });
    }
  }
});
