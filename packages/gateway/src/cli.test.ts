import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const CLI = fileURLToPath(new URL('./cli.ts', import.meta.url));

describe('tokenforge-gateway with no --config', () => {
  it('prints its URL, the client key and the model names first, serves, and exits on SIGTERM', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'tokenforge-cli-'));
    const child = spawn(`${ROOT}node_modules/.bin/tsx`, [CLI, '--port', '0', '--data-dir', dataDir], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    const lines: string[] = [];
    const reader = createInterface({ input: child.stdout });
    const firstThree = new Promise<void>((resolve) => {
      reader.on('line', (line) => {
        lines.push(line);
        if (lines.length === 5) resolve();
      });
    });
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    try {
      await firstThree;
      const url = /^tokenforge gateway listening on (http:\/\/127\.0\.0\.1:\d+)$/.exec(lines[0] ?? '')?.[1];
      const key = /^client key: (\S+)$/.exec(lines[1] ?? '')?.[1];
      expect(url).toBeDefined();
      expect(key).toMatch(/^tfg-local-/);
      expect(lines[2]).toMatch(/^models: .*sim-openai-chat.*sim-dashscope-video/);
      // Governance is on by default with the embedded store; the admin key is generated in the data dir (mode 0600).
      const adminKeyFile = /^governance: on \(.*\), version \d+; admin API http:\/\/\S+\/admin\/v1, admin key in (\S+)$/.exec(lines[4] ?? '')?.[1];
      expect(adminKeyFile).toBe(join(dataDir, 'admin-key'));
      expect(statSync(adminKeyFile as string).mode & 0o777).toBe(0o600);
      const response = await fetch(`${url}/v1/chat/completions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'sim-anthropic', messages: [{ role: 'user', content: 'hi' }] }),
      });
      expect(response.status).toBe(200);
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 30_000);
});
