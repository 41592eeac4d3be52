import { statSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GOVERNANCE_DATA_FILES } from './governance/embedded/governance-data-directory.js';
import { startGatewayProcess as startSharedStoreGateway } from './governance/shared/test-support/gateway-process.js';
import { realServersAvailable, startRealServers, type RealServers } from './governance/shared/test-support/real-servers.js';
import { killAll, scratchFolder, startGatewayProcess } from './test-support/gateway-processes.js';

/*
 * The opaque reasoning state seal is keyed from a persisted secret, not a random key per process: a Gemini thought
 * signature sealed for an Anthropic client by one gateway process opens in another (after a restart on the same data
 * directory; or a second instance on the shared store), and the fake Gemini gets its own value back. A process on
 * another data directory cannot open it and drops it (the control that shows the test can fail). No
 * `jobs.signingKeyEnv` in the catalogue: before this, the key was random per process.
 */

const CLIENT_KEY = 'tfg-opaque-key-client-0123456789';
const PROVIDER_KEY = 'provider-key-0123456789abcdef';
const geminiBodies: string[] = [];
let provider: Server;
let folder: string;
let configPath: string;

const geminiSignature = (n: number): string => btoa(`gemini-thought-${n}`);

beforeAll(async () => {
  provider = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    request.on('end', () => {
      geminiBodies.push(body);
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(
        JSON.stringify({
          candidates: [{ content: { role: 'model', parts: [{ text: 'gemini thinks', thought: true, thoughtSignature: geminiSignature(geminiBodies.length) }, { text: 'from gemini' }] }, finishReason: 'STOP', index: 0 }],
          usageMetadata: { promptTokenCount: 3, candidatesTokenCount: 2, totalTokenCount: 5 },
          modelVersion: 'gemini-x',
        }),
      );
    });
  });
  await new Promise<void>((resolve) => provider.listen(0, '127.0.0.1', resolve));
  folder = scratchFolder();
  configPath = join(folder, 'catalogue.json');
  writeFileSync(
    configPath,
    JSON.stringify({
      version: 1,
      clientKeys: [{ id: 'main', env: 'OPAQUE_CLIENT_KEY' }],
      models: [
        {
          name: 'gemini',
          taskKind: 'chat',
          targets: [{ provider: 'fake', family: 'gemini-generate-content/v1', model: 'gemini-x', baseUrl: `http://127.0.0.1:${(provider.address() as AddressInfo).port}`, credentials: { apiKeyEnv: 'OPAQUE_PROVIDER_KEY' }, network: { allowLoopback: true } }],
        },
      ],
    }),
  );
});
afterAll(async () => {
  killAll();
  await new Promise<void>((resolve) => provider.close(() => resolve()));
});

const ENV = { OPAQUE_CLIENT_KEY: CLIENT_KEY, OPAQUE_PROVIDER_KEY: PROVIDER_KEY };

interface AnthropicBlock {
  readonly type: string;
  readonly signature?: string;
}

/** An Anthropic-dialect turn; `history` is replayed as the conversation before a last user message. */
async function ask(url: string, history: readonly { role: string; content: unknown }[]): Promise<AnthropicBlock[]> {
  const response = await fetch(`${url}/v1/messages`, {
    method: 'POST',
    headers: { 'x-api-key': CLIENT_KEY, 'anthropic-version': '2023-06-01', 'content-type': 'application/json' },
    body: JSON.stringify({ model: 'gemini', max_tokens: 100, messages: [...history, { role: 'user', content: 'go on' }] }),
  });
  expect(response.status).toBe(200);
  return ((await response.json()) as { content: AnthropicBlock[] }).content;
}

/** Seals a thought signature on `first`, replays it on `second`: whether the provider got its own value back. */
async function sealThenReplay(first: string, second: string): Promise<boolean> {
  const answer = await ask(first, []);
  const original = geminiSignature(geminiBodies.length);
  expect(answer.find((block) => block.type === 'thinking')?.signature).not.toBe(original);
  await ask(second, [{ role: 'user', content: 'hi' }, { role: 'assistant', content: answer }]);
  return geminiBodies.at(-1)?.includes(`"thoughtSignature":"${original}"`) === true;
}

describe('the opaque state seal key survives a restart and is shared between instances', () => {
  it('embedded store: a value sealed before a restart opens after it; another data directory drops it', async () => {
    const dataDir = join(folder, 'data');
    const first = await startGatewayProcess(['--config', configPath, '--data-dir', dataDir], ENV);
    const answer = await ask(first.url, []);
    const original = geminiSignature(geminiBodies.length);
    const sealed = answer.find((block) => block.type === 'thinking')?.signature ?? '';
    expect(sealed).not.toBe('');
    expect(sealed).not.toBe(original);
    expect(await first.stop()).toBe(0);
    expect(statSync(join(dataDir, GOVERNANCE_DATA_FILES.opaqueStateSecret)).mode & 0o777).toBe(0o600);

    const restarted = await startGatewayProcess(['--config', configPath, '--data-dir', dataDir], ENV);
    await ask(restarted.url, [{ role: 'user', content: 'hi' }, { role: 'assistant', content: answer }]);
    expect(geminiBodies.at(-1)).toContain(`"thoughtSignature":"${original}"`);
    expect(await restarted.stop()).toBe(0);

    const stranger = await startGatewayProcess(['--config', configPath, '--data-dir', join(folder, 'other-data')], ENV);
    await ask(stranger.url, [{ role: 'user', content: 'hi' }, { role: 'assistant', content: answer }]);
    expect(geminiBodies.at(-1)).not.toContain(original);
    expect(geminiBodies.at(-1)).not.toContain(sealed);
    expect(await stranger.stop()).toBe(0);
  }, 180_000);

  describe.skipIf(!realServersAvailable())('shared store (real Redis and PostgreSQL)', () => {
    let servers: RealServers;
    beforeAll(async () => {
      servers = await startRealServers();
    }, 120_000);
    afterAll(async () => {
      await servers?.dispose();
    });

    it('two running instances with the same TOKENFORGE_KEY_HASHING_SECRET open each other\'s sealed values', async () => {
      const env = {
        ...process.env,
        ...ENV,
        REDIS_URL: servers.redis.url,
        DATABASE_URL: servers.postgres.url,
        TOKENFORGE_KEY_HASHING_SECRET: 'shared-key-hashing-secret-0123456789abcdef',
        TOKENFORGE_ADMIN_KEY: 'shared-admin-key-0123456789',
      };
      const [one, two] = await Promise.all([startSharedStoreGateway({ configPath, env }), startSharedStoreGateway({ configPath, env })]);
      try {
        expect(await sealThenReplay(one.url, two.url)).toBe(true);
        expect(await sealThenReplay(two.url, one.url)).toBe(true);
      } finally {
        await Promise.all([one.stop(), two.stop()]);
      }
    }, 180_000);
  });
});
