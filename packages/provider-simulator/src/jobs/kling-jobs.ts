import { parseSimulatorScenario, type SimulatorScenario } from '../scenario.js';
import { parseJsonObject, type SimExchange } from '../sim-exchange.js';
import { errorHeaders } from '../wire/serve-chat.js';
import { readRecordedFixture } from '../recorded-fixtures.js';
import { jobPhase, jobProgress, jobUpdatedAt, mediaOriginOf, SimJobStore, type SimJob } from './job-store.js';

/** Kling error codes per HTTP status (fact sheet §4, "Errors"). */
const CODES: Readonly<Record<number, number>> = { 400: 1201, 401: 1000, 403: 1103, 404: 1203, 429: 1302, 500: 5000, 503: 5001, 504: 5002 };
const STATUS_BY_CODE: ReadonlyArray<readonly [number, number, number]> = [
  [1000, 1004, 401],
  [1100, 1102, 429],
  [1103, 1103, 403],
  [1200, 1201, 400],
  [1202, 1203, 404],
  [1300, 1301, 400],
  [1302, 1304, 429],
  [5000, 5000, 500],
  [5001, 5001, 503],
  [5002, 5002, 504],
];

/** Kling's envelope around an error. */
export function klingErrorBody(status: number, message: string, code = CODES[status] ?? (status >= 500 ? 5000 : 1200)): unknown {
  return { code, message, request_id: 'sim-kling-request' };
}

/** The HTTP status Kling sends with an envelope `code`. */
export function klingStatusForCode(code: number): number {
  if (code === 0) return 200;
  return STATUS_BY_CODE.find(([low, high]) => code >= low && code <= high)?.[2] ?? 500;
}

const PHASES: Readonly<Record<string, string>> = { queued: 'submitted', running: 'processing', succeeded: 'succeed', failed: 'failed', cancelled: 'failed' };

/** The task object Kling returns (and POSTs to callbacks). */
export function klingTask(job: SimJob, now: number): Record<string, unknown> {
  const phase = jobPhase(job, now);
  return {
    task_id: job.id,
    task_status: PHASES[phase],
    task_status_msg: phase === 'failed' ? 'Simulated generation failure.' : '',
    task_info: job.externalTaskId === undefined ? {} : { external_task_id: job.externalTaskId },
    ...(phase === 'succeeded'
      ? {
          task_result: { videos: [{ id: `video-${job.id}`, url: `${mediaOriginOf(job)}/media/kling/${job.id}.mp4`, duration: String(job.videoSeconds ?? 5) }] },
          final_unit_deduction: '1',
        }
      : { task_result: {} }),
    created_at: job.createdAt,
    updated_at: jobUpdatedAt(job, now),
  };
}

function ok(data: unknown): unknown {
  return { code: 0, message: 'SUCCEED', request_id: 'sim-kling-request', data };
}

/** Job timing defaults. */
export interface SimJobTimings {
  readonly queuedMs: number;
  readonly runningMs: number;
  /** How long each status read of a job is held before it answers (default 0), so overlapping polls of one job show. */
  readonly pollDelayMs?: number;
}

/** The Kling video surface: create, get and list on `text2video` and `image2video` (no cancel, as on Kling). */
export class KlingSurface {
  readonly store: SimJobStore;
  /** Where result URLs point (set once the simulator listens, with `serveMedia`). */
  mediaOrigin: string | undefined;
  private sequence = 0;

  constructor(
    private readonly now: () => number,
    private readonly timings: SimJobTimings,
  ) {
    this.store = new SimJobStore(now, (job) => klingTask(job, now()));
  }

  /** Routes a request under `/v1/videos/`; `false` when the path is not Kling's. */
  async handle(exchange: SimExchange, segments: readonly string[], scenario: SimulatorScenario | undefined): Promise<boolean> {
    const [endpoint, taskId, extra] = segments;
    if ((endpoint !== 'text2video' && endpoint !== 'image2video') || extra !== undefined) return false;
    const { method } = exchange.request;
    if (scenario?.kind === 'error') {
      exchange.json(scenario.status, klingErrorBody(scenario.status, 'Simulated provider error.'), errorHeaders(scenario.status, scenario.retryAfterSeconds));
      return true;
    }
    if (method === 'POST' && taskId === undefined) await this.create(exchange, endpoint, scenario);
    else if (method === 'GET' && taskId !== undefined) await this.get(exchange, endpoint, decodeURIComponent(taskId));
    else if (method === 'GET') this.list(exchange, endpoint);
    else exchange.json(404, klingErrorBody(404, 'Resource not found.', 1202));
    return true;
  }

