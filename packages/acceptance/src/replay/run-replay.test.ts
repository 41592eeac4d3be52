import type { TaskEnvelopeV2 } from '@tokenforge/model-protocol';
import { describe, expect, it } from 'vitest';
import { defaultReplayCapability } from './replay-defaults.js';
import { createBuiltinTokenForgeProtocolSuiteV1 } from '@tokenforge/provider-adapters';
import { runReplayV1 } from './run-replay.js';
import { suite } from './test-support/example-suite.js';

const encoder = new TextEncoder();

const files: Record<string, string> = {
  'chat.json': JSON.stringify({ text: 'hi there', usage: { input: 3, output: 2 } }),
  'error.json': JSON.stringify({ error: 'slow down' }),
  'stream.chunks.txt': '{"delta":"hi"}\n{"delta":" there"}\n{"done":true,"usage":{"input":3,"output":2}}\n',
  'truncated.chunks.txt': '{"delta":"hi"}\n',
  'bad-delta.chunks.txt': '{"delta":5}\n{"done":true}\n',
  'task.json': JSON.stringify({ kind: 'chat', messages: [{ role: 'user', content: [{ type: 'text', text: 'hello' }] }], stream: false }),
  'stream-task.json': JSON.stringify({ kind: 'chat', messages: [{ role: 'user', content: [{ type: 'text', text: 'hello' }] }], stream: true }),
  'invalid-task.json': JSON.stringify({ kind: 'chat', messages: [] }),
  'video-task.json': JSON.stringify({ kind: 'video-generation', prompt: 'a calm sea' }),
  'embedding-task.json': JSON.stringify({ kind: 'embedding', inputs: ['a'] }),
  'client.json': JSON.stringify({ model: 'client-model', prompt: 'hello' }),
  'bad-client.json': JSON.stringify({ model: 'client-model' }),
  'embedding-only.capability.json': JSON.stringify({ protocolFamily: 'example-chat/v1', executionMode: 'sync', taskKinds: ['embedding'], embedding: { spaceId: 's', defaultDimensions: 3 } }),
  'job.json': JSON.stringify({ id: 'job-1' }),
  'running.json': JSON.stringify({ status: 'running' }),
  'done.json': JSON.stringify({ status: 'done' }),
  'list.json': JSON.stringify({ ids: ['job-1', 'job-2'] }),
  'refused.json': JSON.stringify({ error: 'bad' }),
};

async function replay(argv: string[]): Promise<{ exit: number; lines: unknown[]; stdout: string; stderr: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const decoder = new TextDecoder();
  const exit = await runReplayV1({
    argv,
    suite,
    readFile: async (path) => {
      const content = files[path];
      if (content === undefined) throw new Error('ENOENT');
      return encoder.encode(content);
    },
    stdout: (chunk) => out.push(typeof chunk === 'string' ? chunk : decoder.decode(chunk)),
    stderr: (text) => err.push(text),
  });
  const stdout = out.join('');
  const lines = argsAreEgress(argv) ? [] : stdout.split('\n').filter((line) => line.length > 0).map((line) => JSON.parse(line) as unknown);
  return { exit, lines, stdout, stderr: err.join('') };
}

const argsAreEgress = (argv: string[]): boolean => argv.includes('--egress');

