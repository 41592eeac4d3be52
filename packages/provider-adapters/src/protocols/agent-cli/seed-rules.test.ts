/**
 * The driver seed's framing and settlement rules, and our decoding rules, one test each (issue #35): the shared
 * NDJSON reader, each CLI's mapping and the shared fold.
 */
import type { ProviderDiagnosticV3, ProviderDispatchTargetV3 } from '@tokenforge/model-protocol';
import { ProviderProcessFailureV4 } from '@tokenforge/model-protocol';
import { createProtocolEngineTargetBindingV1, createProtocolEngineV1, isProtocolEngineErrorV1 } from '@tokenforge/protocol-engine';
import { describe, expect, it } from 'vitest';
import { isProtocolViolationError } from '../../codec-kit/index.js';
import { createTokenForgeProtocolSuiteV1 } from '../../suite/create-protocol-suite-v1.js';
import { agentCliMapping } from './adapter.js';
import { AGENT_CLI_NAMES, type AgentCliName } from './cli-mapping.js';
import { CliFrameFold } from './convert-cli-frames.js';
import { readCliDocuments, type CliDocument } from './decode-stream.js';
import { AGENT_CLI_CAPABILITY } from './protocol-family.js';
import { createAgentCliSuiteEntryV1 } from './suite-entry.js';

async function* bytes(text: string): AsyncGenerator<Uint8Array> {
  yield new TextEncoder().encode(text);
}

async function documents(text: string, isKnownNoise?: (line: string) => boolean): Promise<unknown[]> {
  const values: unknown[] = [];
  const exit = Promise.resolve({ reason: 'exited', exitCode: 0 } as const);
  for await (const item of readCliDocuments(bytes(text), exit, { maxLineBytes: 1024, ...(isKnownNoise === undefined ? {} : { isKnownNoise }) })) {
    if (item.kind === 'document') values.push(item.value);
  }
  return values;
}

const mapping = (cli: AgentCliName) => agentCliMapping(cli)!;

/** Frames each CLI documents as bookkeeping (taken from the recorded fixtures): known, and they change nothing. */
const BOOKKEEPING: Record<AgentCliName, readonly unknown[]> = {
  'claude-code': [
    { type: 'system', subtype: 'init', session_id: 's', tools: [], model: 'm' },
    { type: 'system', subtype: 'status', status: 'requesting' },
    { type: 'system', subtype: 'permission_denied', tool_name: 'Read', tool_use_id: 't' },
    { type: 'rate_limit_event', rate_limit_info: {} },
    { type: 'stream_event', event: { type: 'message_start', message: {} }, parent_tool_use_id: null },
    { type: 'stream_event', event: { type: 'message_stop' }, parent_tool_use_id: null },
  ],
  codex: [
    { type: 'thread.started', thread_id: 't' },
    { type: 'turn.started' },
    { type: 'item.completed', item: { id: 'i', type: 'error', message: 'a warning of Codex' } },
    { type: 'item.started', item: { id: 'a', type: 'agent_message', text: '' } },
  ],
  'gemini-cli': [
    { type: 'init', session_id: 's', model: 'm' },
    { type: 'message', role: 'user', content: 'the prompt echoed' },
    { type: 'error', severity: 'warning', message: 'a warning' },
  ],
};

describe('the seed\'s framing rules (the shared NDJSON reader)', () => {
  it('a trailing partial line is still a line', async () => {
    expect(await documents('{"a":1}\n{"b":2}')).toEqual([{ a: 1 }, { b: 2 }]);
  });

  it('a blank line is not a document', async () => {
    expect(await documents('\n{"a":1}\n\n   \r\n\t\n{"b":2}\n\n')).toEqual([{ a: 1 }, { b: 2 }]);
  });

  it('a non-JSON line fails the run unless the mapping lists it as known noise', async () => {
    const text = '{"a":1}\nLoaded cached credentials.\n{"b":2}\n';
    expect(isProtocolViolationError(await documents(text).catch((error: unknown) => error))).toBe(true);
    expect(await documents(text, (line) => line === 'Loaded cached credentials.')).toEqual([{ a: 1 }, { b: 2 }]);
  });
});

