import { readFileSync } from 'node:fs';
import {
  providerAsyncJobListPageV2Schema,
  providerAsyncJobSnapshotV2Schema,
  type ProviderAdapterTargetV1,
  type ProviderAsyncJobAdapterV1,
  type ProviderAsyncJobListInputV2,
  type TaskEnvelopeV2,
} from '@tokenforge/model-protocol';
import { describe, expect, it } from 'vitest';
import { createFixtureTransportV1, type FixtureResponseBodyV1, type FixtureResponseV1 } from '../../testing/fixture-transport.js';
import { createDashScopeTasksAdapterFactory } from './adapter.js';

const file = (name: string): FixtureResponseBodyV1 => ({ type: 'text', text: readFileSync(new URL(`./__fixtures__/${name}`, import.meta.url), 'utf8') });
const recorded = (scenario: string): FixtureResponseBodyV1 => file(`cnblogs-dashscope-sdk__${scenario}.response.body.txt`);

const NOW = Date.UTC(2024, 2, 1, 10, 0, 0);
const target: ProviderAdapterTargetV1 = {
  providerModel: 'wanx-v1',
  capability: { protocolFamily: 'dashscope-tasks/v1', executionMode: 'async-job', taskKinds: ['image-generation', 'video-generation'] },
};
const imageTask: TaskEnvelopeV2 = { kind: 'image-generation', prompt: 'a pelican on a bicycle', count: 4, size: '1024x1024', style: '<auto>' };
const TASK_ID = '9e2b6ef6-285d-4efa-8651-4dbda7d571fa';

function adapter(): ProviderAsyncJobAdapterV1 {
  return createDashScopeTasksAdapterFactory({ now: () => NOW }).createAdapter();
}

async function startWith(responses: FixtureResponseV1[], task: TaskEnvelopeV2 = imageTask) {
  const transport = createFixtureTransportV1({ responses });
  const outcome = await adapter().start({ task, target, transport, signal: new AbortController().signal });
  return { outcome, transport };
}

