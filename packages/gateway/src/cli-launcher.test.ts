import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

/** Every live (not zombie) descendant of `pid`, from /proc. */
function descendantsOf(pid: number): number[] {
  const parents = new Map<number, number[]>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (fields[0] === 'Z') continue;
      const ppid = Number(fields[1]);
      parents.set(ppid, [...(parents.get(ppid) ?? []), Number(entry)]);
    } catch {
      // gone meanwhile
    }
  }
  const found: number[] = [];
  const queue = [pid];
  while (queue.length > 0) {
    for (const child of parents.get(queue.shift() as number) ?? []) {
      found.push(child);
      queue.push(child);
    }
  }
  return found;
}

function isRunning(pid: number): boolean {
  try {
    return !readFileSync(`/proc/${pid}/stat`, 'utf8').includes(') Z ');
  } catch {
    return false;
  }
}

async function answers(url: string): Promise<boolean> {
  try {
    return (await fetch(`${url}/healthz`, { signal: AbortSignal.timeout(1000) })).ok;
  } catch {
    return false;
  }
}

describe.runIf(process.platform === 'linux')("the README's command `npx --yes pnpm@12.4.2 gateway`", () => {
  it('runs the built CLI and stops, with every process under it, when the command itself gets SIGTERM', async () => {
    const child = spawn('npx', ['--yes', 'pnpm@12.4.2', 'gateway', '--port', '0'], {
      cwd: ROOT,
      env: { ...process.env, TOKENFORGE_DATA_DIR: mkdtempSync(join(tmpdir(), 'tokenforge-launcher-')) },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const pid = child.pid as number;
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    child.stderr.resume();
    let below: number[] = [];
    try {
      const url = await new Promise<string>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no listening line: ${output}`)), 90_000);
        child.stdout.on('data', () => {
          const match = /listening on (http:\/\/\S+)/.exec(output);
          if (match?.[1] === undefined) return;
          clearTimeout(timer);
          resolve(match[1]);
        });
      });
      expect(await answers(url)).toBe(true);
      below = descendantsOf(pid);
      // The server runs in the launcher's own process (dist/cli.js imported, no tsx, no second node under it).
      const servers = below.filter((candidate) => readFileSync(`/proc/${candidate}/cmdline`, 'utf8').includes('run-built-cli.mjs'));
      expect(servers.filter((candidate) => readFileSync(`/proc/${candidate}/cmdline`, 'utf8').startsWith('node'))).toHaveLength(1);
      expect(below.filter((candidate) => /tsx/.test(readFileSync(`/proc/${candidate}/cmdline`, 'utf8')))).toEqual([]);

      process.kill(pid, 'SIGTERM');
      const deadline = Date.now() + 10_000; // the default drain deadline
      while ((await answers(url)) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
      expect(await answers(url)).toBe(false);
      while (below.some(isRunning) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
      expect(below.filter(isRunning)).toEqual([]);
    } finally {
      for (const candidate of [pid, ...below]) if (isRunning(candidate)) process.kill(candidate, 'SIGKILL');
    }
  }, 120_000);
});
