import { readdirSync, readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createBuiltinTokenForgeProtocolSuiteV1 } from '@tokenforge/provider-adapters';
import { describe, expect, it } from 'vitest';
import { REPLAY_EXIT, runReplayV1 } from './run-replay.js';

const protocolsRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../../../provider-adapters/src/protocols');
const suite = createBuiltinTokenForgeProtocolSuiteV1();
const registered = new Set(suite.registry.listProtocolFamilies());

/** The accepted create response replayed before each fixture of an async family. */
const ASYNC_CREATE_FIXTURES: Readonly<Record<string, string>> = {
  'dashscope-tasks': 'cnblogs-dashscope-sdk__image-synthesis-nosse.response.body.txt',
  'kling-video': 'constructed__create-text2video-submitted.json',
};

const CHAT_FAMILIES = new Set(['openai-chat', 'openai-responses', 'anthropic-messages', 'gemini-generate-content']);

interface FixtureCase {
  readonly family: string;
  readonly file: string;
  readonly path: string;
}

function fixtureCases(): FixtureCase[] {
  const cases: FixtureCase[] = [];
  for (const family of readdirSync(protocolsRoot).sort()) {
    const folder = join(protocolsRoot, family, '__fixtures__');
    let files: string[];
    try {
      files = readdirSync(folder);
    } catch {
      continue;
    }
    for (const file of files.sort()) {
      if (!/\.(json|txt)$/.test(file) || file.endsWith('.header.txt')) continue;
      cases.push({ family, file, path: join(folder, file) });
    }
  }
  return cases;
}

function isStream(path: string): boolean {
  if (path.endsWith('.chunks.txt')) return true;
  const head = readFileSync(path, 'utf8').replace(/^\uFEFF/, '').trimStart();
  return !head.startsWith('{') && !head.startsWith('[');
}

function readJson(path: string): Record<string, unknown> | undefined {
  try {
    const value = JSON.parse(readFileSync(path, 'utf8').replace(/^\uFEFF/, '')) as unknown;
    return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/** A task that fits the fixture as well as its shape allows; the assertion is only that the outcome is typed. */
function taskFor(fixture: FixtureCase): { task: unknown; extra: string[] } {
  const user = [{ role: 'user', content: [{ type: 'text', text: 'replay' }] }];
  if (CHAT_FAMILIES.has(fixture.family)) {
    return {
      task: { kind: 'chat', stream: isStream(fixture.path), messages: user, tools: [{ name: 'replay_tool', inputSchema: { type: 'object' } }] },
      extra: [],
    };
  }
  const body = readJson(fixture.path);
  switch (fixture.family) {
    case 'openai-embeddings': {
      const data = Array.isArray(body?.data) ? (body.data as Array<{ embedding?: unknown }>) : [];
      const first = data[0]?.embedding;
      const dimensions = Array.isArray(first) ? first.length : 8;
      return {
        task: { kind: 'embedding', inputs: (data.length > 0 ? data : [0]).map((_, index) => `input ${index}`) },
        extra: ['--embedding-dimensions', String(Math.max(dimensions, 1))],
      };
    }
    case 'cohere-rerank': {
      const results = [body?.results, body?.data].find(Array.isArray) as Array<{ index?: unknown }> | undefined;
      const highest = Math.max(0, ...(results ?? []).map((item) => (typeof item.index === 'number' ? item.index : 0)));
      return { task: { kind: 'rerank', query: 'replay', documents: Array.from({ length: highest + 1 }, (_, index) => `doc ${index}`) }, extra: [] };
    }
    case 'openai-images':
      return { task: { kind: 'image-generation', prompt: 'replay', count: 10 }, extra: [] };
    default:
      return { task: { kind: 'video-generation', prompt: 'replay' }, extra: [] };
  }
}

const cases = fixtureCases();

describe('pnpm replay on every fixture of every builtin family (async: create, then get or list)', () => {
  it('finds fixtures of every registered family that ships them', () => {
    const families = new Set(cases.map((fixture) => `${fixture.family}/v1`));
    for (const family of families) expect(registered.has(family as never), `${family} has fixtures but is not registered`).toBe(true);
    expect(cases.length).toBeGreaterThan(20);
  });

  it.each(cases.filter((fixture) => registered.has(`${fixture.family}/v1` as never)).map((fixture) => [`${fixture.family}/${fixture.file}`, fixture] as const))(
    '%s gives a typed outcome',
    async (_name, fixture) => {
      const { task, extra } = taskFor(fixture);
      const taskPath = '/replay/task.json';
      const stdout: string[] = [];
      const stderr: string[] = [];
      const decoder = new TextDecoder();
      // Async families: a create that the provider accepted, then the fixture as the get (or list) response.
      const createFixture = ASYNC_CREATE_FIXTURES[fixture.family];
      const responses =
        createFixture === undefined
          ? ['--response', fixture.path]
          : ['--response', join(protocolsRoot, fixture.family, '__fixtures__', createFixture), '--response', fixture.path, '--job-operation', fixture.file.includes('list') ? 'list' : 'get'];
      const exit = await runReplayV1({
        argv: ['--family', `${fixture.family}/v1`, ...responses, '--task', taskPath, ...extra],
        suite,
        readFile: async (path) => (path === taskPath ? new TextEncoder().encode(JSON.stringify(task)) : new Uint8Array(await readFile(path))),
        stdout: (chunk) => stdout.push(typeof chunk === 'string' ? chunk : decoder.decode(chunk)),
        stderr: (text) => stderr.push(text),
      });
      expect([REPLAY_EXIT.completed, REPLAY_EXIT.failed, REPLAY_EXIT.engineError], stderr.join('')).toContain(exit);
      const lines = stdout.join('').trim().split('\n');
      expect(lines.length).toBeGreaterThan(0);
      for (const line of lines) expect(() => JSON.parse(line) as unknown).not.toThrow();
      if (CHAT_FAMILIES.has(fixture.family) && fixture.file.startsWith('vercel-ai__') && !fixture.file.includes('error')) {
        expect(exit, `${fixture.file}: ${lines.at(-1) ?? ''}`).toBe(REPLAY_EXIT.completed);
      }
    },
  );
});

describe('the sample task files shipped with the replay README', () => {
  const samples = resolve(dirname(fileURLToPath(import.meta.url)), 'samples');
  const recorded = (family: string, file: string) => join(protocolsRoot, family, '__fixtures__', file);

  it.each([
    ['chat-stream-task.json', 'openai-chat/v1', recorded('openai-chat', 'vercel-ai__openai-text.chunks.txt')],
    ['chat-task.json', 'anthropic-messages/v1', recorded('anthropic-messages', 'vercel-ai__anthropic-text.json')],
  ])('%s replays against a recorded %s answer', async (sample, family, response) => {
    const out: string[] = [];
    const exit = await runReplayV1({
      argv: ['--family', family, '--task', join(samples, sample), '--response', response],
      suite,
      stdout: (chunk) => out.push(String(chunk)),
      stderr: () => undefined,
    });
    expect(exit).toBe(REPLAY_EXIT.completed);
    expect(out.join('')).toContain('"type":"terminal"');
  });

  it('embedding-task.json is a task the engine accepts', async () => {
    const exit = await runReplayV1({
      argv: ['--family', 'openai-embeddings/v1', '--task', join(samples, 'embedding-task.json'), '--response', recorded('openai-embeddings', 'vercel-ai__openai-embedding.json'), '--embedding-dimensions', '5'],
      suite,
      stdout: () => undefined,
      stderr: () => undefined,
    });
    expect(exit).toBe(REPLAY_EXIT.completed);
  });
});