describe('dashscope-tasks start: the acceptance table', () => {
  it('accepted: the recorded image-synthesis answer (with its BOM); the request is async with * sizes', async () => {
    const { outcome, transport } = await startWith([{ body: recorded('image-synthesis-nosse') }]);
    expect(outcome).toEqual({ acceptance: { state: 'accepted' }, responseMetadata: { providerRequestId: '33da8e6b-1309-9a44-be83-352165959608' }, providerJobId: TASK_ID });
    expect(transport.requests).toEqual([
      {
        method: 'POST',
        path: '/api/v1/services/aigc/text2image/image-synthesis',
        headers: { accept: 'application/json', 'x-dashscope-async': 'enable' },
        body: { type: 'json', value: { model: 'wanx-v1', input: { prompt: 'a pelican on a bicycle' }, parameters: { size: '1024*1024', n: 4, style: '<auto>' } } },
      },
    ]);
  });

  it('accepted: a video task goes to video-synthesis', async () => {
    const { outcome, transport } = await startWith([{ body: file('constructed__video-synthesis-create.response.body.txt') }], {
      kind: 'video-generation',
      prompt: 'a cat',
      image: 'https://img.example/cat.png',
      resolution: '720p',
      durationSeconds: 5,
      seed: 42,
    });
    expect(outcome).toMatchObject({ acceptance: { state: 'accepted' }, providerJobId: '5b4a2d1e-7c3f-4e8a-9b6d-0a1b2c3d4e5f' });
    expect(transport.requests[0]).toMatchObject({
      path: '/api/v1/services/aigc/video-generation/video-synthesis',
      body: { type: 'json', value: { model: 'wanx-v1', input: { prompt: 'a cat', img_url: 'https://img.example/cat.png' }, parameters: { resolution: '720P', duration: 5, seed: 42 } } },
    });
  });

  it('not-accepted, nothing sent: a task the dialect cannot express', async () => {
    const { outcome, transport } = await startWith([], { kind: 'image-generation', prompt: 'p', delivery: 'base64' });
    expect(outcome).toEqual({ acceptance: { state: 'not-accepted' }, responseMetadata: {}, failure: { code: 'unsupported', retryable: false } });
    expect(transport.requests).toEqual([]);
  });

  it('not-accepted, retryable: transport failure before send', async () => {
    const { outcome } = await startWith([{ failure: { stage: 'before-send', reason: 'policy-refused' } }]);
    expect(outcome).toEqual({ acceptance: { state: 'not-accepted' }, responseMetadata: {}, failure: { code: 'network', retryable: true } });
  });

  it.each([
    ['connection lost after send', { failure: { stage: 'after-send', reason: 'connection-lost' } }, 'network'],
    ['timeout after send', { failure: { stage: 'after-send', reason: 'timeout' } }, 'timeout'],
    ['aborted after send', { failure: { stage: 'after-send', reason: 'aborted' } }, 'network'],
    ['connection lost in the 2xx body', { body: recorded('image-synthesis-nosse'), bodyFailure: { afterBytes: 10 } }, 'network'],
  ] satisfies [string, FixtureResponseV1, string][])('unknown, never retryable: %s', async (_name, response, code) => {
    const { outcome } = await startWith([response]);
    expect(outcome).toEqual({ acceptance: { state: 'unknown' }, responseMetadata: {}, failure: { code, retryable: false } });
  });

  it.each([
    ['a truncated 2xx body', { body: { type: 'text', text: '\uFEFF{"output":{"task_status":"PENDING","task_id":"9e2b' } }],
    ['a 2xx body without output', { body: { type: 'json', value: { request_id: 'r' } } }],
    ['a 2xx body whose task id is a number', { body: { type: 'text', text: '{"output":{"task_id":123456789012345678901}}' } }],
    ['a 2xx body that is a JSON array', { body: { type: 'json', value: [] } }],
    ['an empty 2xx body', { body: { type: 'none' } }],
    ['a 2xx body with a BOM inside the JSON', { body: { type: 'text', text: '\uFEFF{"output":\uFEFF{"task_id":"x"}}' } }],
  ] satisfies [string, FixtureResponseV1][])('unknown protocol-violation: %s', async (_name, response) => {
    const { outcome } = await startWith([response]);
    expect(outcome).toMatchObject({ acceptance: { state: 'unknown' }, failure: { code: 'protocol-violation', retryable: false } });
  });

  it('unknown protocol-violation: a 2xx body over the size cap, released unread', async () => {
    const transport = createFixtureTransportV1({ responses: [{ readSize: 256, body: { type: 'text', text: `{"output":{"task_id":"t"},"pad":"${'x'.repeat(4096)}"}` } }] });
    const outcome = await createDashScopeTasksAdapterFactory({ maxBodyBytes: 1024 }).createAdapter().start({ task: imageTask, target, transport, signal: new AbortController().signal });
    expect(outcome).toEqual({ acceptance: { state: 'unknown' }, responseMetadata: {}, failure: { code: 'protocol-violation', retryable: false } });
    expect(transport.bodyStates()).toEqual(['released']);
  });

  it('unknown: a 2xx answer whose task id is 257 characters (cannot be a job id)', async () => {
    const { outcome } = await startWith([{ body: { type: 'json', value: { output: { task_id: 'a'.repeat(257) } } } }]);
    expect(outcome).toMatchObject({ acceptance: { state: 'unknown' }, failure: { code: 'protocol-violation' } });
  });

  it('unknown: an error code on HTTP 200 without a task id (the provider may still hold a task)', async () => {
    const { outcome } = await startWith([{ body: { type: 'json', value: { request_id: 'r-1', code: 'InvalidParameter', message: 'bad' } } }]);
    expect(outcome).toEqual({ acceptance: { state: 'unknown' }, responseMetadata: { providerRequestId: 'r-1' }, failure: { code: 'invalid-request', retryable: false, providerCode: 'InvalidParameter' } });
  });

  it('not-accepted: a 4xx refusal body, with retry hints kept', async () => {
    const { outcome } = await startWith([{ status: 429, headers: { 'retry-after': '2' }, body: file('constructed__throttling-429.response.body.txt') }]);
    expect(outcome).toEqual({
      acceptance: { state: 'not-accepted' },
      responseMetadata: { providerRequestId: 'c0000000-0000-4000-8000-000000000015' },
      failure: { code: 'rate-limited', retryable: true, retryAfterMs: 2000, providerCode: 'Throttling.RateQuota' },
    });
  });

  it.each([
    ['HTTP 500 InternalError', { status: 500, body: file('constructed__internal-error-500.response.body.txt') }, 'provider-error'],
    ['HTTP 503 without a body', { status: 503 }, 'overloaded'],
    ['HTTP 400 with the recorded SSE error framing (not a JSON refusal)', { status: 400, body: recorded('parameter-error-sse') }, 'invalid-request'],
    ['HTTP 401 with an empty body', { status: 401 }, 'authentication'],
  ] satisfies [string, FixtureResponseV1, string][])('unknown, never retryable: %s', async (_name, response, code) => {
    const { outcome } = await startWith([response]);
    expect(outcome).toMatchObject({ acceptance: { state: 'unknown' }, failure: { code, retryable: false } });
  });
});

