/**
 * Guide example 2: streamed chat executions through the engine, an `anthropic-messages/v1` provider and the real
 * HTTP transport, against the loopback provider simulator.
 *
 * It shows the stream lifecycle a host must follow (iterate to the end, or abort) and its three endings:
 *   1. drained to the end: `terminal` resolves `completed`, equal to what the events added up to;
 *   2. left early (`break`): the engine closes the adapter, the transport is released, `terminal` is `cancelled`;
 *   3. the provider fails mid-stream: the events so far were delivered, `terminal` is `failed` (not an exception).
 *
 * Run: `npx tsx examples/guide/stream-chat.ts` (exits non-zero if anything
 * unexpected happens). Read it beside docs/guides/PROTOCOL_ENGINE.md.
 */
import { pathToFileURL } from 'node:url';
import type { AdapterTerminalOutcome, ChatTaskV2 } from '@tokenforge/model-protocol';
import { isProtocolEngineErrorV1, type ProtocolEngineStreamV1 } from '@tokenforge/protocol-engine';
import { expectThat } from './support/expect-that.js';
import { startGuideHost, type GuideTarget } from './support/simulator-host.js';

/** What the example observed. */
export interface StreamChatSummary {
  readonly streamedText: string;
  readonly eventTypes: readonly string[];
  readonly earlyExitStatus: AdapterTerminalOutcome['status'];
  readonly midStreamFailureCode: string;
}

/**
 * The loop every host writes: forward each validated event (to a client, a log, an egress encoder), stop when
 * `keepGoing` says so, and abort on any error of its own so the provider connection is released at once.
 */
async function consume(stream: ProtocolEngineStreamV1, onText: (delta: string) => void, keepGoing: () => boolean = () => true): Promise<string[]> {
  const types: string[] = [];
  try {
    for await (const event of stream.events) {
      types.push(event.type);
      if (event.type === 'text-delta') onText(event.delta);
      if (!keepGoing()) break; // leaving the loop early is the same as stream.abort()
    }
  } catch (error) {
    stream.abort(error);
    throw error;
  }
  return types;
}

export async function main(log: (line: string) => void = console.log): Promise<StreamChatSummary> {
  const host = await startGuideHost();
  try {
    const { engine } = host;
    const signal = AbortSignal.timeout(30_000);
    const target: GuideTarget = {
      providerModel: 'claude-sonnet-4-5',
      // `stream-capable` is what lets a task with `stream: true` through; a `sync` target would refuse it.
      capability: { protocolFamily: 'anthropic-messages/v1', executionMode: 'stream-capable', taskKinds: ['chat'] },
    };
    const task: ChatTaskV2 = {
      kind: 'chat',
      messages: [{ role: 'user', content: [{ type: 'text', text: 'Say hello to the simulator.' }] }],
      maxOutputTokens: 256, // Anthropic requires an output budget
      stream: true,
    };

    // 1. Drain to the end. `execute` resolves as soon as the response head arrived; events are pulled one at a
    //    time, so a slow consumer slows the provider read (backpressure) instead of buffering the answer.
    const stream = await engine.execute({ binding: host.bind(target), task, signal });
    expectThat(stream.kind === 'stream', 'a streaming task on a stream-capable target yields a stream');
    let streamedText = '';
    const eventTypes = await consume(stream, (delta) => (streamedText += delta));
    const terminal = await stream.terminal; // settles once the events are drained
    expectThat(terminal.status === 'completed' && terminal.result.kind === 'chat', 'the stream completes');
    // The engine has already checked that the terminal's content equals what the deltas added up to.
    log(`[stream] events: ${eventTypes.join(', ')}`);
    log(`[stream] completed: "${streamedText}" finish=${terminal.finishReason?.unified ?? 'none'} out=${terminal.usage?.outputTokens ?? 'absent'}`);

    // 2. Leave early: after three text deltas of a long answer the loop breaks. The engine returns the adapter's
    //    iterator and aborts its signal, which releases the HTTP body; the terminal is `cancelled`.
    const long = await engine.execute({ binding: host.bind({ ...target, providerModel: 'text.40' }), task, signal });
    expectThat(long.kind === 'stream', 'the long answer streams');
    let deltas = 0;
    await consume(long, () => (deltas += 1), () => deltas < 3);
    const earlyExit = await long.terminal;
    expectThat(earlyExit.status === 'cancelled', 'leaving the loop cancels the stream');
    log(`[stream] left after ${deltas} deltas: terminal=${earlyExit.status}`);

    // 3. The provider sends a few deltas, then an `error` event. Everything before it was delivered; the terminal
    //    is a normalized failure. Whether to retry is the host's decision, and a retry replays the whole answer:
    //    the client already saw the partial text, so a gateway usually reports the failure instead.
    const broken = await engine.execute({ binding: host.bind({ ...target, providerModel: 'mid-stream-error' }), task, signal });
    expectThat(broken.kind === 'stream', 'the failing answer starts as a stream');
    let partial = '';
    await consume(broken, (delta) => (partial += delta));
    const failed = await broken.terminal;
    expectThat(failed.status === 'failed', 'a mid-stream error is a failed terminal');
    log(`[stream] mid-stream failure after "${partial}": code=${failed.failure.code} retryable=${failed.failure.retryable}`);

    return { streamedText, eventTypes, earlyExitStatus: earlyExit.status, midStreamFailureCode: failed.failure.code };
  } finally {
    await host.close();
  }
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().then(
    () => console.log('[stream] example finished'),
    (error: unknown) => {
      console.error(isProtocolEngineErrorV1(error) ? `${error.code} (${error.phase})` : error);
      process.exitCode = 1;
    },
  );
}