describe('the decoding rules (each CLI\'s mapping)', () => {
  for (const cli of AGENT_CLI_NAMES) {
    it(`${cli}: the frames it documents as bookkeeping are known and harmless`, () => {
      const decode = mapping(cli).createDecoder();
      for (const document of BOOKKEEPING[cli]) expect(decode(document), JSON.stringify(document)).toEqual([]);
      // Through the fold: no event, no terminal, and the run still answers afterwards.
      const fold = new CliFrameFold(mapping(cli));
      for (const value of BOOKKEEPING[cli]) expect(fold.onFrame({ kind: 'document', value })).toBeUndefined();
    });

    it(`${cli}: an unknown frame kind fails the run`, () => {
      const decode = mapping(cli).createDecoder();
      const error = (() => {
        try {
          decode({ type: 'brand_new_kind_of_frame' });
          return undefined;
        } catch (caught) {
          return caught;
        }
      })();
      expect(isProtocolViolationError(error)).toBe(true);
    });
  }
});

describe('the settlement rules (the shared fold)', () => {
  const gemini = mapping('gemini-cli');
  const document = (value: unknown): CliDocument => ({ kind: 'document', value });

  it('a run whose output ends without its terminal frame is a truncated stream, never a success', () => {
    const ended = new CliFrameFold(gemini);
    ended.onFrame(document({ type: 'message', role: 'assistant', content: 'Hi', delta: true }));
    expect(ended.onFrame({ kind: 'exit', exit: { reason: 'exited', exitCode: 0 } })?.terminal).toMatchObject({ status: 'failed', failure: { code: 'truncated-stream', providerCode: 'agent-cli.truncated' } });
    const cut = new CliFrameFold(gemini);
    cut.onFrame(document({ type: 'message', role: 'assistant', content: 'Hi', delta: true }));
    expect(cut.onEnd()?.terminal).toMatchObject({ status: 'failed', failure: { code: 'truncated-stream', providerCode: 'agent-cli.truncated' } });
  });

  it('each hosted tool call is settled exactly once: a repeat dropped, an unannounced result settles its call, an open call settles as failed at the end', () => {
    const diagnostics: ProviderDiagnosticV3[] = [];
    const fold = new CliFrameFold(gemini, (diagnostic) => diagnostics.push(diagnostic));
    for (const value of [
      { type: 'tool_use', tool_name: 'read_file', tool_id: 'a', parameters: {} },
      { type: 'tool_result', tool_id: 'a', status: 'success' },
      { type: 'tool_result', tool_id: 'a', status: 'error' },
      { type: 'tool_result', tool_id: 'b', status: 'success' },
      { type: 'tool_use', tool_name: 'glob', tool_id: 'c', parameters: {} },
    ]) {
      fold.onFrame(document(value));
    }
    expect(fold.hostedTools).toEqual({ announced: 3, settled: 2, failed: 0 });
    const step = fold.onFrame(document({ type: 'result', status: 'success' }));
    expect(step?.terminal).toMatchObject({ status: 'completed' });
    expect(fold.hostedTools).toEqual({ announced: 3, settled: 3, failed: 1 });
    expect(diagnostics.map((diagnostic) => diagnostic.rule)).toEqual([
      'a second result for one hosted tool call was dropped',
      'a hosted tool result for a call never announced settled that call',
      'a hosted tool call the CLI never settled was settled as failed',
    ]);
    // Nothing is read after the terminal frame: a late result cannot settle a call a second time.
    expect(() => fold.onFrame(document({ type: 'tool_result', tool_id: 'c', status: 'success' }))).toThrow();
  });

  it('a spawn that fails is a failure before anything was sent (so a host may fall back)', async () => {
    const engine = createProtocolEngineV1({ registry: createTokenForgeProtocolSuiteV1({ entries: [createAgentCliSuiteEntryV1()] }).registry });
    const target: ProviderDispatchTargetV3 = { provider: 'local-cli', providerModel: 'm', connectionRef: 'cli', capability: AGENT_CLI_CAPABILITY };
    const transport = {
      transportKind: 'process/v4' as const,
      program: 'claude-code',
      send: () => Promise.reject(new ProviderProcessFailureV4('http-refused')),
      run: () => Promise.reject(new ProviderProcessFailureV4('executable-missing')),
    };
    const error = await engine
      .execute({
        binding: createProtocolEngineTargetBindingV1({ target, bindTransport: () => transport }),
        task: { kind: 'chat', stream: true, messages: [{ role: 'user', content: [{ type: 'text', text: 'Hi' }] }] },
        signal: new AbortController().signal,
      })
      .catch((caught: unknown) => caught);
    expect(isProtocolEngineErrorV1(error) && error.code).toBe('PROTOCOL_ENGINE_TRANSPORT_FAILED');
    expect((error as { cause?: unknown }).cause).toMatchObject({ stage: 'before-send', code: 'executable-missing' });
  });
});