describe('runReplayV1: sync and stream families', () => {
  it('prints the terminal of a whole response and exits 0', async () => {
    const result = await replay(['--family', 'example-chat/v1', '--task', 'task.json', '--response', 'chat.json']);
    expect(result.lines).toEqual([
      {
        type: 'terminal',
        acceptance: 'accepted',
        responseMetadata: {},
        terminal: {
          status: 'completed',
          result: { kind: 'chat', content: [{ type: 'text', text: 'hi there' }] },
          finishReason: { unified: 'stop', raw: 'done' },
          usage: { inputTokens: 3, outputTokens: 2 },
        },
      },
    ]);
    expect(result.exit).toBe(0);
  });

  it('replays the given status and exits 1 for a failed terminal', async () => {
    const result = await replay(['--family', 'example-chat/v1', '--task', 'task.json', '--response', 'error.json', '--status', '429']);
    expect(result.lines).toEqual([
      { type: 'terminal', acceptance: 'accepted', responseMetadata: {}, terminal: { status: 'failed', failure: { code: 'rate-limited', retryable: true } } },
    ]);
    expect(result.exit).toBe(1);
  });

  it('prints each normalized event of a chunks file, then the terminal', async () => {
    const result = await replay(['--family', 'example-chat/v1', '--task', 'stream-task.json', '--response', 'stream.chunks.txt', '--framing', 'raw']);
    expect(result.lines).toEqual([
      { type: 'event', event: { type: 'text-start', index: 0 } },
      { type: 'event', event: { type: 'text-delta', index: 0, delta: 'hi' } },
      { type: 'event', event: { type: 'text-delta', index: 0, delta: ' there' } },
      { type: 'event', event: { type: 'text-end', index: 0 } },
      { type: 'event', event: { type: 'usage', usage: { inputTokens: 3, outputTokens: 2 } } },
      {
        type: 'terminal',
        acceptance: 'accepted',
        responseMetadata: {},
        terminal: {
          status: 'completed',
          result: { kind: 'chat', content: [{ type: 'text', text: 'hi there' }] },
          finishReason: { unified: 'stop', raw: 'done' },
          usage: { inputTokens: 3, outputTokens: 2 },
        },
      },
    ]);
    expect(result.exit).toBe(0);
  });

  it('exits 1 for a truncated stream', async () => {
    const result = await replay(['--family', 'example-chat/v1', '--task', 'stream-task.json', '--response', 'truncated.chunks.txt', '--framing', 'raw']);
    expect(result.lines.at(-1)).toMatchObject({ type: 'terminal', terminal: { status: 'failed', failure: { code: 'truncated-stream' } } });
    expect(result.exit).toBe(1);
  });

  it('prints the engine error code and phase and exits 3 when the adapter breaks the contract', async () => {
    const result = await replay(['--family', 'example-chat/v1', '--task', 'stream-task.json', '--response', 'bad-delta.chunks.txt', '--framing', 'raw']);
    const line = result.lines.at(-1) as { message?: unknown; causes?: unknown };
    expect(line).toMatchObject({ type: 'engine-error', code: 'PROTOCOL_ENGINE_ADAPTER_OUTPUT_INVALID', phase: 'adapter' });
    expect(typeof line.message).toBe('string');
    expect(result.exit).toBe(3);
  });

  it('prints the usage on --help and exits 0', async () => {
    const out: string[] = [];
    const exit = await runReplayV1({ argv: ['--help'], suite, stdout: (chunk) => out.push(String(chunk)), stderr: () => undefined });
    expect(out.join('')).toContain('usage: npx --yes pnpm@12.4.2 exec tokenforge-replay');
    expect(exit).toBe(0);
  });

  it('exits 3 with the engine error of a target that refuses the task (capability file)', async () => {
    const result = await replay(['--family', 'example-chat/v1', '--task', 'task.json', '--response', 'chat.json', '--capability', 'embedding-only.capability.json']);
    expect(result.lines).toHaveLength(1);
    expect(result.lines[0]).toMatchObject({ type: 'engine-error', code: 'PROTOCOL_ENGINE_TARGET_TASK_MISMATCH', phase: 'input' });
    expect(typeof (result.lines[0] as { message?: unknown }).message).toBe('string');
    expect(result.exit).toBe(3);
    expect(result.stderr).toContain('1 response file(s) were never requested');
  });
});