async function getWith(providerJobId: string, responses: FixtureResponseV1[]) {
  const transport = createFixtureTransportV1({ responses });
  const result = await adapter().get?.({ target, providerJobId, transport, signal: new AbortController().signal });
  return { result, transport };
}

describe('dashscope-tasks get', () => {
  it('reads the recorded RUNNING task: UTC+8 times, output counts while running', async () => {
    const { result, transport } = await getWith(TASK_ID, [{ body: recorded('get-task-running-nosse') }]);
    expect(transport.requests).toEqual([{ method: 'GET', path: `/api/v1/tasks/${TASK_ID}`, headers: { accept: 'application/json' }, body: { type: 'none' } }]);
    expect(result).toEqual({
      status: 'ok',
      value: { providerJobId: TASK_ID, state: 'running', rawState: 'RUNNING', createdAt: '2024-03-01T09:38:24.817Z', outputCounts: { succeeded: 0, failed: 0 } },
    });
  });

  it('reads the recorded SUCCEEDED image task: four image URLs, counts and usage', async () => {
    const { result } = await getWith(TASK_ID, [{ body: recorded('get-task-image-synthesis-success-nosse') }]);
    expect(result?.status).toBe('ok');
    const snapshot = result?.status === 'ok' ? result.value : undefined;
    expect(providerAsyncJobSnapshotV2Schema.parse(snapshot)).toEqual(snapshot);
    expect(snapshot).toMatchObject({ state: 'succeeded', createdAt: '2024-03-01T09:38:24.817Z', finishedAt: '2024-03-01T09:38:55.565Z', outputCounts: { succeeded: 4, failed: 0 }, usage: { images: 4 } });
    expect(snapshot?.media?.map((media) => media.type)).toEqual(['image', 'image', 'image', 'image']);
  });

  it('reads the recorded UNKNOWN answer as unknown', async () => {
    const { result } = await getWith('1111', [{ body: recorded('get-task-unknown-nosse') }]);
    expect(result).toEqual({ status: 'ok', value: { providerJobId: '1111', state: 'unknown', rawState: 'UNKNOWN' } });
  });

  it('reports partial success honestly: media only for the succeeded item', async () => {
    const { result } = await getWith(TASK_ID, [{ body: file('constructed__get-image-partial-success.response.body.txt') }]);
    expect(result).toMatchObject({ status: 'ok', value: { state: 'succeeded', media: [{ type: 'image', url: 'https://dashscope-result.example.com/img/1.png' }], outputCounts: { succeeded: 1, failed: 1 }, usage: { images: 1 } } });
  });

  it('reads a video task: video media with its duration, video seconds, 21:05:15.212 UTC+8 as 13:05:15.212Z', async () => {
    const { result } = await getWith('5b4a2d1e-7c3f-4e8a-9b6d-0a1b2c3d4e5f', [{ body: file('constructed__get-video-succeeded.response.body.txt') }]);
    expect(result).toEqual({
      status: 'ok',
      value: {
        providerJobId: '5b4a2d1e-7c3f-4e8a-9b6d-0a1b2c3d4e5f',
        state: 'succeeded',
        rawState: 'SUCCEEDED',
        createdAt: '2025-07-27T13:05:15.212Z',
        finishedAt: '2025-07-27T13:07:02.004Z',
        media: [{ type: 'video', url: 'https://dashscope-result.example.com/video/5b4a2d1e.mp4', durationSeconds: 5 }],
        usage: { videoSeconds: 5 },
      },
    });
  });

  it('surfaces a task failure given only in output.code on HTTP 200', async () => {
    const { result } = await getWith('5b4a2d1e-7c3f-4e8a-9b6d-0a1b2c3d4e5f', [{ body: file('constructed__get-task-failed-output-code.response.body.txt') }]);
    expect(result).toMatchObject({ status: 'ok', value: { state: 'failed', failure: { code: 'content-filtered', retryable: false, providerCode: 'DataInspectionFailed' } } });
    expect(JSON.stringify(result)).not.toContain('inappropriate');
  });

  it.each([
    ['SUSPENDED', 'unknown'],
    ['CANCELED', 'cancelled'],
    ['PENDING', 'queued'],
    ['PAUSED_FOREVER', 'unknown'],
  ])('maps %s to %s', async (status, state) => {
    const { result } = await getWith('t', [{ body: { type: 'json', value: { output: { task_id: 't', task_status: status } } } }]);
    expect(result).toMatchObject({ status: 'ok', value: { state } });
  });

  it.each([
    ['a time in another shape', '{"output":{"task_id":"t","submit_time":"2024-03-01T17:38:24Z"}}'],
    ['an impossible date', '{"output":{"task_id":"t","submit_time":"2024-02-30 10:00:00.000"}}'],
    ['a time as a number', '{"output":{"task_id":"t","end_time":1709285904743}}'],
    ['an http result URL', '{"output":{"task_id":"t","task_status":"SUCCEEDED","results":[{"url":"http://x.example/a.png"}]}}'],
    ['a result with neither url nor code', '{"output":{"task_id":"t","results":[{}]}}'],
    ['metrics over TOTAL', '{"output":{"task_id":"t","task_metrics":{"TOTAL":1,"SUCCEEDED":1,"FAILED":1}}}'],
    ['a negative image count', '{"output":{"task_id":"t"},"usage":{"image_count":-1}}'],
    ['another task than asked', '{"output":{"task_id":"u"}}'],
    ['a numeric task id', '{"output":{"task_id":7}}'],
    ['no output', '{"request_id":"r"}'],
    ['a prototype key', '{"output":{"task_id":"t","__proto__":{}}}'],
  ])('fails protocol-violation for %s', async (_name, text) => {
    const { result } = await getWith('t', [{ body: { type: 'text', text } }]);
    expect(result).toEqual({ status: 'failed', failure: { code: 'protocol-violation', retryable: false } });
  });

  it('maps a request-level error body on HTTP 200 and on HTTP 4xx to failures', async () => {
    const inBody = await getWith('t', [{ body: { type: 'json', value: { code: 'InvalidApiKey', message: 'no' } } }]);
    expect(inBody.result).toEqual({ status: 'failed', failure: { code: 'authentication', retryable: false, providerCode: 'InvalidApiKey' } });
    const inStatus = await getWith('t', [{ status: 401, body: { type: 'json', value: { code: 'InvalidApiKey', message: 'no' } } }]);
    expect(inStatus.result).toEqual(inBody.result);
  });
});

