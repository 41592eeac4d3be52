import { randomUUID } from 'node:crypto';
import { parseSimulatorScenario, type SimulatorScenario } from '../scenario.js';
import { headerValue, parseJsonObject, type SimExchange } from '../sim-exchange.js';
import { errorHeaders } from '../wire/serve-chat.js';
import { readRecordedFixture } from '../recorded-fixtures.js';
import { jobPhase, jobUpdatedAt, mediaOriginOf, SimJobStore, type SimJob } from './job-store.js';
import type { SimJobTimings } from './kling-jobs.js';

const CODES: Readonly<Record<number, string>> = {
  400: 'InvalidParameter',
  401: 'InvalidApiKey',
  403: 'AccessDenied',
  404: 'ModelNotFound',
  429: 'Throttling.RateQuota',
  500: 'InternalError',
  503: 'ServiceUnavailable',
};

/** DashScope's request-level error body `{request_id, code, message}` (fact sheet §5, "Error shapes"). */
export function dashScopeErrorBody(status: number, message: string, code = CODES[status] ?? (status >= 500 ? 'InternalError' : 'InvalidParameter')): unknown {
  return { request_id: randomUUID(), code, message };
}

const STATUSES: Readonly<Record<string, string>> = { queued: 'PENDING', running: 'RUNNING', succeeded: 'SUCCEEDED', failed: 'FAILED', cancelled: 'CANCELED' };
const SERVICES = new Set(['video-generation/video-synthesis', 'image2video/video-synthesis', 'text2image/image-synthesis']);

/** A naive UTC+8 time string, as the task GET sends it (`2025-07-27 21:05:15.212` is 13:05:15.212Z). */
export function dashScopeTime(epochMs: number): string {
  return new Date(epochMs + 8 * 3_600_000).toISOString().replace('T', ' ').replace('Z', '');
}

/** Reads a compact `YYYYMMDDhhmmss` filter time in UTC+8. */
function parseFilterTime(value: string | null): number | undefined {
  const match = /^(\d{4})(\d{2})(\d{2})(\d{2})(\d{2})(\d{2})$/.exec(value ?? '');
  if (match === null) return undefined;
  const [, year, month, day, hour, minute, second] = match.map(Number) as [number, number, number, number, number, number, number];
  return Date.UTC(year, month - 1, day, hour, minute, second) - 8 * 3_600_000;
}

/** The DashScope async task surface: create (async header required), get, list, cancel (PENDING only). */
export class DashScopeSurface {
  readonly store: SimJobStore;
  /** Where result URLs point (set once the simulator listens, with `serveMedia`). */
  mediaOrigin: string | undefined;

  constructor(
    private readonly now: () => number,
    private readonly timings: SimJobTimings,
  ) {
    this.store = new SimJobStore(now, () => ({}));
  }

  /** Routes a request under `/api/v1/`; `false` when the path is not DashScope's. */
  async handle(exchange: SimExchange, segments: readonly string[], scenario: SimulatorScenario | undefined): Promise<boolean> {
    const { method } = exchange.request;
    if (scenario?.kind === 'error') {
      exchange.json(scenario.status, dashScopeErrorBody(scenario.status, 'Simulated provider error.'), errorHeaders(scenario.status, scenario.retryAfterSeconds));
      return true;
    }
    if (segments[0] === 'services' && segments[1] === 'aigc' && segments.length === 4 && method === 'POST') {
      const service = `${segments[2]}/${segments[3]}`;
      if (!SERVICES.has(service)) return false;
      await this.create(exchange, service, scenario);
      return true;
    }
    if (segments[0] !== 'tasks') return false;
    if (segments.length === 1 && method === 'GET') this.list(exchange);
    else if (segments.length === 2 && method === 'GET') await this.get(exchange, decodeURIComponent(segments[1] as string));
    else if (segments.length === 3 && segments[2] === 'cancel' && method === 'POST') this.cancel(exchange, decodeURIComponent(segments[1] as string));
    else return false;
    return true;
  }

  private async create(exchange: SimExchange, service: string, headerScenario: SimulatorScenario | undefined): Promise<void> {
    if (headerValue(exchange.request.headers, 'x-dashscope-async') !== 'enable') {
      return exchange.json(403, dashScopeErrorBody(403, 'current user api does not support synchronous calls', 'AccessDenied'));
    }
    const body = parseJsonObject(exchange.request.body);
    const input = body?.input;
    if (body === undefined || typeof body.model !== 'string' || typeof input !== 'object' || input === null) {
      return exchange.json(400, dashScopeErrorBody(400, 'model and input are required.'));
    }
    const scenario = headerScenario ?? parseSimulatorScenario(body.model) ?? { kind: 'job', queuedMs: undefined, runningMs: undefined };
    if (scenario.kind === 'error') {
      return exchange.json(scenario.status, dashScopeErrorBody(scenario.status, 'Simulated provider error.'), errorHeaders(scenario.status, scenario.retryAfterSeconds));
    }
    if (scenario.kind === 'recorded') {
      const text = await readRecordedFixture('dashscope-tasks', `${scenario.name}.json`);
      if (text === undefined) return exchange.json(404, dashScopeErrorBody(404, 'simulator: no such recorded fixture'));
      const parsed = JSON.parse(text) as { code?: unknown; output?: unknown };
      return exchange.text(typeof parsed.code === 'string' && parsed.output === undefined ? 400 : 200, text);
    }
    if (scenario.kind === 'slow-first-byte') await exchange.wait(scenario.delayMs);
    const image = service.startsWith('text2image');
    const fields = input as Record<string, unknown>;
    if (image && typeof fields.prompt !== 'string') return exchange.json(400, dashScopeErrorBody(400, 'input.prompt is required.'));
    if (!image && typeof fields.prompt !== 'string' && typeof fields.img_url !== 'string' && typeof fields.first_frame_url !== 'string') {
      return exchange.json(400, dashScopeErrorBody(400, 'input.prompt or an image is required.'));
    }
    const parameters = (typeof body.parameters === 'object' && body.parameters !== null ? body.parameters : {}) as Record<string, unknown>;
    const timed = scenario.kind === 'job' || scenario.kind === 'job-fail' ? scenario : undefined;
    const job: SimJob = {
      ...(this.mediaOrigin === undefined ? {} : { mediaOrigin: this.mediaOrigin }),
      id: randomUUID(),
      collection: `dashscope:${image ? 'image' : 'video'}`,
      model: body.model,
      createdAt: this.now(),
      queuedMs: timed?.queuedMs ?? this.timings.queuedMs,
      runningMs: timed?.runningMs ?? this.timings.runningMs,
      outcome: scenario.kind === 'job-fail' ? 'failed' : 'succeeded',
      outputs: image && typeof parameters.n === 'number' ? parameters.n : 1,
      ...(image ? {} : { videoSeconds: typeof parameters.duration === 'number' ? parameters.duration : 5 }),
    };
    this.store.add(job);
    exchange.json(200, { request_id: randomUUID(), output: { task_id: job.id, task_status: 'PENDING' } });
  }