describe('runReplayV1: ingress and egress', () => {
  it('builds the task through the ingress codec, with facts from --request-path, and shows the request sent', async () => {
    const result = await replay([
      '--family', 'example-chat/v1', '--ingress', 'example-chat/v1', '--request', 'client.json',
      '--request-path', '/v1/chat:stream', '--response', 'stream.chunks.txt', '--framing', 'raw', '--show-requests',
    ]);
    expect(result.exit).toBe(0);
    expect(result.lines.filter((line) => (line as { type: string }).type === 'event')).toHaveLength(5);
    expect(result.lines.at(-1)).toEqual({
      type: 'request',
      method: 'POST',
      path: '/v1/chat',
      headers: { 'content-type': 'application/json' },
      body: { type: 'json', value: { model: 'client-model', prompt: 'hello', stream: true } },
    });
  });

  it('prints the ingress codec error and exits 2 when the client request is refused', async () => {
    const result = await replay(['--family', 'example-chat/v1', '--ingress', 'example-chat/v1', '--request', 'bad-client.json', '--response', 'chat.json']);
    expect(result.lines).toEqual([{ type: 'ingress-error', code: 'invalid-request', path: 'prompt' }]);
    expect(result.exit).toBe(2);
  });

  it('prints the client-dialect stream bytes with --egress', async () => {
    const result = await replay([
      '--family', 'example-chat/v1', '--ingress', 'example-chat/v1', '--request', 'client.json',
      '--request-path', '/v1/chat:stream', '--response', 'stream.chunks.txt', '--framing', 'raw', '--egress',
    ]);
    expect(result.stdout).toBe('data: {"delta":"hi"}\n\ndata: {"delta":" there"}\n\ndata: {"finish":"completed"}\n\n');
    expect(result.stderr).toContain('egress stream text/event-stream');
    expect(result.exit).toBe(0);
  });

  it('uses the provider family egress codec when there is no ingress', async () => {
    const result = await replay(['--family', 'example-chat/v1', '--task', 'task.json', '--response', 'chat.json', '--egress']);
    expect(JSON.parse(result.stdout)).toEqual({ id: 'replay-response', model: 'replay-model', text: 'hi there' });
    expect(result.stderr).toContain('egress status 200');
  });

  it('prints the engine error in the client dialect with --egress and exits 3', async () => {
    const result = await replay([
      '--family', 'example-chat/v1', '--task', 'task.json', '--response', 'chat.json', '--capability', 'embedding-only.capability.json', '--egress',
    ]);
    expect(JSON.parse(result.stdout)).toEqual({ error: 'PROTOCOL_ENGINE_TARGET_TASK_MISMATCH' });
    expect(result.exit).toBe(3);
  });
});

describe('runReplayV1: async families', () => {
  it('prints the accepted job, then one observation per further response', async () => {
    const result = await replay(['--family', 'example-video/v1', '--task', 'video-task.json', '--response', 'job.json', '--response', 'running.json', '--response', 'done.json']);
    expect(result.lines).toEqual([
      { type: 'accepted-job', providerJobId: 'job-1', responseMetadata: {} },
      { type: 'observation', snapshot: { providerJobId: 'job-1', state: 'running' } },
      { type: 'observation', snapshot: { providerJobId: 'job-1', state: 'succeeded' } },
    ]);
    expect(result.exit).toBe(0);
  });

  it('reads list responses with --job-operation list', async () => {
    const result = await replay([
      '--family', 'example-video/v1', '--task', 'video-task.json', '--response', 'job.json', '--response', 'list.json', '--job-operation', 'list',
    ]);
    expect(result.lines.at(-1)).toEqual({
      type: 'list',
      items: [
        { providerJobId: 'job-1', state: 'queued' },
        { providerJobId: 'job-2', state: 'queued' },
      ],
      total: 2,
      totalKind: 'exact',
    });
    expect(result.exit).toBe(0);
  });

  it('exits 1 for a rejected start', async () => {
    const result = await replay(['--family', 'example-video/v1', '--task', 'video-task.json', '--response', 'refused.json', '--status', '400']);
    expect(result.lines).toEqual([
      { type: 'rejected', acceptance: 'not-accepted', failureCode: 'invalid-request', retryable: false, responseMetadata: {} },
    ]);
    expect(result.exit).toBe(1);
  });
});