async function listWith(list: ProviderAsyncJobListInputV2, responses: FixtureResponseV1[]) {
  const transport = createFixtureTransportV1({ responses });
  const result = await adapter().list?.({ target, list, transport, signal: new AbortController().signal });
  return { result, transport };
}

describe('dashscope-tasks list', () => {
  it('reads the recorded list: status not task_status, epoch-ms times, exact total', async () => {
    const { result, transport } = await listWith({ pageNum: 1, pageSize: 10 }, [{ body: recorded('list-task-nosse') }]);
    expect(transport.requests).toEqual([
      { method: 'GET', path: '/api/v1/tasks', query: { page_no: '1', page_size: '10', model_name: 'wanx-v1' }, headers: { accept: 'application/json' }, body: { type: 'none' } },
    ]);
    const page = result?.status === 'ok' ? result.value : undefined;
    expect(providerAsyncJobListPageV2Schema.parse(page)).toEqual(page);
    expect(page).toEqual({
      items: [{ providerJobId: '6075262c-b56d-4968-9abf-2a9784a90f3e', state: 'succeeded', rawState: 'SUCCEEDED', createdAt: '2024-03-01T02:38:04.485Z', finishedAt: '2024-03-01T02:38:05.184Z' }],
      total: 1,
      totalKind: 'exact',
      pagesForWindow: 1,
    });
  });

  it('sends the window widened to whole seconds in UTC+8 and applies the exact window to gmt_create', async () => {
    const { result, transport } = await listWith({ pageNum: 1, pageSize: 10, createdAfter: '2024-03-01T02:38:04.500Z', createdBefore: '2024-03-01T03:00:00.250Z' }, [
      { body: recorded('list-task-nosse') },
    ]);
    expect(transport.requests[0]?.query).toEqual({ page_no: '1', page_size: '10', model_name: 'wanx-v1', start_time: '20240301103804', end_time: '20240301110001' });
    expect(result).toEqual({ status: 'ok', value: { items: [], total: 0, totalKind: 'lower-bound', pagesForWindow: 1 } });
  });

  it('tolerates missing times and a missing total (lower bound)', async () => {
    const { result } = await listWith({ pageNum: 2, pageSize: 3 }, [{ body: { type: 'json', value: { data: [{ task_id: 'a', status: 'PENDING', start_time: null }] } } }]);
    expect(result).toEqual({ status: 'ok', value: { items: [{ providerJobId: 'a', state: 'queued', rawState: 'PENDING' }], total: 4, totalKind: 'lower-bound' } });
  });

  it.each([
    ['more items than the page size', { data: [{ task_id: 'a' }, { task_id: 'b' }] }],
    ['a time as a string', { data: [{ task_id: 'a', gmt_create: '1709260684485' }] }],
    ['a negative time', { data: [{ task_id: 'a', end_time: -5 }] }],
    ['data that is not an array', { data: {} }],
    ['a negative total', { total: -1, data: [] }],
  ])('fails protocol-violation for %s', async (_name, value) => {
    const { result } = await listWith({ pageNum: 1, pageSize: 1 }, [{ body: { type: 'json', value } }]);
    expect(result).toEqual({ status: 'failed', failure: { code: 'protocol-violation', retryable: false } });
  });
});

