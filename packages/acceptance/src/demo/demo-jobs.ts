import { createHttpProviderTransport } from '@tokenforge/http-transport';
import type { TaskEnvelopeV2 } from '@tokenforge/model-protocol';
import { createProtocolEngineTargetBindingV1, createProtocolEngineV1, type ProtocolEngineTargetBindingV1, type ProtocolEngineV1 } from '@tokenforge/protocol-engine';
import { createBuiltinTokenForgeProtocolSuiteV1 } from '@tokenforge/provider-adapters';
import type { ProviderSimulator } from '@tokenforge/provider-simulator';
import { demoCheck } from './demo-clients.js';
import type { DemoCell, DemoCellKey } from './demo-cell.js';

/** The start of the gateway's jobs routes, as the operator log names them. */
export const DEMO_JOBS_ROUTE = 'POST /v1/jobs';

/** Where an async row's calls go. */
export interface DemoJobsContext {
  /** The simulator behind the embedded gateway. */
  readonly simulator: ProviderSimulator | undefined;
  /** Runs one call and times it. */
  readonly timed: (run: () => Promise<string>) => Promise<DemoCell>;
}

const TERMINAL_JOB_STATES = new Set(['succeeded', 'failed', 'cancelled']);
const VIDEO_TASK: TaskEnvelopeV2 = { kind: 'video-generation', prompt: 'a red fox running through snow', durationSeconds: 5 };

async function sleep(ms: number): Promise<void> {
  await new Promise((resolve) => setTimeout(resolve, ms));
}

async function startJob(engine: ProtocolEngineV1, binding: ProtocolEngineTargetBindingV1, signal: AbortSignal): Promise<string> {
  const execution = await engine.execute({ binding, task: VIDEO_TASK, signal });
  demoCheck(execution.kind === 'accepted-job', execution.kind === 'rejected' ? `rejected (${execution.failureCode})` : `expected an accepted job, got ${execution.kind}`);
  return execution.providerJobId;
}

/**
 * The async row (create, poll with get, list, cancel). The gateway on this branch has no jobs API yet, so these
 * cells call the engine directly over the http-transport against the gateway's own simulator, and say so.
 */
export async function runDemoJobs(
  context: DemoJobsContext,
  family: string,
  providerModel: string,
  options: { readonly cancel: boolean },
  emit: (key: DemoCellKey, cell: DemoCell) => void,
): Promise<void> {
  const simulator = context.simulator;
  if (simulator === undefined) {
    emit('async', { status: 'fail', detail: 'no simulator behind the gateway' });
    return;
  }
  const suite = createBuiltinTokenForgeProtocolSuiteV1();
  const engine = createProtocolEngineV1({ registry: suite.registry });
  const transport = createHttpProviderTransport({
    baseUrl: simulator.baseUrlFor(family) ?? simulator.url,
    credentials: simulator.credentialsFor(family) ?? { type: 'api-key', apiKey: '' },
    metadata: suite.transportMetadataFor(family as never),
    policy: { allowedAddressCategories: ['loopback'], allowInsecureHttpToLoopback: true },
  });
  const binding = createProtocolEngineTargetBindingV1({
    target: {
      provider: 'provider-simulator',
      providerModel,
      connectionRef: `simulator/${family}`,
      capability: { protocolFamily: family as never, executionMode: 'async-job', taskKinds: ['video-generation'] },
    },
    bindTransport: () => transport,
  });
  const signal = AbortSignal.timeout(30_000);
  const via = '(engine direct: no gateway jobs API yet)';
  try {
    let jobId: string | undefined;
    emit(
      'async',
      await context.timed(async () => {
        jobId = await startJob(engine, binding, signal);
        const seen: string[] = [];
        for (let polls = 1; ; polls += 1) {
          const { snapshot } = await engine.jobs.get({ binding, providerJobId: jobId, signal });
          if (seen[seen.length - 1] !== snapshot.state) seen.push(snapshot.state);
          if (TERMINAL_JOB_STATES.has(snapshot.state)) {
            demoCheck(snapshot.state === 'succeeded', `job ended ${snapshot.state}`);
            return `accepted, ${seen.join(' -> ')} after ${polls} polls ${via}`;
          }
          await sleep(40);
        }
      }),
    );
    emit(
      'get',
      await context.timed(async () => {
        demoCheck(jobId !== undefined, 'no job to read');
        const { snapshot } = await engine.jobs.get({ binding, providerJobId: jobId, signal });
        return `${snapshot.state}${snapshot.media === undefined ? '' : `, ${snapshot.media.length} media`} ${via}`;
      }),
    );
    emit(
      'list',
      await context.timed(async () => {
        const page = await engine.jobs.list({ binding, pageNum: 1, pageSize: 10, signal });
        demoCheck(jobId !== undefined && page.items.some((item) => item.providerJobId === jobId), 'the job is not on page 1');
        return `${page.items.length} item(s) on page 1 ${via}`;
      }),
    );
    if (options.cancel) {
      emit(
        'cancel',
        await context.timed(async () => {
          const second = await startJob(engine, binding, signal);
          await engine.jobs.cancel({ binding, providerJobId: second, signal });
          const { snapshot } = await engine.jobs.get({ binding, providerJobId: second, signal });
          demoCheck(snapshot.state === 'cancelled', `cancelled job reads ${snapshot.state}`);
          return `queued job cancelled, get reads cancelled ${via}`;
        }),
      );
    }
  } finally {
    await transport.destroy();
  }
}
