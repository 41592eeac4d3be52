/**
 * Guide example 1: a sync chat execution through the engine, an `openai-chat/v1` provider and the real HTTP
 * transport, against the loopback provider simulator.
 *
 * It shows the three ways a sync call ends:
 *   1. a `response` whose terminal is `completed` (the answer, finish reason, usage);
 *   2. a `response` whose terminal is `failed`: a provider failure is a fact the host reads, not an exception;
 *   3. a `ProtocolEngineErrorV1` thrown before any network, when the task needs more than the target declares.
 *
 * Run: `npx tsx examples/guide/sync-chat.ts` (exits non-zero if anything
 * unexpected happens). Read it beside docs/guides/PROTOCOL_ENGINE.md.
 */
import { pathToFileURL } from 'node:url';
import type { AdapterTerminalOutcomeV4, ChatTaskV2 } from '@tokenforge/model-protocol';
import { isProtocolEngineErrorV1 } from '@tokenforge/protocol-engine';
import { expectThat } from './support/expect-that.js';
import { startGuideHost, type GuideTarget } from './support/simulator-host.js';

/** What the example observed (the guide's test reads the printed lines; a host would record these). */
export interface SyncChatSummary {
  readonly answer: string;
  readonly failureCode: string;
  readonly refusalCode: string;
}

function answerText(terminal: AdapterTerminalOutcomeV4): string {
  if (terminal.status !== 'completed' || terminal.result.kind !== 'chat') return '';
  return terminal.result.content.map((part) => (part.type === 'text' ? part.text : '')).join('');
}

export async function main(log: (line: string) => void = console.log): Promise<SyncChatSummary> {
  const host = await startGuideHost();
  try {
    const { engine } = host;
    const signal = AbortSignal.timeout(30_000); // the request's deadline: aborting it ends the operation

    // What the host's catalogue resolved for this request. The capability is the contract the engine enforces:
    // this target runs chat, may stream, and declares no tools.
    const target: GuideTarget = {
      providerModel: 'gpt-4.1-mini',
      capability: { protocolFamily: 'openai-chat/v1', executionMode: 'stream-capable', taskKinds: ['chat'] },
    };
    const task: ChatTaskV2 = {
      kind: 'chat',
      system: [{ type: 'text', text: 'Answer in one short sentence.' }],
      messages: [{ role: 'user', content: [{ type: 'text', text: 'Say hello to the simulator.' }] }],
      maxOutputTokens: 128,
      stream: false,
    };

    // 1. One request, one validated terminal.
    const execution = await engine.execute({ binding: host.bind(target), task, signal });
    expectThat(execution.kind === 'response', 'a sync task on a sync target yields a response');
    const { terminal } = execution;
    expectThat(terminal.status === 'completed', 'the simulator answers the default scenario');
    const answer = answerText(terminal);
    log(`[sync] acceptance=${execution.acceptance.state} finish=${terminal.finishReason?.unified ?? 'none'} answer="${answer}"`);
    // Usage fields the provider did not report are absent, never zero: bill only what is there.
    log(`[sync] usage in=${terminal.usage?.inputTokens ?? 'absent'} out=${terminal.usage?.outputTokens ?? 'absent'}`);

    // 2. The provider answers HTTP 429 with `Retry-After: 2` (the simulator reads the model name as a scenario).
    //    The engine still resolves: the failure is normalized (code, retryable, retryAfterMs) and carries no
    //    provider message, status or body. Retry policy is the host's: here it would wait at least 2 s.
    const limited = await engine.execute({ binding: host.bind({ ...target, providerModel: 'error.429.2' }), task, signal });
    expectThat(limited.kind === 'response' && limited.terminal.status === 'failed', 'a 429 is a failed terminal');
    const { failure } = limited.terminal;
    expectThat(failure.code === 'rate-limited' && failure.retryable && failure.retryAfterMs === 2000, 'a 429 is a retryable rate limit with its wait');
    log(`[sync] provider failure: code=${failure.code} retryable=${failure.retryable} retryAfterMs=${failure.retryAfterMs}`);

    // 3. A task with tools on a target that declares none: refused in the `input` phase, before the binding is
    //    asked for a transport, so no credential is looked up and nothing reaches the provider.
    const requestsBefore = host.simulator.requests.length;
    const withTools: ChatTaskV2 = {
      ...task,
      tools: [{ name: 'get_weather', inputSchema: { type: 'object', properties: { city: { type: 'string' } } } }],
    };
    let refusalCode = '';
    try {
      await engine.execute({ binding: host.bind(target), task: withTools, signal });
    } catch (error) {
      if (!isProtocolEngineErrorV1(error)) throw error;
      refusalCode = error.code; // branch on code (and phase), never on message
      log(`[sync] refused before sending: ${error.code} (${error.phase})`);
    }
    expectThat(refusalCode === 'PROTOCOL_ENGINE_CAPABILITY_UNSUPPORTED', 'tools on a tool-less target are refused');
    expectThat(host.simulator.requests.length === requestsBefore, 'a refused task never reaches the provider');

    return { answer, failureCode: failure.code, refusalCode };
  } finally {
    await host.close();
  }
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().then(
    () => console.log('[sync] example finished'),
    (error: unknown) => {
      console.error(isProtocolEngineErrorV1(error) ? `${error.code} (${error.phase})` : error);
      process.exitCode = 1;
    },
  );
}