describe('runReplayV1: usage errors exit 2', () => {
  it.each([
    ['no family', ['--task', 'task.json', '--response', 'chat.json'], '--family is required'],
    ['a malformed family', ['--family', 'Chat', '--task', 'task.json', '--response', 'chat.json'], '--family must be a protocol family'],
    ['an unregistered family', ['--family', 'missing/v1', '--task', 'task.json', '--response', 'chat.json'], 'families: example-chat/v1, example-video/v1'],
    ['no response', ['--family', 'example-chat/v1', '--task', 'task.json'], 'at least one --response'],
    ['no task source', ['--family', 'example-chat/v1', '--response', 'chat.json'], 'give --ingress with --request, or --task'],
    ['both task sources', ['--family', 'example-chat/v1', '--task', 'task.json', '--ingress', 'example-chat/v1', '--request', 'client.json', '--response', 'chat.json'], 'not both'],
    ['--ingress without --request', ['--family', 'example-chat/v1', '--ingress', 'example-chat/v1', '--response', 'chat.json'], '--ingress needs --request'],
    ['--request-path without --ingress', ['--family', 'example-chat/v1', '--task', 'task.json', '--request-path', '/x', '--response', 'chat.json'], '--request-path needs --ingress'],
    ['an ingress family without codecs', ['--family', 'example-chat/v1', '--ingress', 'example-video/v1', '--request', 'client.json', '--response', 'chat.json'], 'does not take part in direct HTTP'],
    ['a bad status', ['--family', 'example-chat/v1', '--task', 'task.json', '--response', 'chat.json', '--status', '700'], '--status must be an integer'],
    ['an unknown flag', ['--family', 'example-chat/v1', '--task', 'task.json', '--response', 'chat.json', '--verbose'], 'Unknown option'],
    ['a missing file', ['--family', 'example-chat/v1', '--task', 'task.json', '--response', 'missing.json'], 'cannot read response file missing.json'],
    ['an invalid task', ['--family', 'example-chat/v1', '--task', 'invalid-task.json', '--response', 'chat.json'], 'not a valid task'],
    ['chunks without a known framing', ['--family', 'example-chat/v1', '--task', 'stream-task.json', '--response', 'stream.chunks.txt'], 'pass --framing'],
    ['an embedding task without dimensions', ['--family', 'example-chat/v1', '--task', 'embedding-task.json', '--response', 'chat.json'], '--embedding-dimensions'],
    ['--egress for a family without codecs', ['--family', 'example-video/v1', '--task', 'video-task.json', '--response', 'job.json', '--egress'], 'does not take part in direct HTTP'],
  ])('refuses %s', async (_label, argv, message) => {
    const result = await replay(argv);
    expect(result.exit).toBe(2);
    expect(result.stderr).toContain(message);
    expect(result.stderr).toContain('usage: npx --yes pnpm@12.4.2 exec tokenforge-replay');
  });
});

describe('defaultReplayCapability', () => {
  const chat: TaskEnvelopeV2 = { kind: 'chat', messages: [{ role: 'user', content: [{ type: 'text', text: 'x' }] }], stream: true };

  it('admits the task kind and every input feature; async families get async-job and callbacks', () => {
    expect(defaultReplayCapability({ family: 'example-chat/v1', async: false, task: chat })).toEqual({
      protocolFamily: 'example-chat/v1',
      executionMode: 'stream-capable',
      taskKinds: ['chat'],
      tools: true,
      imageInput: true,
      documentInput: true,
      audioInput: true,
      reasoning: true,
      structuredOutput: true,
    });
    expect(defaultReplayCapability({ family: 'example-video/v1', async: true, task: { kind: 'video-generation', prompt: 'x' } })).toMatchObject({
      executionMode: 'async-job',
      taskKinds: ['video-generation'],
      callbackUrl: true,
    });
  });

  it('declares an embedding space from the flag or the task dimensions', () => {
    expect(defaultReplayCapability({ family: 'e/v1', async: false, task: { kind: 'embedding', inputs: ['a'] }, embeddingDimensions: 5 })).toMatchObject({
      embedding: { spaceId: 'replay', defaultDimensions: 5 },
    });
    expect(defaultReplayCapability({ family: 'e/v1', async: false, task: { kind: 'embedding', inputs: ['a'], dimensions: 7 } })).toMatchObject({
      embedding: { spaceId: 'replay', defaultDimensions: 7 },
    });
    expect(typeof defaultReplayCapability({ family: 'e/v1', async: false, task: { kind: 'embedding', inputs: ['a'] } })).toBe('string');
  });
});

