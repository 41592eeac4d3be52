import type { DemoCell, DemoCellKey } from './demo-cell.js';
import { demoCheck, type DemoClients } from './demo-clients.js';

/** The gateway's jobs routes, as the operator log names them (`POST /v1/jobs`, `GET /v1/jobs/{id}`, ...). */
export const DEMO_JOBS_ROUTE = '/v1/jobs';

const TERMINAL_JOB_STATES = new Set(['succeeded', 'failed', 'cancelled']);

/** The gateway-native job view, as much of it as the demo reads. */
interface JobView {
  readonly id?: unknown;
  readonly status?: unknown;
  readonly idempotencyKey?: unknown;
  readonly media?: readonly unknown[];
}

async function sleep(ms: number): Promise<void> {
  await new Promise((resolve) => setTimeout(resolve, ms));
}

async function createJob(clients: DemoClients, model: string): Promise<{ id: string; idempotencyKey: unknown }> {
  const { status, json } = await clients.fetchJson('POST', '/v1/jobs', { model, prompt: 'a red fox running through snow', durationSeconds: 5 });
  const job = (json ?? {}) as JobView;
  demoCheck(status === 202 && typeof job.id === 'string', `create answered HTTP ${status}`);
  return { id: job.id, idempotencyKey: job.idempotencyKey };
}

async function readJob(clients: DemoClients, id: string): Promise<JobView> {
  const { status, json } = await clients.fetchJson('GET', `/v1/jobs/${encodeURIComponent(id)}`);
  demoCheck(status === 200, `get answered HTTP ${status}`);
  return (json ?? {}) as JobView;
}

/**
 * An async row through the gateway's jobs API with plain fetch: create (`POST /v1/jobs`, a signed handle back),
 * poll it to its end with `GET /v1/jobs/{id}`, read it once more, list the caller's jobs of the model, and where the
 * family can cancel, cancel a second job and read it back.
 */
export async function runDemoJobs(
  clients: DemoClients,
  model: string,
  options: { readonly cancel: boolean },
  timed: (run: () => Promise<string>) => Promise<DemoCell>,
  emit: (key: DemoCellKey, cell: DemoCell) => void,
): Promise<void> {
  let created: { id: string; idempotencyKey: unknown } | undefined;
  emit(
    'async',
    await timed(async () => {
      created = await createJob(clients, model);
      const deadline = performance.now() + 15_000;
      const seen: string[] = [];
      for (let polls = 1; ; polls += 1) {
        const job = await readJob(clients, created.id);
        const state = String(job.status);
        if (seen[seen.length - 1] !== state) seen.push(state);
        if (TERMINAL_JOB_STATES.has(state)) {
          demoCheck(state === 'succeeded', `job ended ${state}`);
          return `202 with a signed handle, ${seen.join(' -> ')} after ${polls} polls`;
        }
        demoCheck(performance.now() < deadline, `job still ${state} after 15 s`);
        await sleep(40);
      }
    }),
  );
  emit(
    'get',
    await timed(async () => {
      demoCheck(created !== undefined, 'no job to read');
      const job = await readJob(clients, created.id);
      demoCheck(job.id === created.id, 'get answered another job');
      return `${String(job.status)}, ${job.media?.length ?? 0} media (GET /v1/jobs/{id})`;
    }),
  );
  emit(
    'list',
    await timed(async () => {
      const { status, json } = await clients.fetchJson('GET', `/v1/jobs?model=${encodeURIComponent(model)}`);
      demoCheck(status === 200, `list answered HTTP ${status}`);
      const items = ((json as { data?: JobView[] } | undefined)?.data ?? []) as JobView[];
      // Only a provider that echoes the idempotency key lets the gateway tell the caller's jobs apart; the others
      // list nothing here (their jobs are found through the recovery window instead).
      const echoed = typeof created?.idempotencyKey === 'string' && items.some((item) => item.idempotencyKey === created?.idempotencyKey);
      demoCheck(items.every((item) => typeof item.id === 'string'), 'a listed job without a handle');
      return `${items.length} of the caller's job(s)${echoed ? ', the new one among them' : ' (the provider echoes no idempotency key)'}`;
    }),
  );
  if (options.cancel) {
    emit(
      'cancel',
      await timed(async () => {
        // A provider cancels only a job still queued, and the simulator's jobs leave the queue after 100 ms: on a
        // busy machine the cancel can arrive later. That lost race is proven by the job's own state (it left the
        // queue) and tried again with a new job; any other refusal fails the cell at once.
        for (let attempt = 1; ; attempt += 1) {
          const second = await createJob(clients, model);
          const { status } = await clients.fetchJson('POST', `/v1/jobs/${encodeURIComponent(second.id)}/cancel`);
          const job = await readJob(clients, second.id);
          if (status === 200) {
            demoCheck(job.status === 'cancelled', `the cancelled job reads ${String(job.status)}`);
            return `a queued job cancelled, get reads cancelled${attempt === 1 ? '' : ` (${attempt - 1} earlier job(s) left the queue before the cancel)`}`;
          }
          const leftQueue = job.status === 'running' || job.status === 'succeeded';
          demoCheck(leftQueue && attempt < MAX_CANCEL_ATTEMPTS, `cancel answered HTTP ${status} with the job ${String(job.status)}${leftQueue ? ` in all ${attempt} attempts` : ''}`);
        }
      }),
    );
  }
}

/** Jobs a cancel cell may create when each one has left the queue before its cancel arrived. */
const MAX_CANCEL_ATTEMPTS = 5;
