/**
 * Guide example 3: an async video job through the engine, a `kling-video/v1` provider (HS256 JWT auth, minted by
 * the transport) and the real HTTP transport, against the loopback provider simulator.
 *
 * It shows what a host owns around an async family (persistence, polling, reconciliation) and what the engine
 * gives it:
 *   1. start: `accepted-job` with the provider's job id, which the host stores before anything else;
 *   2. observe: `engine.jobs.get` until a terminal state, with the host's own polling schedule;
 *   3. an undeclared operation (`cancel`: Kling has none) is refused before any transport is bound;
 *   4. a start whose answer was lost after the request left: `rejected` with acceptance `unknown`. The job may
 *      exist, so the host does not resend; it reconciles through `engine.jobs.list` and adopts the job it finds.
 *
 * Run: `npx tsx examples/guide/async-video-job.ts` (exits non-zero if
 * anything unexpected happens). Read it beside docs/guides/PROTOCOL_ENGINE.md.
 */
import { pathToFileURL } from 'node:url';
import {
  ProviderTransportFailureV1,
  type ProviderAsyncJobSnapshotV2,
  type ProviderTransport,
  type VideoGenerationTaskV2,
} from '@tokenforge/model-protocol';
import { isProtocolEngineErrorV1, type ProtocolEngineTargetBindingV1, type ProtocolEngineV1 } from '@tokenforge/protocol-engine';
import { expectThat } from './support/expect-that.js';
import { startGuideHost, type GuideTarget } from './support/simulator-host.js';

/** What the example observed. */
export interface AsyncVideoJobSummary {
  readonly states: readonly string[];
  readonly videoSeconds: number | undefined;
  readonly cancelRefusal: string;
  readonly reconciled: boolean;
}

const TERMINAL_STATES: ReadonlySet<string> = new Set(['succeeded', 'failed', 'cancelled']);

/** The host's own polling: the engine never polls, sleeps or schedules. `unknown` snapshots keep polling. */
async function pollUntilTerminal(engine: ProtocolEngineV1, binding: ProtocolEngineTargetBindingV1, providerJobId: string, signal: AbortSignal): Promise<{ snapshot: ProviderAsyncJobSnapshotV2; states: string[] }> {
  const states: string[] = [];
  for (let attempt = 0; attempt < 100; attempt += 1) {
    const { snapshot } = await engine.jobs.get({ binding, providerJobId, signal });
    if (states.at(-1) !== snapshot.state) states.push(snapshot.state);
    if (TERMINAL_STATES.has(snapshot.state)) return { snapshot, states };
    await new Promise((resolve) => setTimeout(resolve, 50)); // a real host backs off to seconds or minutes
  }
  throw new Error('unexpected: the job did not finish');
}

/**
 * Stands in for a network that loses the answer to a create request: the request reaches the provider (the job is
 * created), then the connection "drops" and the transport reports an `after-send` failure, exactly as
 * `@tokenforge/http-transport` does for a connection lost while waiting for the response head.
 */
function loseCreateAnswers(transport: ProviderTransport): ProviderTransport {
  return {
    async send(request) {
      const response = await transport.send(request);
      if (request.method !== 'POST') return response;
      await response.body[Symbol.asyncIterator]().return?.(); // release the real answer unread
      throw new ProviderTransportFailureV1('after-send', 'connection-lost');
    },
  };
}