describe('dashscope-tasks cancel', () => {
  async function cancelWith(responses: FixtureResponseV1[]) {
    const transport = createFixtureTransportV1({ responses });
    const result = await adapter().cancel?.({ target, providerJobId: TASK_ID, transport, signal: new AbortController().signal });
    return { result, transport };
  }

  it('posts to /cancel without a body; a 2xx without a code is cancelled', async () => {
    const { result, transport } = await cancelWith([{ body: { type: 'json', value: { request_id: 'r' } } }]);
    expect(result).toEqual({ status: 'ok', value: null });
    expect(transport.requests).toEqual([{ method: 'POST', path: `/api/v1/tasks/${TASK_ID}/cancel`, headers: { accept: 'application/json' }, body: { type: 'none' } }]);
  });

  it('the recorded 400 UnsupportedOperation (task not PENDING) is a conflict failure', async () => {
    const { result } = await cancelWith([{ status: 400, body: recorded('cancel-completed-task-nosse') }]);
    expect(result).toEqual({ status: 'failed', failure: { code: 'conflict', retryable: false, providerCode: 'UnsupportedOperation' } });
  });

  it('a 2xx body carrying a code is not a cancellation', async () => {
    const { result } = await cancelWith([{ body: { type: 'json', value: { code: 'UnsupportedOperation' } } }]);
    expect(result).toMatchObject({ status: 'failed', failure: { code: 'conflict' } });
  });
});