describe('runReplayV1: diagnostics of the builtin families', () => {
  it('prints why a failed terminal failed, as a diagnostic line before it, without the offending value', async () => {
    const out: string[] = [];
    const bodies: Record<string, string> = {
      'task.json': files['task.json'] as string,
      'stream-task.json': files['stream-task.json'] as string,
      'empty.json': '{}',
      'bad.chunks.txt': '{"id":"c","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{"content":5},"finish_reason":null}]}\n',
    };
    const run = async (argv: string[]) => {
      out.length = 0;
      const exit = await runReplayV1({
        argv,
        suite: createBuiltinTokenForgeProtocolSuiteV1(),
        readFile: async (path) => encoder.encode(bodies[path] as string),
        stdout: (chunk) => out.push(typeof chunk === 'string' ? chunk : new TextDecoder().decode(chunk)),
        stderr: () => undefined,
      });
      return { exit, lines: out.join('').split('\n').filter((line) => line.length > 0).map((line) => JSON.parse(line) as Record<string, unknown>) };
    };
    const sync = await run(['--family', 'openai-chat/v1', '--task', 'task.json', '--response', 'empty.json']);
    expect(sync.exit).toBe(1);
    expect(sync.lines[0]).toEqual({ type: 'diagnostic', code: 'protocol-violation', rule: 'invalid-event: openai-chat body.choices is required' });
    expect(sync.lines[1]).toMatchObject({ type: 'terminal', terminal: { status: 'failed', failure: { code: 'protocol-violation' } } });
    const stream = await run(['--family', 'openai-chat/v1', '--task', 'stream-task.json', '--response', 'bad.chunks.txt']);
    expect(stream.lines.map((line) => line.type)).toEqual(['diagnostic', 'terminal']);
    expect(stream.lines[0]).toMatchObject({ code: 'protocol-violation', rule: expect.stringContaining('choices.0.delta.content') });
    expect(JSON.stringify(stream.lines[0])).not.toContain('"5"');
  });

  it('prints why a job get failed before the engine error', async () => {
    const { readFileSync } = await import('node:fs');
    const created = readFileSync(new URL('../../../provider-adapters/src/protocols/kling-video/__fixtures__/constructed__create-text2video-submitted.json', import.meta.url), 'utf8');
    const out: string[] = [];
    const bodies: Record<string, string> = { 'video.json': files['video-task.json'] as string, 'created.json': created, 'cut.json': '{"code":0,"data":{"task_id":"t' };
    const exit = await runReplayV1({
      argv: ['--family', 'kling-video/v1', '--task', 'video.json', '--response', 'created.json', '--response', 'cut.json'],
      suite: createBuiltinTokenForgeProtocolSuiteV1(),
      readFile: async (path) => encoder.encode(bodies[path] as string),
      stdout: (chunk) => out.push(typeof chunk === 'string' ? chunk : new TextDecoder().decode(chunk)),
      stderr: () => undefined,
    });
    const lines = out.join('').split('\n').filter((line) => line.length > 0).map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(exit).toBe(3);
    expect(lines.map((line) => line.type)).toEqual(['accepted-job', 'diagnostic', 'engine-error']);
    expect(lines[1]).toMatchObject({ code: 'protocol-violation', rule: expect.stringContaining('malformed-json') });
  });
});
