import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const CLI = fileURLToPath(new URL('./cli.ts', import.meta.url));
const CLIENT_KEY = 'tfg-cli-shutdown-key-0123456789';

describe('tokenforge-gateway on SIGTERM with open streams (issue #30 item 6)', () => {
  it('keeps answering /readyz 503 during the drain, ends each stream with its dialect’s in-stream error, logs every request and exits 0', async () => {
    // An OpenAI-chat upstream that streams one delta and holds every stream open.
    const upstream = createServer((request, response) => {
      request.resume();
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      response.write(`data: ${JSON.stringify({ id: 'c1', object: 'chat.completion.chunk', created: 1, model: 'm', choices: [{ index: 0, delta: { role: 'assistant', content: 'Hel' }, finish_reason: null }] })}\n\n`);
    });
    await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
    const directory = mkdtempSync(join(tmpdir(), 'tfg-cli-shutdown-'));
    const config = join(directory, 'catalogue.json');
    writeFileSync(
      config,
      JSON.stringify({
        version: 1,
        clientKeys: [{ id: 'main', env: 'TFG_TEST_CLIENT_KEY' }],
        models: [
          {
            name: 'held',
            taskKind: 'chat',
            targets: [
              {
                provider: 'local',
                family: 'openai-chat/v1',
                model: 'm',
                baseUrl: `http://127.0.0.1:${(upstream.address() as AddressInfo).port}/v1`,
                credentials: { apiKeyEnv: 'TFG_TEST_UPSTREAM_KEY' },
                network: { allowLoopback: true },
              },
            ],
          },
        ],
        limits: { drainTimeoutMs: 1500 },
      }),
    );
    const child = spawn(`${ROOT}node_modules/.bin/tsx`, [CLI, '--config', config, '--port', '0', '--no-governance'], {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, TFG_TEST_CLIENT_KEY: CLIENT_KEY, TFG_TEST_UPSTREAM_KEY: 'upstream-key-0123456789abcdef' },
    });
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    const stderr: string[] = [];
    createInterface({ input: child.stderr }).on('line', (line) => stderr.push(line));
    try {
      const url = await new Promise<string>((resolve) =>
        createInterface({ input: child.stdout }).on('line', (line) => {
          const found = /^tokenforge gateway listening on (\S+)$/.exec(line)?.[1];
          if (found !== undefined) resolve(found);
        }),
      );
      const open = (path: string, headers: Record<string, string>, body: object) =>
        fetch(`${url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
      const chat = await open('/v1/chat/completions', { authorization: `Bearer ${CLIENT_KEY}` }, { model: 'held', stream: true, messages: [{ role: 'user', content: 'hi' }] });
      const anthropic = await open('/v1/messages', { 'x-api-key': CLIENT_KEY }, { model: 'held', max_tokens: 8, stream: true, messages: [{ role: 'user', content: 'hi' }] });
      expect([chat.status, anthropic.status]).toEqual([200, 200]);
      const texts = Promise.all([chat.text(), anthropic.text()]);
      child.kill('SIGTERM');
      let ready: Response | undefined;
      for (let tries = 0; tries < 50 && ready?.status !== 503; tries += 1) {
        // A pooled keep-alive connection the draining server closes answers ECONNRESET: ask again on a new one.
        ready = await fetch(`${url}/readyz`).catch(() => undefined);
        if (ready?.status !== 503) await new Promise((resolve) => setTimeout(resolve, 20));
      }
      expect(ready?.status).toBe(503);
      const [chatText, anthropicText] = await texts;
      expect(chatText).toMatch(/data: \{"error":/);
      expect(anthropicText).toMatch(/event: error\ndata: \{"type":"error","error":\{"type":"overloaded_error"/);
      expect(await exited).toBe(0);
      const outcomes = stderr.flatMap((line) => (line.startsWith('{') ? [(JSON.parse(line) as { outcome?: string }).outcome] : [])).filter((outcome) => outcome !== undefined);
      expect(outcomes).toEqual(['failed-in-stream:shutdown', 'failed-in-stream:shutdown']);
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
      upstream.closeAllConnections();
      upstream.close();
    }
  }, 30_000);
});
