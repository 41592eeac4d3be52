import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const repositoryRoot = fileURLToPath(new URL('../../../../', import.meta.url));
const exampleSuiteModule = fileURLToPath(new URL('./test-support/example-suite.ts', import.meta.url));
const workspace = mkdtempSync(join(tmpdir(), 'tokenforge-replay-'));

function file(name: string, content: string): string {
  const path = join(workspace, name);
  writeFileSync(path, content);
  return path;
}

const streamTask = file('task.json', JSON.stringify({ kind: 'chat', messages: [{ role: 'user', content: [{ type: 'text', text: 'hello' }] }], stream: true }));
const chunks = file('stream.chunks.txt', '{"delta":"hi"}\n{"done":true}\n');
const badChunks = file('bad.chunks.txt', '{"delta":5}\n{"done":true}\n');

function runCli(args: string[]): { status: number | null; lines: unknown[]; stderr: string } {
  // The documented command's bin, run by Node as `pnpm exec` runs it.
  const result = spawnSync(process.execPath, ['packages/acceptance/bin/tokenforge-replay.mjs', ...args], {
    cwd: repositoryRoot,
    encoding: 'utf8',
    env: { ...process.env, TOKENFORGE_REPLAY_TEST_ONLY_SUITE_MODULE: exampleSuiteModule, NO_COLOR: '1' },
    timeout: 60_000,
  });
  const lines = result.stdout
    .split('\n')
    .filter((line) => line.length > 0)
    .map((line) => JSON.parse(line) as unknown);
  return { status: result.status, lines, stderr: result.stderr };
}

afterAll(() => {
  rmSync(workspace, { recursive: true, force: true });
});

describe('replay CLI (spawned process, test-only example suite)', () => {
  it('prints events and the terminal as JSON lines and exits 0', () => {
    const result = runCli(['--', '--family', 'example-chat/v1', '--task', streamTask, '--response', chunks, '--framing', 'raw']);
    expect(result.stderr).toContain('test-only suite');
    expect(result.lines).toEqual([
      { type: 'event', event: { type: 'text-start', index: 0 } },
      { type: 'event', event: { type: 'text-delta', index: 0, delta: 'hi' } },
      { type: 'event', event: { type: 'text-end', index: 0 } },
      {
        type: 'terminal',
        acceptance: 'accepted',
        responseMetadata: {},
        terminal: { status: 'completed', result: { kind: 'chat', content: [{ type: 'text', text: 'hi' }] }, finishReason: { unified: 'stop', raw: 'done' } },
      },
    ]);
    expect(result.status).toBe(0);
  });

  it('exits 3 with the engine error code and phase', () => {
    const result = runCli(['--family', 'example-chat/v1', '--task', streamTask, '--response', badChunks, '--framing', 'raw']);
    expect(result.lines.at(-1)).toMatchObject({ type: 'engine-error', code: 'PROTOCOL_ENGINE_ADAPTER_OUTPUT_INVALID', phase: 'adapter' });
    expect(result.status).toBe(3);
  });

  it('exits 2 on a usage error', () => {
    const result = runCli(['--family', 'example-chat/v1', '--response', chunks]);
    expect(result.lines).toEqual([]);
    expect(result.stderr).toContain('usage: npx --yes pnpm@12.4.2 exec tokenforge-replay');
    expect(result.status).toBe(2);
  });

  it('runs as documented, through pnpm exec, with its own exit status and no [ELIFECYCLE] line', () => {
    const result = spawnSync('npx', ['--yes', 'pnpm@12.4.2', 'exec', 'tokenforge-replay', '--family', 'example-chat/v1', '--response', chunks], {
      cwd: repositoryRoot,
      encoding: 'utf8',
      env: { ...process.env, NO_COLOR: '1' },
      timeout: 60_000,
    });
    expect(result.stderr).toContain('usage: npx --yes pnpm@12.4.2 exec tokenforge-replay');
    expect(`${result.stdout}${result.stderr}`).not.toContain('ELIFECYCLE');
    expect(result.status).toBe(2);
  });
});
