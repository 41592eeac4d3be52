/**
 * A small application that uses the published packages exactly as a registry user would: the provider simulator
 * on a loopback port, an engine over the builtin suite, and one hardened HTTP transport per connection. It runs a
 * sync OpenAI-chat call and a streamed Anthropic call through the engine, then starts the gateway's embedded default
 * and asks it for a chat completion over HTTP. Prints what it saw and exits non-zero on any surprise.
 *
 * Plain ESM JavaScript on purpose: `npm install` of the tarballs and `node main.mjs` are all it needs.
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { startGateway } from '@tokenforge/gateway';
import { createHttpProviderTransport } from '@tokenforge/http-transport';
import { createProtocolEngineTargetBindingV1, createProtocolEngineV1 } from '@tokenforge/protocol-engine';
import { createBuiltinTokenForgeProtocolSuiteV1 } from '@tokenforge/provider-adapters';
import { startProviderSimulator } from '@tokenforge/provider-simulator';

function check(condition, what) {
  if (!condition) throw new Error(`unexpected: ${what}`);
}

function text(result) {
  return result.content.map((part) => (part.type === 'text' ? part.text : '')).join('');
}

for (const name of ['@tokenforge/protocol-engine', '@tokenforge/provider-adapters', '@tokenforge/http-transport', '@tokenforge/provider-simulator', '@tokenforge/gateway']) {
  console.log(`resolved ${name} -> ${new URL(import.meta.resolve(name)).pathname}`);
}

const simulator = await startProviderSimulator();
const suite = createBuiltinTokenForgeProtocolSuiteV1();
const engine = createProtocolEngineV1({ registry: suite.registry });
const transports = [];

/** What a host's catalogue would resolve: a target on the simulator, and its credential-bound transport. */
function bind(protocolFamily, providerModel) {
  const transport = createHttpProviderTransport({
    baseUrl: simulator.baseUrlFor(protocolFamily),
    credentials: simulator.credentialsFor(protocolFamily),
    metadata: suite.transportMetadataFor(protocolFamily),
    policy: { allowedAddressCategories: ['loopback'], allowInsecureHttpToLoopback: true },
  });
  transports.push(transport);
  return createProtocolEngineTargetBindingV1({
    target: {
      provider: 'provider-simulator',
      providerModel,
      connectionRef: `simulator/${protocolFamily}`,
      capability: { protocolFamily, executionMode: 'stream-capable', taskKinds: ['chat'] },
    },
    bindTransport: () => transport,
  });
}

try {
  console.log(`engine serves ${engine.protocolFamilies.length} families`);
  const messages = [{ role: 'user', content: [{ type: 'text', text: 'Say hello.' }] }];
  const signal = AbortSignal.timeout(20_000);

  const sync = await engine.execute({ binding: bind('openai-chat/v1', 'gpt-4.1-mini'), task: { kind: 'chat', messages, stream: false }, signal });
  check(sync.kind === 'response' && sync.terminal.status === 'completed' && sync.terminal.result.kind === 'chat', 'a completed sync answer');
  console.log(`openai-chat sync: "${text(sync.terminal.result)}" finish=${sync.terminal.finishReason?.unified}`);

  const stream = await engine.execute({
    binding: bind('anthropic-messages/v1', 'claude-sonnet-4-5'),
    task: { kind: 'chat', messages, maxOutputTokens: 64, stream: true },
    signal,
  });
  check(stream.kind === 'stream', 'a stream');
  let deltas = 0;
  for await (const event of stream.events) if (event.type === 'text-delta') deltas += 1;
  const terminal = await stream.terminal;
  check(terminal.status === 'completed' && terminal.result.kind === 'chat', 'a completed stream');
  console.log(`anthropic-messages stream: ${deltas} deltas, "${text(terminal.result)}" finish=${terminal.finishReason?.unified}`);
} finally {
  await Promise.all(transports.map((transport) => transport.close()));
  await simulator.close();
}

// The gateway from its tarball: the embedded default (its own simulator in-process), an OpenAI-dialect request.
const gateway = await startGateway({ logger: { write: () => {} } });
try {
  const response = await fetch(`${gateway.url}/v1/chat/completions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${gateway.clientKey}`, 'content-type': 'application/json' },
    body: JSON.stringify({ model: 'sim-openai-chat', messages: [{ role: 'user', content: 'Say hello.' }] }),
  });
  const completion = await response.json();
  check(response.status === 200, `gateway answered HTTP ${response.status}`);
  console.log(`gateway ${gateway.models.length} models, chat completion: "${completion.choices[0].message.content}"`);
} finally {
  await gateway.close();
}
// The bin an operator runs: `tokenforge-gateway` from node_modules/.bin, ready on /healthz, stopped by SIGTERM.
// `--no-governance`: this install ran with `--ignore-scripts`, so better-sqlite3 (the embedded governance store's
// database, a native module that npm builds at install) was not built here.
const bin = spawn(fileURLToPath(new URL('./node_modules/.bin/tokenforge-gateway', import.meta.url)), ['--port', '0', '--no-governance'], { stdio: ['ignore', 'pipe', 'ignore'] });
try {
  let output = '';
  bin.stdout.on('data', (chunk) => (output += chunk));
  let url;
  for (let waited = 0; url === undefined; waited += 20) {
    check(waited < 30_000 && bin.exitCode === null, `tokenforge-gateway did not start: ${output}`);
    url = /listening on (http:\/\/\S+)/.exec(output)?.[1];
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  const health = await fetch(`${url}/healthz`);
  check(health.status === 200, `tokenforge-gateway /healthz answered HTTP ${health.status}`);
  const exited = new Promise((resolve) => bin.once('exit', (code) => resolve(code)));
  bin.kill('SIGTERM');
  check((await exited) === 0, 'tokenforge-gateway did not exit 0 on SIGTERM');
  console.log(`bin tokenforge-gateway served /healthz at ${url} and stopped on SIGTERM`);
} finally {
  if (bin.exitCode === null) bin.kill('SIGKILL');
}
console.log('external app finished');