  private async get(exchange: SimExchange, taskId: string): Promise<void> {
    const job = this.store.get(taskId);
    if (job === undefined) return exchange.json(200, { request_id: randomUUID(), output: { task_id: taskId, task_status: 'UNKNOWN' } });
    await this.store.countPoll(job.id, () => exchange.wait(this.timings.pollDelayMs ?? 0));
    const now = this.now();
    const phase = jobPhase(job, now);
    const image = job.collection === 'dashscope:image';
    const output: Record<string, unknown> = { task_id: job.id, task_status: STATUSES[phase], submit_time: dashScopeTime(job.createdAt) };
    if (phase !== 'queued' && phase !== 'cancelled') output.scheduled_time = dashScopeTime(job.createdAt + job.queuedMs);
    if (phase === 'succeeded' || phase === 'failed' || phase === 'cancelled') output.end_time = dashScopeTime(jobUpdatedAt(job, now));
    if (image && phase !== 'queued' && phase !== 'cancelled') {
      output.task_metrics = { TOTAL: job.outputs, SUCCEEDED: phase === 'succeeded' ? job.outputs : 0, FAILED: phase === 'failed' ? job.outputs : 0 };
    }
    let usage: unknown;
    if (phase === 'succeeded') {
      if (image) {
        output.results = Array.from({ length: job.outputs }, (_, index) => ({ url: `${mediaOriginOf(job)}/media/dashscope/${job.id}-${index}.png` }));
        usage = { image_count: job.outputs };
      } else {
        output.video_url = `${mediaOriginOf(job)}/media/dashscope/${job.id}.mp4`;
        usage = { video_count: 1, video_duration: job.videoSeconds ?? 5, video_ratio: '832*480' };
      }
    }
    if (phase === 'failed') {
      output.code = 'InternalError.Algo';
      output.message = 'Simulated generation failure.';
    }
    exchange.json(200, { request_id: randomUUID(), output, ...(usage === undefined ? {} : { usage }) });
  }

  private list(exchange: SimExchange): void {
    const { query } = exchange.request;
    const pageNo = Number(query.get('page_no') ?? '1');
    const pageSize = Number(query.get('page_size') ?? '10');
    if (!Number.isInteger(pageNo) || pageNo < 1 || !Number.isInteger(pageSize) || pageSize < 1 || pageSize > 100) {
      return exchange.json(400, dashScopeErrorBody(400, 'Invalid page_no or page_size.'));
    }
    const start = parseFilterTime(query.get('start_time'));
    const end = parseFilterTime(query.get('end_time'));
    const model = query.get('model_name');
    const status = query.get('status');
    const now = this.now();
    const jobs = this.store.list(
      (job) =>
        (model === null || job.model === model) &&
        (status === null || STATUSES[jobPhase(job, now)] === status) &&
        (start === undefined || job.createdAt >= start) &&
        (end === undefined || job.createdAt <= end + 999),
    );
    const page = jobs.slice((pageNo - 1) * pageSize, pageNo * pageSize);
    exchange.json(200, {
      request_id: randomUUID(),
      total: jobs.length,
      total_page: Math.ceil(jobs.length / pageSize),
      page_no: pageNo,
      page_size: pageSize,
      data: page.map((job) => {
        const phase = jobPhase(job, now);
        const finished = phase === 'succeeded' || phase === 'failed' || phase === 'cancelled';
        return {
          task_id: job.id,
          status: STATUSES[phase],
          model_name: job.model,
          region: 'cn-beijing',
          request_id: randomUUID(),
          api_key_id: 'sim-key',
          caller_uid: 'sim-caller',
          gmt_create: job.createdAt,
          start_time: job.createdAt,
          ...(finished ? { end_time: jobUpdatedAt(job, now) } : {}),
        };
      }),
    });
  }

  private cancel(exchange: SimExchange, taskId: string): void {
    const job = this.store.get(taskId);
    if (job === undefined || jobPhase(job, this.now()) !== 'queued') {
      return exchange.json(
        400,
        dashScopeErrorBody(400, 'Failed to cancel the task, please confirm if the task is in PENDING status.', 'UnsupportedOperation'),
      );
    }
    job.cancelledAt = this.now();
    exchange.json(200, { request_id: randomUUID() });
  }
}
