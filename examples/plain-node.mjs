/**
 * The packages from plain Node, with no TypeScript tooling: after `npx --yes pnpm@12.4.2 build`, run
 * `node examples/plain-node.mjs`. Every `@tokenforge/*` import resolves through the package's `exports` to its built
 * `dist/index.js` (the same map a registry user gets); `npx tsx` on a `.ts` script reads the sources instead.
 *
 * One sync chat through the engine, the builtin suite and the fixture transport (a scripted OpenAI-chat answer, no
 * network). Prints where each package resolved and the answer; exits non-zero if anything unexpected happens.
 */
import { createProtocolEngineTargetBindingV1, createProtocolEngineV1 } from '@tokenforge/protocol-engine';
import { createBuiltinTokenForgeProtocolSuiteV1, createFixtureTransportV1 } from '@tokenforge/provider-adapters';

for (const name of ['@tokenforge/protocol-engine', '@tokenforge/provider-adapters']) {
  console.log(`${name} -> ${new URL(import.meta.resolve(name)).pathname}`);
}

const engine = createProtocolEngineV1({ registry: createBuiltinTokenForgeProtocolSuiteV1().registry });
const transport = createFixtureTransportV1({
  responses: [
    {
      body: {
        type: 'json',
        value: {
          id: 'chatcmpl-plain-node',
          object: 'chat.completion',
          created: 1764547200,
          model: 'example-model',
          choices: [{ index: 0, message: { role: 'assistant', content: 'Hello from plain Node.' }, finish_reason: 'stop' }],
          usage: { prompt_tokens: 5, completion_tokens: 5, total_tokens: 10 },
        },
      },
    },
  ],
});
const binding = createProtocolEngineTargetBindingV1({
  target: {
    provider: 'example-provider',
    providerModel: 'example-model',
    connectionRef: 'example-connection',
    capability: { protocolFamily: 'openai-chat/v1', executionMode: 'stream-capable', taskKinds: ['chat'] },
  },
  bindTransport: () => transport,
});
const execution = await engine.execute({
  binding,
  task: { kind: 'chat', messages: [{ role: 'user', content: [{ type: 'text', text: 'Say hello.' }] }], stream: false },
  signal: AbortSignal.timeout(10_000),
});
if (execution.kind !== 'response' || execution.terminal.status !== 'completed' || execution.terminal.result.kind !== 'chat') {
  throw new Error(`unexpected execution: ${execution.kind}`);
}
const answer = execution.terminal.result.content.map((part) => (part.type === 'text' ? part.text : '')).join('');
console.log(`answer: ${answer} (finish ${execution.terminal.finishReason?.unified}, ${execution.terminal.usage?.totalTokens} tokens)`);
