import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it, vi } from 'vitest';
import * as firstCopy from '../../index.js';
import { BYTES_CHAT_FAMILY, BYTES_JOBS_FAMILY, createBytesRegistry, createBytesTransport } from '../../test-support/bytes-registry.js';

type EngineModule = typeof import('../../index.js');

const BODIES: Record<string, string> = {
  '/respond': JSON.stringify({
    acceptance: { state: 'accepted' },
    responseMetadata: { providerRequestId: 'req-1', providerModel: 'served' },
    terminal: {
      status: 'completed',
      result: { kind: 'chat', content: [{ type: 'text', text: 'Grüße, 世界 👋' }] },
      finishReason: { unified: 'stop', raw: 'stop' },
      usage: { inputTokens: 4, outputTokens: 6, totalTokens: 10 },
    },
  }),
  '/stream': [
    { type: 'text-start', index: 0 },
    { type: 'text-delta', index: 0, delta: 'Grüße, ' },
    { type: 'text-delta', index: 0, delta: '世界 👋' },
    { type: 'text-end', index: 0 },
    { type: 'usage', usage: { inputTokens: 4, outputTokens: 6 } },
    {
      type: 'terminal',
      outcome: {
        status: 'completed',
        result: { kind: 'chat', content: [{ type: 'text', text: 'Grüße, 世界 👋' }] },
        finishReason: { unified: 'stop' },
        usage: { inputTokens: 4, outputTokens: 6, totalTokens: 10 },
      },
    },
  ]
    .map((part) => JSON.stringify(part))
    .join('\n'),
  '/start': JSON.stringify({ acceptance: { state: 'accepted' }, responseMetadata: {}, providerJobId: 'job-42' }),
  '/get': JSON.stringify({ status: 'ok', value: { providerJobId: 'job-42', state: 'running', progress: 0.5 } }),
  '/list': JSON.stringify({ status: 'ok', value: { items: [{ providerJobId: 'job-42', state: 'running' }], total: 1, totalKind: 'lower-bound' } }),
};

/** Drives one engine instance through every kind of operation and returns the facts it produced. */
async function facts(module: EngineModule): Promise<unknown> {
  const engine = module.createProtocolEngineV1({ registry: createBytesRegistry() });
  const bind = (protocolFamily: typeof BYTES_CHAT_FAMILY, executionMode: 'stream-capable' | 'async-job', taskKinds: ('chat' | 'video-generation')[]) =>
    module.createProtocolEngineTargetBindingV1({
      target: { provider: 'p', providerModel: 'm', connectionRef: 'c', capability: { protocolFamily, executionMode, taskKinds } },
      bindTransport: () => createBytesTransport(BODIES),
    });
  const chat = bind(BYTES_CHAT_FAMILY, 'stream-capable', ['chat']);
  const jobs = bind(BYTES_JOBS_FAMILY, 'async-job', ['video-generation']);
  const signal = new AbortController().signal;
  const messages = [{ role: 'user' as const, content: [{ type: 'text' as const, text: 'hi' }] }];

  const response = await engine.execute({ binding: chat, task: { kind: 'chat', messages, stream: false }, signal });
  const stream = await engine.execute({ binding: chat, task: { kind: 'chat', messages, stream: true }, signal });
  if (stream.kind !== 'stream') throw new Error('expected a stream');
  const events = [];
  for await (const event of stream.events) events.push(event);
  const streamTerminal = await stream.terminal;
  const started = await engine.execute({ binding: jobs, task: { kind: 'video-generation', prompt: 'waves' }, signal });
  const observation = await engine.jobs.get({ binding: jobs, providerJobId: 'job-42', signal });
  const page = await engine.jobs.list({ binding: jobs, pageNum: 1, pageSize: 10, signal });
  const refusal = await engine.jobs.cancel({ binding: jobs, providerJobId: 'job-42', signal }).catch((error: unknown) => ({
    recognized: firstCopy.isProtocolEngineErrorV1(error),
    code: (error as { code?: unknown }).code,
    phase: (error as { phase?: unknown }).phase,
  }));
  return {
    protocolFamilies: engine.protocolFamilies,
    response,
    stream: { kind: stream.kind, acceptance: stream.acceptance, responseMetadata: stream.responseMetadata, events, terminal: streamTerminal },
    started,
    observation,
    page,
    refusal,
  };
}

describe('host equivalence', () => {
  it('two separately loaded engine instances fed the same registry facts and bytes return deep-equal facts', async () => {
    vi.resetModules();
    const secondCopy = (await import('../../index.js')) as EngineModule;
    expect(secondCopy.createProtocolEngineV1).not.toBe(firstCopy.createProtocolEngineV1);
    expect(secondCopy.ProtocolEngineErrorV1).not.toBe(firstCopy.ProtocolEngineErrorV1);
    const [first, second] = [await facts(firstCopy), await facts(secondCopy)];
    expect(second).toEqual(first);
    expect(first).toMatchObject({
      response: { kind: 'response', terminal: { status: 'completed' } },
      stream: { terminal: { status: 'completed' } },
      started: { kind: 'accepted-job', providerJobId: 'job-42' },
      refusal: { recognized: true, code: 'PROTOCOL_ENGINE_CAPABILITY_UNSUPPORTED', phase: 'input' },
    });
  });
});

describe('host neutrality of the engine source', () => {
  it('no production module reads the provider identity or compares the wire model name', () => {
    const root = fileURLToPath(new URL('../../', import.meta.url));
    const files: string[] = [];
    const walk = (directory: string): void => {
      for (const name of readdirSync(directory)) {
        const path = join(directory, name);
        if (statSync(path).isDirectory()) {
          if (name !== 'test-support') walk(path);
        } else if (name.endsWith('.ts') && !name.endsWith('.test.ts')) {
          files.push(path);
        }
      }
    };
    walk(root);
    expect(files.length).toBeGreaterThan(10);
    for (const file of files) {
      const source = readFileSync(file, 'utf8');
      // The only read of `provider` is the copy of the dispatch fields into the validated target snapshot.
      const providerReads = source.match(/\.provider\b(?!Model|JobId|Callback|RequestId)/g) ?? [];
      expect({ file, providerReads: providerReads.length }).toEqual({ file, providerReads: file.endsWith('input-guards.ts') ? 1 : 0 });
      expect(source).not.toMatch(/providerModel\s*(?:===|!==|==|!=)|(?:===|!==|==|!=)\s*[\w.]*providerModel/);
      expect(source).not.toMatch(/\bswitch\s*\([^)]*provider/);
    }
  });
});
