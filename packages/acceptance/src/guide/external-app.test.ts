import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repositoryRoot } from '../L1-kernel/test-support/repository.js';
import { runCommand } from '../L1-kernel/test-support/run-command.js';

const script = 'examples/external-app/run-outside-workspace.mjs';

describe('examples/external-app: an application outside the monorepo on the packed tarballs', () => {
  it('is what the root example:external-app script runs', () => {
    const manifest = JSON.parse(readFileSync(join(repositoryRoot, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
    expect(manifest.scripts['example:external-app']).toBe(`node ${script}`);
  });

  it('installs the tarballs into a folder outside the repository and runs engine, adapters, transport, simulator and gateway from them', { timeout: 120_000 }, async () => {
    const run = await runCommand(process.execPath, [script], { cwd: repositoryRoot });
    expect(run.stderr).toBe('');
    expect(run.exitCode).toBe(0);
    const lines = run.stdout.split('\n').filter((line) => line.length > 0);
    const app = /^installed 7 tarballs into (.+)$/.exec(lines[0] ?? '')?.[1] ?? '';
    expect(app).not.toBe('');
    expect(app.startsWith(repositoryRoot)).toBe(false);
    expect(lines.slice(1)).toEqual([
      ...['protocol-engine', 'provider-adapters', 'http-transport', 'provider-simulator', 'gateway'].map(
        (name) => `resolved @tokenforge/${name} -> ${join(app, 'node_modules', '@tokenforge', name, 'dist', 'index.js')}`,
      ),
      'engine serves 9 families',
      'openai-chat sync: "Hello from the simulator." finish=stop',
      'anthropic-messages stream: 3 deltas, "Hello from the simulator." finish=stop',
      expect.stringMatching(/^gateway \d+ models, chat completion: "Hello from the simulator\."$/),
      expect.stringMatching(/^bin tokenforge-gateway served \/healthz at http:\/\/127\.0\.0\.1:\d+ and stopped on SIGTERM$/),
      'external app finished',
    ]);
  });
});
