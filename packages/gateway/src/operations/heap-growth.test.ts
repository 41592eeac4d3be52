import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { DEFAULT_HEAP_GROWTH_PERCENT, HEAP_GROWTH_ENV, heapGrowthPercentFrom, parseHeapGrowthPercent } from './heap-growth.js';

const ROOT = fileURLToPath(new URL('../../../../', import.meta.url));
const CLI = fileURLToPath(new URL('../cli.ts', import.meta.url));

describe('the heap growth the CLI applies', () => {
  it('is 50 percent unless the flag or the environment says otherwise; the flag wins', () => {
    expect(heapGrowthPercentFrom(undefined, {})).toBe(DEFAULT_HEAP_GROWTH_PERCENT);
    expect(DEFAULT_HEAP_GROWTH_PERCENT).toBe(50);
    expect(heapGrowthPercentFrom(undefined, { [HEAP_GROWTH_ENV]: '' })).toBe(50);
    expect(heapGrowthPercentFrom(undefined, { [HEAP_GROWTH_ENV]: '120' })).toBe(120);
    expect(heapGrowthPercentFrom('0', { [HEAP_GROWTH_ENV]: '120' })).toBe(0);
  });

  it('takes 0 (V8 decides) or a whole percent from 10 to 300, and names what it refused', () => {
    for (const good of ['0', '10', '50', ' 75 ', '300']) expect(parseHeapGrowthPercent(good, '--heap-growth')).toBe(Number(good));
    for (const bad of ['5', '301', '1000', '-10', '1.5', 'fifty', '', '1e2']) {
      expect(() => parseHeapGrowthPercent(bad, '--heap-growth')).toThrow(/^--heap-growth takes a whole number of percent from 10 to 300, or 0/);
    }
    expect(() => heapGrowthPercentFrom(undefined, { [HEAP_GROWTH_ENV]: '2' })).toThrow(new RegExp(`^${HEAP_GROWTH_ENV} takes`));
  });

  it('refuses to start the CLI with a value out of range, before it listens', async () => {
    const child = spawn(`${ROOT}node_modules/.bin/tsx`, [CLI, '--port', '0', '--no-governance', '--heap-growth', '400'], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    expect(code).toBe(1);
    expect(stdout).not.toMatch(/listening/);
    expect(stderr).toMatch(/^tokenforge-gateway: --heap-growth takes a whole number of percent from 10 to 300, or 0/m);
  }, 30_000);
});