  private async create(exchange: SimExchange, endpoint: string, headerScenario: SimulatorScenario | undefined): Promise<void> {
    const body = parseJsonObject(exchange.request.body);
    if (body === undefined) return exchange.json(400, klingErrorBody(400, 'Invalid request body.', 1200));
    const model = typeof body.model_name === 'string' ? body.model_name : 'kling-v1';
    const scenario = headerScenario ?? parseScenarioOrJob(model);
    if (scenario.kind === 'error') {
      return exchange.json(scenario.status, klingErrorBody(scenario.status, 'Simulated provider error.'), errorHeaders(scenario.status, scenario.retryAfterSeconds));
    }
    if (scenario.kind === 'recorded') {
      const text = await readRecordedFixture('kling-video', `${scenario.name}.json`);
      if (text === undefined) return exchange.json(404, klingErrorBody(404, 'simulator: no such recorded fixture', 1203));
      const code = (JSON.parse(text) as { code?: unknown }).code;
      return exchange.text(code === 1201 ? 200 : klingStatusForCode(typeof code === 'number' ? code : 0), text);
    }
    if (scenario.kind === 'slow-first-byte') await exchange.wait(scenario.delayMs);
    const invalid = validateCreate(endpoint, body);
    if (invalid !== undefined) return exchange.json(400, klingErrorBody(400, invalid, 1201));
    const externalTaskId = typeof body.external_task_id === 'string' ? body.external_task_id : undefined;
    if (externalTaskId !== undefined && this.store.list((job) => job.externalTaskId === externalTaskId).length > 0) {
      return exchange.json(400, klingErrorBody(400, 'external_task_id already exists.', 1201));
    }
    this.sequence += 1;
    const timed = scenario.kind === 'job' || scenario.kind === 'job-fail' ? scenario : undefined;
    const job: SimJob = {
      ...(this.mediaOrigin === undefined ? {} : { mediaOrigin: this.mediaOrigin }),
      id: `8668894566987${String(this.sequence).padStart(5, '0')}`,
      collection: `kling:${endpoint}`,
      model,
      createdAt: this.now(),
      queuedMs: timed?.queuedMs ?? this.timings.queuedMs,
      runningMs: timed?.runningMs ?? this.timings.runningMs,
      outcome: scenario.kind === 'job-fail' ? 'failed' : 'succeeded',
      outputs: 1,
      videoSeconds: typeof body.duration === 'string' ? Number(body.duration) : 5,
      ...(typeof body.callback_url === 'string' ? { callbackUrl: body.callback_url } : {}),
      ...(externalTaskId === undefined ? {} : { externalTaskId }),
    };
    this.store.add(job);
    const task = klingTask(job, this.now());
    exchange.json(200, ok({ task_id: task.task_id, task_status: task.task_status, task_info: task.task_info, created_at: task.created_at, updated_at: task.updated_at }));
  }

  private async get(exchange: SimExchange, endpoint: string, taskId: string): Promise<void> {
    const job = this.store.get(taskId);
    if (job === undefined || job.collection !== `kling:${endpoint}`) return exchange.json(404, klingErrorBody(404, 'Task not found.', 1203));
    await this.store.countPoll(job.id, () => exchange.wait(this.timings.pollDelayMs ?? 0));
    exchange.json(200, ok(klingTask(job, this.now())));
  }

  private list(exchange: SimExchange, endpoint: string): void {
    const { query } = exchange.request;
    const pageNum = Number(query.get('pageNum') ?? '1');
    const pageSize = Number(query.get('pageSize') ?? '30');
    if (!Number.isInteger(pageNum) || pageNum < 1 || pageNum > 1000 || !Number.isInteger(pageSize) || pageSize < 1 || pageSize > 500) {
      return exchange.json(400, klingErrorBody(400, 'Invalid paging parameters.', 1201));
    }
    const now = this.now();
    const jobs = this.store.list((job) => job.collection === `kling:${endpoint}`);
    exchange.json(200, ok(jobs.slice((pageNum - 1) * pageSize, pageNum * pageSize).map((job) => klingTask(job, now))));
  }

  /** Progress of a job (for the command line's status). */
  progress(job: SimJob): number {
    return jobProgress(job, this.now());
  }
}

function parseScenarioOrJob(model: string): SimulatorScenario {
  return parseSimulatorScenario(model) ?? { kind: 'job', queuedMs: undefined, runningMs: undefined };
}

function validateCreate(endpoint: string, body: Record<string, unknown>): string | undefined {
  if (endpoint === 'text2video' && (typeof body.prompt !== 'string' || body.prompt.length === 0 || body.prompt.length > 2500)) return 'prompt is required (at most 2500 characters).';
  if (endpoint === 'image2video' && typeof body.image !== 'string' && typeof body.image_tail !== 'string') return 'image is required.';
  if (typeof body.image === 'string' && body.image.startsWith('data:')) return 'image must be a URL or raw base64 without a data: prefix.';
  if (body.duration !== undefined && body.duration !== '5' && body.duration !== '10') return 'duration must be "5" or "10".';
  if (body.mode !== undefined && body.mode !== 'std' && body.mode !== 'pro') return 'mode must be std or pro.';
  if (body.cfg_scale !== undefined && (typeof body.cfg_scale !== 'number' || body.cfg_scale < 0 || body.cfg_scale > 1)) return 'cfg_scale must be between 0 and 1.';
  return undefined;
}
