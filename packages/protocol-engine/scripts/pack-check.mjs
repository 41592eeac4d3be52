#!/usr/bin/env node
/**
 * Pack check of @tokenforge/protocol-engine.
 *
 * 1. `pnpm pack` the engine and model-protocol (build both first: `npx --yes pnpm@12.4.2 --dir packages/protocol-engine check` does).
 * 2. Assert the engine tarball holds only package.json, LICENSE, README.md, README.zh-CN.md and the production
 *    modules behind the root (at most five, including dist/index.js and dist/index.d.ts), and that its manifest
 *    names exactly one runtime dependency with a real version (no `workspace:`).
 * 3. Install both tarballs into an empty temporary folder with npm (zod comes from the registry).
 * 4. Run a plain Node ESM script there that executes a sync task through a tiny inline registry.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';

const engineDirectory = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const modelProtocolDirectory = resolve(engineDirectory, '../model-protocol');
const FIXED_FILES = new Set(['package.json', 'LICENSE', 'README.md', 'README.zh-CN.md']);
const REQUIRED_MODULES = ['dist/index.js', 'dist/index.d.ts'];
const MAX_MODULES = 5;

function fail(message) {
  console.error(`pack-check: ${message}`);
  process.exit(1);
}

function run(command, args, cwd) {
  return execFileSync(command, args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
}

/** Reads the regular files inside a .tgz (ustar): name (without the leading `package/`) to contents. */
function tarFiles(path) {
  const archive = gunzipSync(readFileSync(path));
  const files = new Map();
  let offset = 0;
  while (offset + 512 <= archive.length) {
    const header = archive.subarray(offset, offset + 512);
    if (header.every((byte) => byte === 0)) break;
    const field = (start, length) => header.subarray(start, start + length).toString('utf8').replace(/\0.*$/s, '');
    const prefix = field(345, 155);
    const name = prefix ? `${prefix}/${field(0, 100)}` : field(0, 100);
    const size = Number.parseInt(field(124, 12).trim() || '0', 8);
    const type = field(156, 1);
    if (type === '0' || type === '') {
      files.set(name.replace(/^package\//, ''), archive.subarray(offset + 512, offset + 512 + size).toString('utf8'));
    }
    offset += 512 + Math.ceil(size / 512) * 512;
  }
  return files;
}

const workspace = mkdtempSync(join(tmpdir(), 'tokenforge-engine-pack-'));
try {
  for (const module of REQUIRED_MODULES) {
    try {
      readFileSync(join(engineDirectory, module));
    } catch {
      fail(`${module} is missing: build the package first (npx --yes pnpm@12.4.2 --dir packages/protocol-engine check builds it)`);
    }
  }
  const tarballs = join(workspace, 'tarballs');
  mkdirSync(tarballs);
  run('pnpm', ['pack', '--pack-destination', tarballs], modelProtocolDirectory);
  run('pnpm', ['pack', '--pack-destination', tarballs], engineDirectory);
  const packed = readdirSync(tarballs).filter((name) => name.endsWith('.tgz'));
  const engineTarball = packed.find((name) => name.includes('protocol-engine'));
  const modelTarball = packed.find((name) => name.includes('model-protocol'));
  if (engineTarball === undefined || modelTarball === undefined) fail(`expected two tarballs, found ${packed.join(', ')}`);

  const files = tarFiles(join(tarballs, engineTarball));
  const entries = [...files.keys()];
  const modules = entries.filter((name) => !FIXED_FILES.has(name));
  for (const name of FIXED_FILES) if (!entries.includes(name)) fail(`the engine tarball lacks ${name}`);
  for (const name of REQUIRED_MODULES) if (!modules.includes(name)) fail(`the engine tarball lacks ${name}`);
  const strays = modules.filter((name) => !/^dist\/[\w.-]+\.(?:js|d\.ts)$/.test(name) || /\.test\./.test(name));
  if (strays.length > 0) fail(`the engine tarball holds files that are not production modules: ${strays.join(', ')}`);
  if (modules.length > MAX_MODULES) fail(`the engine tarball holds ${modules.length} modules (at most ${MAX_MODULES})`);

  const manifest = JSON.parse(files.get('package.json'));
  const dependencies = Object.entries(manifest.dependencies ?? {});
  if (dependencies.length !== 1 || dependencies[0][0] !== '@tokenforge/model-protocol') {
    fail(`the engine must have exactly one runtime dependency, @tokenforge/model-protocol; found ${JSON.stringify(manifest.dependencies)}`);
  }
  if (String(dependencies[0][1]).startsWith('workspace:')) fail('the packed manifest still holds a workspace: range');
  if (JSON.stringify(Object.keys(manifest.exports ?? {})) !== '["."]') fail('the packed manifest must export only "."');

  const consumer = join(workspace, 'consumer');
  mkdirSync(consumer);
  writeFileSync(join(consumer, 'package.json'), JSON.stringify({ name: 'engine-pack-consumer', private: true, type: 'module' }));
  run('npm', ['install', '--no-audit', '--no-fund', '--loglevel=error', join(tarballs, engineTarball), join(tarballs, modelTarball)], consumer);
  writeFileSync(
    join(consumer, 'consumer.mjs'),
    `import assert from 'node:assert/strict';
import * as engineModule from '@tokenforge/protocol-engine';
const { createProtocolEngineV1, createProtocolEngineTargetBindingV1, isProtocolEngineErrorV1, PROTOCOL_ENGINE_API_VERSION } = engineModule;

assert.deepEqual(Object.keys(engineModule).sort(), [
  'PROTOCOL_ENGINE_API_VERSION',
  'PROTOCOL_ENGINE_ERROR_CODES_V1',
  'ProtocolEngineErrorV1',
  'createProtocolEngineTargetBindingV1',
  'createProtocolEngineV1',
  'isProtocolEngineErrorV1',
]);
const family = 'inline-chat/v1';
const registry = {
  listProtocolFamilies: () => [family],
  require: () => ({
    protocolFamily: family,
    createAdapter: () => ({
      execute: async ({ task, transport, signal }) => {
        const response = await transport.send({ method: 'POST', path: '/chat', headers: {}, body: { type: 'json', value: task }, signal });
        let text = '';
        const decoder = new TextDecoder();
        for await (const chunk of response.body) text += decoder.decode(chunk, { stream: true });
        return {
          kind: 'response',
          acceptance: { state: 'accepted' },
          responseMetadata: {},
          terminal: { status: 'completed', result: { kind: 'chat', content: [{ type: 'text', text }] }, finishReason: { unified: 'stop' } },
        };
      },
    }),
  }),
};
const transport = {
  send: async () => ({
    status: 200,
    headers: {},
    body: (async function* () { yield new TextEncoder().encode('hello from a packed engine'); })(),
  }),
};
const binding = createProtocolEngineTargetBindingV1({
  target: { provider: 'p', providerModel: 'm', connectionRef: 'c', capability: { protocolFamily: family, executionMode: 'sync', taskKinds: ['chat'] } },
  bindTransport: () => transport,
});
const engine = createProtocolEngineV1({ registry });
const execution = await engine.execute({
  binding,
  task: { kind: 'chat', messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }], stream: false },
  signal: new AbortController().signal,
});
assert.equal(execution.apiVersion, PROTOCOL_ENGINE_API_VERSION);
assert.equal(execution.kind, 'response');
assert.deepEqual(execution.terminal.result.content, [{ type: 'text', text: 'hello from a packed engine' }]);
const refused = await engine.execute({ binding, task: { kind: 'embedding', inputs: ['x'] }, signal: new AbortController().signal }).catch((error) => error);
assert.ok(isProtocolEngineErrorV1(refused));
assert.equal(refused.code, 'PROTOCOL_ENGINE_TARGET_TASK_MISMATCH');
console.log('consumer ok: ' + execution.terminal.result.content[0].text);
`,
  );
  const output = run('node', ['consumer.mjs'], consumer);
  if (!output.includes('consumer ok')) fail(`the consumer script did not confirm: ${output}`);
  console.log(`pack-check: ${engineTarball} holds ${entries.sort().join(', ')}`);
  console.log(`pack-check: ${output.trim()}`);
} catch (error) {
  const details = error && typeof error === 'object' && 'stderr' in error ? String(error.stderr) : '';
  fail(`${error instanceof Error ? error.message : String(error)}\n${details}`);
} finally {
  rmSync(workspace, { recursive: true, force: true });
}