export async function main(log: (line: string) => void = console.log): Promise<AsyncVideoJobSummary> {
  const host = await startGuideHost({ jobTimings: { queuedMs: 100, runningMs: 150 } });
  try {
    const { engine } = host;
    const signal = AbortSignal.timeout(30_000);
    // `async-job` is declared by the target: whether a family is sync or async is never inferred from the task.
    const target: GuideTarget = {
      providerModel: 'kling-v2-master',
      capability: { protocolFamily: 'kling-video/v1', executionMode: 'async-job', taskKinds: ['video-generation'] },
    };
    const binding = host.bind(target);
    // The idempotency key is the host's name for this submission. Kling echoes it (as `external_task_id`) in job
    // snapshots, which is what makes reconciliation by key possible; families whose provider has no such field
    // reconcile by submission time instead.
    const task: VideoGenerationTaskV2 = { kind: 'video-generation', prompt: 'a red fox running through snow', durationSeconds: 5, idempotencyKey: 'order-1001' };

    // 1. Start. `accepted-job` means the provider durably accepted it: persist the id before doing anything else.
    const started = await engine.execute({ binding, task, signal });
    expectThat(started.kind === 'accepted-job', 'the start is accepted');
    log(`[async] accepted: job ${started.providerJobId} (stored with key ${task.idempotencyKey})`);

    // 2. Observe until a terminal state.
    const { snapshot, states } = await pollUntilTerminal(engine, binding, started.providerJobId, signal);
    expectThat(snapshot.state === 'succeeded' && snapshot.media !== undefined && snapshot.media.length > 0, 'the job succeeds with media');
    log(`[async] states: ${states.join(' -> ')}; media=${snapshot.media.length} videoSeconds=${snapshot.usage?.videoSeconds ?? 'absent'}`);

    // 3. The family declares `jobOperations: ['get', 'list']`. Cancel is refused before the binding is asked for a
    //    transport: no credential lookup, no request.
    const requestsBefore = host.simulator.requests.length;
    let cancelRefusal = '';
    try {
      await engine.jobs.cancel({ binding, providerJobId: started.providerJobId, signal });
    } catch (error) {
      if (!isProtocolEngineErrorV1(error)) throw error;
      cancelRefusal = error.code;
      log(`[async] cancel refused: ${error.code} (${error.phase})`);
    }
    expectThat(cancelRefusal === 'PROTOCOL_ENGINE_CAPABILITY_UNSUPPORTED', 'cancel is not declared by kling-video/v1');
    expectThat(host.simulator.requests.length === requestsBefore, 'a refused operation sends nothing');

    // 4. A start whose answer is lost after the request left. The engine reports `rejected` with acceptance
    //    `unknown` and `retryable: false` (forced for `unknown`): a resend could create a second paid job.
    const windowStart = new Date(Date.now() - 1_000).toISOString();
    const lostTask: VideoGenerationTaskV2 = { ...task, idempotencyKey: 'order-1002' };
    const lost = await engine.execute({ binding: host.bind(target, loseCreateAnswers), task: lostTask, signal });
    expectThat(lost.kind === 'rejected' && lost.acceptance.state === 'unknown' && !lost.retryable, 'a lost answer is an unknown, non-retryable start');
    log(`[async] start outcome unknown: failureCode=${lost.failureCode} retryable=${lost.retryable}`);

    // Reconcile: list the jobs created since just before the start (page by page) and look for our key.
    let adopted: ProviderAsyncJobSnapshotV2 | undefined;
    for (let pageNum = 1; adopted === undefined && pageNum <= 10; pageNum += 1) {
      const page = await engine.jobs.list({ binding, pageNum, pageSize: 20, createdAfter: windowStart, signal });
      adopted = page.items.find((item) => item.idempotencyKey === lostTask.idempotencyKey);
      if (page.items.length === 0) break; // past the last page
    }
    expectThat(adopted !== undefined, 'the lost start is found by its idempotency key');
    log(`[async] reconciled: found job ${adopted.providerJobId} for key ${lostTask.idempotencyKey} (${adopted.state}); adopting it instead of resending`);
    const finished = await pollUntilTerminal(engine, binding, adopted.providerJobId, signal);
    log(`[async] adopted job ended ${finished.snapshot.state}`);

    return { states, videoSeconds: snapshot.usage?.videoSeconds, cancelRefusal, reconciled: finished.snapshot.state === 'succeeded' };
  } finally {
    await host.close();
  }
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().then(
    () => console.log('[async] example finished'),
    (error: unknown) => {
      console.error(isProtocolEngineErrorV1(error) ? `${error.code} (${error.phase})` : error);
      process.exitCode = 1;
    },
  );
}
