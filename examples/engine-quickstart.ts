/**
 * Quick start: embed the protocol engine, then run a sync, a streaming and an async task.
 *
 * Everything provider-side is an in-memory EXAMPLE (examples/support): a made-up wire dialect, two tiny adapter
 * families and a transport that never leaves the process. The engine calls are exactly what a real host writes.
 *
 * Run: `npx --yes pnpm@12.4.2 example`. Exits non-zero if anything unexpected happens.
 */
import type { AdapterTerminalOutcomeV4, ProtocolCapabilityV2, TaskEnvelopeV2 } from '@tokenforge/model-protocol';
import {
  createProtocolEngineTargetBindingV1,
  createProtocolEngineV1,
  isProtocolEngineErrorV1,
  type ProtocolEngineTargetBindingV1,
} from '@tokenforge/protocol-engine';
import { EXAMPLE_CHAT_FAMILY, EXAMPLE_JOBS_FAMILY, createExampleRegistry } from './support/example-registry.js';
import { createInMemoryExampleTransport } from './support/in-memory-provider.js';

function check(condition: boolean, what: string): void {
  if (!condition) throw new Error(`unexpected: ${what}`);
}

function describeTerminal(terminal: AdapterTerminalOutcomeV4): string {
  if (terminal.status !== 'completed') return terminal.status === 'failed' ? `failed (${terminal.failure.code})` : 'cancelled';
  const text = terminal.result.kind === 'chat' ? terminal.result.content.map((part) => ('text' in part ? part.text : '')).join('') : '';
  const usage = terminal.usage === undefined ? 'no usage' : `${terminal.usage.inputTokens ?? '?'} in / ${terminal.usage.outputTokens ?? '?'} out`;
  return `completed: "${text}" (finish ${terminal.finishReason?.unified ?? 'n/a'}, ${usage})`;
}

/** What a host resolves before calling the engine: a target (dispatch facts only) and a transport factory. */
function bindingFor(capability: ProtocolCapabilityV2, transport: ReturnType<typeof createInMemoryExampleTransport>): ProtocolEngineTargetBindingV1 {
  return createProtocolEngineTargetBindingV1({
    target: { provider: 'example-provider', providerModel: 'example-model-1', connectionRef: 'example-connection', capability },
    // A real host looks up credentials for `connectionRef` here and returns a credential-bound transport.
    bindTransport: () => transport,
  });
}

async function main(): Promise<void> {
  const engine = createProtocolEngineV1({ registry: createExampleRegistry() });
  console.log(`engine ${engine.apiVersion} serving ${engine.protocolFamilies.join(', ')}`);
  const transport = createInMemoryExampleTransport();
  const signal = new AbortController().signal;

  const chat = bindingFor({ protocolFamily: EXAMPLE_CHAT_FAMILY, executionMode: 'stream-capable', taskKinds: ['chat'] }, transport);
  const question: TaskEnvelopeV2 = {
    kind: 'chat',
    messages: [{ role: 'user', content: [{ type: 'text', text: 'hello engine' }] }],
    stream: false,
  };

  // 1. Sync: one request, one validated terminal.
  const response = await engine.execute({ binding: chat, task: question, signal });
  check(response.kind === 'response', 'the sync task should produce a response');
  if (response.kind !== 'response') return;
  console.log('\n[sync]   acceptance:', response.acceptance.state, '| request id:', response.responseMetadata.providerRequestId);
  console.log('[sync]  ', describeTerminal(response.terminal));
  check(response.terminal.status === 'completed', 'the sync terminal should be completed');

  // 2. Stream: iterate the validated events (or abort); the terminal settles when they are drained.
  const stream = await engine.execute({ binding: chat, task: { ...question, stream: true }, signal });
  check(stream.kind === 'stream', 'the streaming task should produce a stream');
  if (stream.kind !== 'stream') return;
  const deltas: string[] = [];
  try {
    for await (const event of stream.events) {
      if (event.type === 'text-delta') deltas.push(event.delta);
      console.log('[stream] event', JSON.stringify(event));
    }
  } catch (error) {
    stream.abort(error);
    throw error;
  }
  const streamed = await stream.terminal;
  console.log('[stream]', describeTerminal(streamed));
  check(streamed.status === 'completed' && streamed.result.kind === 'chat', 'the stream terminal should be a completed chat');
  check(describeTerminal(streamed) === describeTerminal(response.terminal), 'sync and stream should agree on the answer');
  check(deltas.join('') === 'You said: hello engine', 'the deltas should add up to the answer');

  // 3. Async: start a job, persist its id (a real host stores it), then observe it.
  const clips = bindingFor({ protocolFamily: EXAMPLE_JOBS_FAMILY, executionMode: 'async-job', taskKinds: ['video-generation'] }, transport);
  const started = await engine.execute({ binding: clips, task: { kind: 'video-generation', prompt: 'waves at dusk' }, signal });
  check(started.kind === 'accepted-job', 'the async start should be accepted');
  if (started.kind !== 'accepted-job') return;
  console.log('\n[async]  accepted job', started.providerJobId);
  const observation = await engine.jobs.get({ binding: clips, providerJobId: started.providerJobId, signal });
  console.log('[async]  snapshot', JSON.stringify(observation.snapshot));
  check(observation.snapshot.state === 'succeeded', 'the example job should be finished');

  // The family declares only `get`: other job operations fail before any transport is bound.
  const sentBefore = transport.requests.length;
  try {
    await engine.jobs.cancel({ binding: clips, providerJobId: started.providerJobId, signal });
    check(false, 'cancel should be refused');
  } catch (error) {
    check(isProtocolEngineErrorV1(error) && error.code === 'PROTOCOL_ENGINE_CAPABILITY_UNSUPPORTED', 'cancel should be CAPABILITY_UNSUPPORTED');
    if (isProtocolEngineErrorV1(error)) console.log(`[async]  cancel refused: ${error.code} (${error.phase})`);
  }
  check(transport.requests.length === sentBefore, 'a refused operation must not reach the transport');
  console.log(`\nall good: ${transport.requests.length} requests reached the in-memory example provider`);
}

main().catch((error: unknown) => {
  console.error(isProtocolEngineErrorV1(error) ? `${error.code} (${error.phase}): ${error.message}` : error);
  process.exitCode = 1;
});
