import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isProviderProcessRunsExhaustedV4, isProviderProcessTransportV4, isProviderTransportFailureV1, type ProviderProcessRunV4 } from '@tokenforge/model-protocol';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createProcessProviderTransport } from './create-process-provider-transport.js';
import type { ProcessRunReport, ProcessTransportOptions } from './process-transport-options.js';

const CHILD = join(dirname(fileURLToPath(import.meta.url)), 'test-support', 'scripted-child.mjs');
const NODE_FOLDER = dirname(process.execPath);

let root: string;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'process-transport-test-'));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

function transport(overrides: Partial<ProcessTransportOptions> = {}, reports: ProcessRunReport[] = []) {
  return createProcessProviderTransport({
    program: 'scripted-child',
    executable: CHILD,
    configFolder: join(root, 'config'),
    workRoot: root,
    deadlineMs: 10_000,
    allowEnvironment: ['PATH'],
    onRunEnd: (report) => reports.push(report),
    ...overrides,
  });
}

async function readAll(run: ProviderProcessRunV4): Promise<string> {
  const decoder = new TextDecoder();
  let text = '';
  for await (const chunk of run.stdout) text += decoder.decode(chunk, { stream: true });
  return text + decoder.decode();
}

/** Whether `pid` is a live process (a zombie waiting for a reaper that is not ours counts as gone). */
function alive(pid: number): boolean {
  try {
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
}

/**
 * Waits for `pid` to be gone: SIGKILL to a process group is delivered asynchronously, so on a loaded machine a
 * grandchild can still be running for a few milliseconds after the direct child has closed.
 */
async function expectGone(pid: number): Promise<void> {
  await expect.poll(() => alive(pid), { timeout: 5_000, interval: 20 }).toBe(false);
}

describe('process transport', () => {
  it('is a transport the engine binds like any other, and refuses HTTP before sending', async () => {
    const bound = transport();
    expect(isProviderProcessTransportV4(bound)).toBe(true);
    const failure = await bound.send({ method: 'POST', path: '/', headers: {}, body: { type: 'none' }, signal: new AbortController().signal }).catch((error: unknown) => error);
    expect(isProviderTransportFailureV1(failure)).toBe(true);
    expect(failure).toMatchObject({ stage: 'before-send', code: 'http-refused' });
    // The CLI's built-in tools: none unless the host opts the target in.
    expect(bound.builtInTools).toBe('none');
    expect(transport({ builtInTools: 'read-only' }).builtInTools).toBe('read-only');
  });

  it('passes the argument list without a shell, writes stdin, runs in a fresh empty folder it removes, with a minimal environment', async () => {
    process.env.TOKENFORGE_TEST_GATEWAY_SECRET = 'gateway-secret-value';
    try {
      const run = await transport({ environment: { TARGET_BASE_URL: 'http://127.0.0.1:1' }, allowEnvironment: ['PATH', 'LANG'] }).run({
        args: ['report', '$(touch pwned); echo *', '--policy={run-files}/policy.toml'],
        stdin: 'the prompt',
        files: { 'policy.toml': 'deny = true' },
        configFolderVariables: ['CLI_CONFIG_DIR'],
        signal: new AbortController().signal,
      });
      const report = JSON.parse(await readAll(run)) as { env: Record<string, string>; cwd: string; entries: string[]; args: string[]; stdin: string; policy: string };
      expect(await run.exit).toEqual({ reason: 'exited', exitCode: 0 });
      const runFolder = dirname(report.cwd);
      expect(report.args).toEqual(['report', '$(touch pwned); echo *', `--policy=${runFolder}/files/policy.toml`]);
      expect(report.policy).toBe('deny = true');
      expect(report.stdin).toBe('the prompt');
      expect(report.entries).toEqual([]);
      expect(dirname(runFolder)).toBe(root);
      expect(existsSync(runFolder)).toBe(false);
      const config = join(root, 'config');
      expect(report.env).toMatchObject({ HOME: config, CLI_CONFIG_DIR: config, TARGET_BASE_URL: 'http://127.0.0.1:1', XDG_CONFIG_HOME: `${config}/.config` });
      expect(report.env.TOKENFORGE_TEST_GATEWAY_SECRET).toBeUndefined();
      expect(Object.keys(report.env).sort()).toEqual(
        ['CLI_CONFIG_DIR', 'HOME', 'PATH', 'TARGET_BASE_URL', 'XDG_CACHE_HOME', 'XDG_CONFIG_HOME', 'XDG_DATA_HOME', 'XDG_STATE_HOME', ...(process.env.LANG === undefined ? [] : ['LANG'])].sort(),
      );
      expect(readdirSync(root).filter((name) => name.startsWith('tokenforge-run-'))).toEqual([]);
    } finally {
      delete process.env.TOKENFORGE_TEST_GATEWAY_SECRET;
    }
  });

  it('finds a name on the child PATH and fails typed, before sending, when the executable is missing', async () => {
    const named = await transport({ executable: 'node', allowEnvironment: [], environment: { PATH: NODE_FOLDER } }).run({ args: ['-e', 'process.stdout.write("hi")'], signal: new AbortController().signal });
    expect(await readAll(named)).toBe('hi');
    for (const executable of ['no-such-cli-anywhere', join(root, 'missing', 'cli')]) {
      const failure = await transport({ executable }).run({ args: [], signal: new AbortController().signal }).catch((error: unknown) => error);
      expect(isProviderTransportFailureV1(failure)).toBe(true);
      expect(failure).toMatchObject({ stage: 'before-send', code: 'executable-missing' });
    }
  });

  it('runs at most maxConcurrentRuns at once, queues up to maxQueuedRuns, refuses one more before sending', async () => {
    const bound = transport({ maxConcurrentRuns: 1, maxQueuedRuns: 1 });
    const controller = new AbortController();
    const first = await bound.run({ args: ['hang'], signal: controller.signal });
    const queued = bound.run({ args: ['exit', '0'], signal: new AbortController().signal });
    const refused = await bound.run({ args: ['exit', '0'], signal: new AbortController().signal }).catch((error: unknown) => error);
    expect(isProviderProcessRunsExhaustedV4(refused)).toBe(true);
    expect(refused).toMatchObject({ stage: 'before-send', code: 'runs-exhausted' });
    let started = false;
    void queued.then(() => (started = true));
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(started).toBe(false);
    controller.abort();
    await first.exit;
    const second = await queued;
    await readAll(second);
    expect(await second.exit).toEqual({ reason: 'exited', exitCode: 0 });
  });

  it('reports a non-zero exit code', async () => {
    const run = await transport().run({ args: ['exit', '3'], signal: new AbortController().signal });
    await readAll(run);
    expect(await run.exit).toEqual({ reason: 'exited', exitCode: 3 });
  });

  it('kills a run over the longest line, and one over the total bytes', async () => {
    const long = await transport({ maxLineBytes: 1000 }).run({ args: ['long-line', '5000'], signal: new AbortController().signal });
    expect((await readAll(long)).length).toBeLessThanOrEqual(5000);
    expect(await long.exit).toEqual({ reason: 'output-too-large', exitCode: null });
    const fits = await transport({ maxLineBytes: 1000 }).run({ args: ['long-line', '1000'], signal: new AbortController().signal });
    expect((await readAll(fits)).length).toBe(1001);
    expect((await fits.exit).reason).toBe('exited');
    const flood = await transport({ maxStdoutBytes: 10_000 }).run({ args: ['lines', '1000'], signal: new AbortController().signal });
    expect((await readAll(flood)).length).toBeLessThanOrEqual(10_000 + 65_536);
    expect(await flood.exit).toEqual({ reason: 'output-too-large', exitCode: null });
  });

  it('hands on a trailing partial line when the child ends by itself, and drops the one a kill cut', async () => {
    const ended = await transport().run({ args: ['partial'], signal: new AbortController().signal });
    expect(await readAll(ended)).toBe('{"complete":true}\n{"cut');
    expect((await ended.exit).reason).toBe('exited');
    const killed = await transport({ deadlineMs: 500 }).run({ args: ['partial', 'hang'], signal: new AbortController().signal });
    expect(await readAll(killed)).toBe('{"complete":true}\n');
    expect((await killed.exit).reason).toBe('deadline');
  });

  it('keeps stderr for the operator log only, bounded', async () => {
    const reports: ProcessRunReport[] = [];
    const run = await transport({ maxStderrBytes: 100 }, reports).run({ args: ['stderr', '300'], signal: new AbortController().signal });
    expect(await readAll(run)).toBe('{"ok":true}\n');
    await run.exit;
    expect(reports).toHaveLength(1);
    expect(reports[0]).toMatchObject({ stderr: 'e'.repeat(100), stderrDroppedBytes: 200, reason: 'exited', exitCode: 0 });
  });

  it('kills the whole process group at the deadline', async () => {
    const run = await transport({ deadlineMs: 1500 }).run({ args: ['hang'], signal: new AbortController().signal });
    const started = Date.now();
    const { pid, grandchild } = JSON.parse((await readAll(run)).trim()) as { pid: number; grandchild: number };
    expect(await run.exit).toEqual({ reason: 'deadline', exitCode: null });
    expect(Date.now() - started).toBeLessThan(5000);
    await expectGone(pid);
    await expectGone(grandchild);
  });

  it('kills the whole process group on cancellation and when the reader stops early', async () => {
    const controller = new AbortController();
    const cancelled = await transport().run({ args: ['hang'], signal: controller.signal });
    const iterator = cancelled.stdout[Symbol.asyncIterator]();
    const first = await iterator.next();
    const { pid, grandchild } = JSON.parse(new TextDecoder().decode(first.value as Uint8Array)) as { pid: number; grandchild: number };
    expect(alive(grandchild)).toBe(true);
    controller.abort();
    expect(await cancelled.exit).toEqual({ reason: 'aborted', exitCode: null });
    await expectGone(pid);
    await expectGone(grandchild);

    const left = await transport().run({ args: ['hang'], signal: new AbortController().signal });
    const leftIterator = left.stdout[Symbol.asyncIterator]();
    const line = await leftIterator.next();
    const ids = JSON.parse(new TextDecoder().decode(line.value as Uint8Array)) as { pid: number; grandchild: number };
    await leftIterator.return?.();
    expect(await left.exit).toEqual({ reason: 'aborted', exitCode: null });
    await expectGone(ids.pid);
    await expectGone(ids.grandchild);
  });
});
