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
import { createKlingVideoAdapterFactory } from './adapter.js';

const fixture = (name: string): string => readFileSync(new URL(`./__fixtures__/${name}`, import.meta.url), 'utf8');
const json = (name: string): FixtureResponseBodyV1 => ({ type: 'text', text: fixture(name) });

const NOW = Date.UTC(2024, 7, 4, 12, 0, 0);
const target: ProviderAdapterTargetV1 = {
  providerModel: 'kling-v2-master',
  capability: { protocolFamily: 'kling-video/v1', executionMode: 'async-job', taskKinds: ['video-generation'], callbackUrl: true },
};
const textTask: TaskEnvelopeV2 = { kind: 'video-generation', prompt: 'a red fox in snow', idempotencyKey: 'order-42', durationSeconds: 5, aspectRatio: '16:9' };

function adapter(): ProviderAsyncJobAdapterV1 {
  return createKlingVideoAdapterFactory({ now: () => NOW }).createAdapter();
}

async function startWith(responses: FixtureResponseV1[], task: TaskEnvelopeV2 = textTask, callback?: string) {
  const transport = createFixtureTransportV1({ responses });
  const outcome = await adapter().start({
    task,
    target,
    transport,
    signal: new AbortController().signal,
    ...(callback === undefined ? {} : { providerCallbackUrl: callback }),
  });
  return { outcome, transport };
}

describe('kling-video start: the acceptance table', () => {
  it('accepted: code 0 with a string task id, job id names the endpoint; the request carries model, key and callback', async () => {
    const { outcome, transport } = await startWith([{ body: json('constructed__create-text2video-submitted.json') }], textTask, 'https://host.example/kling/cb');
    expect(outcome).toEqual({
      acceptance: { state: 'accepted' },
      responseMetadata: { providerRequestId: 'req-kling-create-0001' },
      providerJobId: 'text2video:866889456698785798',
    });
    expect(transport.requests).toEqual([
      {
        method: 'POST',
        path: '/v1/videos/text2video',
        headers: { accept: 'application/json' },
        body: {
          type: 'json',
          value: {
            model_name: 'kling-v2-master',
            prompt: 'a red fox in snow',
            aspect_ratio: '16:9',
            duration: '5',
            callback_url: 'https://host.example/kling/cb',
            external_task_id: 'order-42',
          },
        },
      },
    ]);
    expect(transport.bodyStates()).toEqual(['finished']);
  });

  it('accepted: a task with an image goes to image2video and a base64 data URL loses its prefix', async () => {
    const body = { type: 'json' as const, value: { code: 0, data: { task_id: '8668894566987857991', task_status: 'submitted' } } };
    const { outcome, transport } = await startWith([{ body }], { kind: 'video-generation', image: 'data:image/png;base64,iVBORw0KGgo=', imageTail: 'https://img.example/last.png', mode: 'pro', guidance: 0.4 });
    expect(outcome).toEqual({ acceptance: { state: 'accepted' }, responseMetadata: {}, providerJobId: 'image2video:8668894566987857991' });
    expect(transport.requests[0]).toMatchObject({
      path: '/v1/videos/image2video',
      body: { type: 'json', value: { model_name: 'kling-v2-master', image: 'iVBORw0KGgo=', image_tail: 'https://img.example/last.png', mode: 'pro', cfg_scale: 0.4 } },
    });
  });

  it('accepted: a body starting with a UTF-8 byte-order mark', async () => {
    const { outcome } = await startWith([{ body: { type: 'text', text: `\uFEFF${fixture('constructed__create-text2video-submitted.json')}` } }]);
    expect(outcome.acceptance.state).toBe('accepted');
  });

  it('not-accepted, nothing sent: a task the dialect cannot express', async () => {
    const { outcome, transport } = await startWith([], { kind: 'video-generation', prompt: 'p', seed: 7 });
    expect(outcome).toEqual({ acceptance: { state: 'not-accepted' }, responseMetadata: {}, failure: { code: 'unsupported', retryable: false } });
    expect(transport.requests).toEqual([]);
  });

  it('not-accepted, retryable: transport failure before send', async () => {
    const { outcome } = await startWith([{ failure: { stage: 'before-send', reason: 'dns-failed' } }]);
    expect(outcome).toEqual({ acceptance: { state: 'not-accepted' }, responseMetadata: {}, failure: { code: 'network', retryable: true } });
  });

  it('not-accepted: a timeout before send is a retryable timeout', async () => {
    const { outcome } = await startWith([{ failure: { stage: 'before-send', reason: 'timeout' } }]);
    expect(outcome).toEqual({ acceptance: { state: 'not-accepted' }, responseMetadata: {}, failure: { code: 'timeout', retryable: true } });
  });

  it.each([
    ['connection lost after send', { failure: { stage: 'after-send', reason: 'connection-lost' } }, 'network'],
    ['timeout after send', { failure: { stage: 'after-send', reason: 'timeout' } }, 'timeout'],
    ['connection lost while reading a 2xx body', { body: json('constructed__create-text2video-submitted.json'), bodyFailure: { afterBytes: 20 } }, 'network'],
  ] satisfies [string, FixtureResponseV1, string][])('unknown, never retryable: %s', async (_name, response, code) => {
    const { outcome } = await startWith([response]);
    expect(outcome).toEqual({ acceptance: { state: 'unknown' }, responseMetadata: {}, failure: { code, retryable: false } });
  });

  it.each([
    ['a 2xx body that is not JSON', { body: { type: 'text', text: '<html>ok</html>' } }],
    ['a truncated 2xx body', { body: { type: 'text', text: fixture('constructed__create-text2video-submitted.json').slice(0, 60) } }],
    ['a 2xx envelope without data', { body: { type: 'json', value: { code: 0, message: 'SUCCEED' } } }],
    ['a 2xx envelope whose task id is a JSON number', { body: json('constructed__create-numeric-task-id.txt') }],
    ['a 2xx envelope whose task id is too long', { body: { type: 'json', value: { code: 0, data: { task_id: '9'.repeat(201) } } } }],
    ['a 2xx envelope whose code is a string', { body: { type: 'json', value: { code: '0', data: { task_id: '1' } } } }],
    ['an empty 2xx body', { body: { type: 'none' } }],
  ] satisfies [string, FixtureResponseV1][])('unknown protocol-violation: %s', async (_name, response) => {
    const { outcome } = await startWith([response]);
    expect(outcome.acceptance.state).toBe('unknown');
    expect(outcome).toMatchObject({ failure: { code: 'protocol-violation', retryable: false } });
  });

  it('unknown protocol-violation: a 2xx body over the size cap', async () => {
    const transport = createFixtureTransportV1({ responses: [{ body: { type: 'text', text: `{"code":0,"pad":"${'x'.repeat(2048)}"}` } }] });
    const outcome = await createKlingVideoAdapterFactory({ maxBodyBytes: 1024 }).createAdapter().start({ task: textTask, target, transport, signal: new AbortController().signal });
    expect(outcome).toEqual({ acceptance: { state: 'unknown' }, responseMetadata: {}, failure: { code: 'protocol-violation', retryable: false } });
    expect(transport.bodyStates()).toEqual(['released']);
  });

  it('not-accepted: code 1201 inside HTTP 200 is a definitive refusal', async () => {
    const { outcome } = await startWith([{ body: json('constructed__error-1201-http200.json') }]);
    expect(outcome).toEqual({
      acceptance: { state: 'not-accepted' },
      responseMetadata: { providerRequestId: 'req-kling-err-0007' },
      failure: { code: 'invalid-request', retryable: false, providerCode: '1201' },
    });
  });

  it('not-accepted, retryable with the hint: HTTP 429 with code 1302 and Retry-After', async () => {
    const { outcome } = await startWith([{ status: 429, headers: { 'retry-after': '3' }, body: json('constructed__error-1302-http429.json') }]);
    expect(outcome).toEqual({
      acceptance: { state: 'not-accepted' },
      responseMetadata: { providerRequestId: 'req-kling-err-0008' },
      failure: { code: 'rate-limited', retryable: true, retryAfterMs: 3000, providerCode: '1302' },
    });
  });

  it.each([
    ['HTTP 500 with code 5000', { status: 500, body: json('constructed__error-5000-http500.json') }, 'provider-error'],
    ['HTTP 200 with code 5001', { body: { type: 'json', value: { code: 5001, message: 'maintenance' } } }, 'overloaded'],
    ['HTTP 502 without a body', { status: 502 }, 'provider-error'],
    ['HTTP 403 with an HTML page instead of a refusal envelope', { status: 403, body: { type: 'text', text: '<html>denied</html>' } }, 'permission-denied'],
    ['HTTP 302', { status: 302 }, 'provider-error'],
  ] satisfies [string, FixtureResponseV1, string][])('unknown, never retryable: %s', async (_name, response, code) => {
    const { outcome } = await startWith([response]);
    expect(outcome.acceptance.state).toBe('unknown');
    expect(outcome).toMatchObject({ failure: { code, retryable: false } });
  });
});

async function getWith(providerJobId: string, responses: FixtureResponseV1[]) {
  const transport = createFixtureTransportV1({ responses });
  const result = await adapter().get?.({ target, providerJobId, transport, signal: new AbortController().signal });
  return { result, transport };
}

describe('kling-video get', () => {
  it('reads a succeeded text2video task on its own endpoint: media, usage, echoed key, UTC times', async () => {
    const { result, transport } = await getWith('text2video:866889456698785798', [{ body: json('constructed__get-text2video-succeed.json') }]);
    expect(transport.requests).toEqual([{ method: 'GET', path: '/v1/videos/text2video/866889456698785798', headers: { accept: 'application/json' }, body: { type: 'none' } }]);
    expect(result).toEqual({
      status: 'ok',
      value: {
        providerJobId: 'text2video:866889456698785798',
        state: 'succeeded',
        rawState: 'succeed',
        createdAt: '2024-08-04T11:05:57.708Z',
        updatedAt: '2024-08-04T11:08:32.345Z',
        finishedAt: '2024-08-04T11:08:32.345Z',
        idempotencyKey: 'order-42',
        media: [{ type: 'video', url: 'https://cdn.example.com/kling/866889456698785798.mp4', durationSeconds: 5 }],
        usage: { videoSeconds: 5 },
      },
    });
    expect(providerAsyncJobSnapshotV2Schema.parse(result?.status === 'ok' ? result.value : undefined)).toBeDefined();
  });

  it('reads an image2video task on the image2video path and keeps its 19-digit id as text', async () => {
    const { result, transport } = await getWith('image2video:8668894566987857991', [{ body: json('constructed__get-image2video-processing.json') }]);
    expect(transport.requests[0]?.path).toBe('/v1/videos/image2video/8668894566987857991');
    expect(result).toEqual({
      status: 'ok',
      value: { providerJobId: 'image2video:8668894566987857991', state: 'running', rawState: 'processing', createdAt: '2024-08-04T11:06:40.000Z', updatedAt: '2024-08-04T11:07:30.000Z' },
    });
  });

  it('reads a failed task without copying its free-text reason', async () => {
    const { result } = await getWith('text2video:866889456698785798', [{ body: json('constructed__get-text2video-failed.json') }]);
    expect(result).toMatchObject({ status: 'ok', value: { state: 'failed', failure: { code: 'provider-error', retryable: false }, finishedAt: '2024-08-04T11:06:40.000Z' } });
    expect(JSON.stringify(result)).not.toContain('content review');
  });

  it.each([
    ['an unknown status', { task_id: '1', task_status: 'paused' }, 'unknown'],
    ['no status', { task_id: '1' }, 'unknown'],
    ['succeed without any video', { task_id: '1', task_status: 'succeed' }, 'unknown'],
    ['submitted', { task_id: '1', task_status: 'submitted' }, 'queued'],
  ])('maps %s', async (_name, data, state) => {
    const { result } = await getWith('text2video:1', [{ body: { type: 'json', value: { code: 0, data } } }]);
    expect(result).toMatchObject({ status: 'ok', value: { state } });
  });

  it.each([
    ['a numeric task id', '{"code":0,"data":{"task_id":1,"task_status":"submitted"}}'],
    ['another task than asked', '{"code":0,"data":{"task_id":"2","task_status":"submitted"}}'],
    ['a negative time', '{"code":0,"data":{"task_id":"1","created_at":-1}}'],
    ['a time past year 9999', '{"code":0,"data":{"task_id":"1","created_at":1e17}}'],
    ['a fractional time', '{"code":0,"data":{"task_id":"1","updated_at":1.5}}'],
    ['a time as a string', '{"code":0,"data":{"task_id":"1","created_at":"1722769557708"}}'],
    ['an http video URL', '{"code":0,"data":{"task_id":"1","task_status":"succeed","task_result":{"videos":[{"url":"http://cdn.example.com/v.mp4"}]}}}'],
    ['a video URL with user information', '{"code":0,"data":{"task_id":"1","task_status":"succeed","task_result":{"videos":[{"url":"https://u:p@cdn.example.com/v.mp4"}]}}}'],
    ['a duration that is not a number', '{"code":0,"data":{"task_id":"1","task_status":"succeed","task_result":{"videos":[{"url":"https://c.example/v.mp4","duration":"five"}]}}}'],
    ['an echoed key this family never sends', '{"code":0,"data":{"task_id":"1","task_info":{"external_task_id":"has space"}}}'],
    ['videos that are not an array', '{"code":0,"data":{"task_id":"1","task_result":{"videos":{}}}}'],
    ['a prototype key', '{"code":0,"data":{"task_id":"1","__proto__":{}}}'],
    ['deep nesting', `{"code":0,"data":${'['.repeat(100)}${']'.repeat(100)}}`],
    ['no data', '{"code":0}'],
  ])('fails protocol-violation for %s', async (_name, text) => {
    const { result, transport } = await getWith('text2video:1', [{ body: { type: 'text', text } }]);
    expect(result).toEqual({ status: 'failed', failure: { code: 'protocol-violation', retryable: false } });
    expect(transport.bodyStates()).toEqual(['finished']);
  });

  it('maps code != 0 inside HTTP 200 and an HTTP 404 envelope the same way', async () => {
    const inBody = await getWith('text2video:1', [{ body: { type: 'json', value: { code: 1203, message: 'not found' } } }]);
    const inStatus = await getWith('text2video:1', [{ status: 404, body: { type: 'json', value: { code: 1203, message: 'not found' } } }]);
    expect(inBody.result).toEqual({ status: 'failed', failure: { code: 'not-found', retryable: false, providerCode: '1203' } });
    expect(inStatus.result).toEqual(inBody.result);
  });

  it('refuses a job id this family never handed out without sending anything', async () => {
    for (const providerJobId of ['866889456698785798', 'omni-video:1', 'text2video:', `text2video:${'1'.repeat(201)}`]) {
      const { result, transport } = await getWith(providerJobId, []);
      expect(result).toEqual({ status: 'failed', failure: { code: 'invalid-request', retryable: false } });
      expect(transport.requests).toEqual([]);
    }
  });

  it('lets a transport failure propagate (the engine reports it)', async () => {
    await expect(getWith('text2video:1', [{ failure: { stage: 'after-send', reason: 'connection-lost' } }])).rejects.toMatchObject({ stage: 'after-send' });
  });
});

async function listWith(list: ProviderAsyncJobListInputV2, responses: FixtureResponseV1[]) {
  const transport = createFixtureTransportV1({ responses });
  const result = await adapter().list?.({ target, list, transport, signal: new AbortController().signal });
  return { result, transport };
}

describe('kling-video list', () => {
  it('lists both endpoints with half the page size each and merges them; total is a lower bound', async () => {
    const { result, transport } = await listWith({ pageNum: 1, pageSize: 5 }, [
      { body: json('constructed__list-text2video.json') },
      { body: json('constructed__list-image2video-empty.json') },
    ]);
    expect(transport.requests).toEqual([
      { method: 'GET', path: '/v1/videos/text2video', query: { pageNum: '1', pageSize: '3' }, headers: { accept: 'application/json' }, body: { type: 'none' } },
      { method: 'GET', path: '/v1/videos/image2video', query: { pageNum: '1', pageSize: '2' }, headers: { accept: 'application/json' }, body: { type: 'none' } },
    ]);
    expect(result?.status).toBe('ok');
    const page = result?.status === 'ok' ? result.value : undefined;
    expect(providerAsyncJobListPageV2Schema.parse(page)).toEqual(page);
    expect(page?.items.map((item) => [item.providerJobId, item.state, item.idempotencyKey])).toEqual([
      ['text2video:866889456698785798', 'succeeded', 'order-42'],
      ['text2video:866889456698785700', 'queued', undefined],
    ]);
    expect(page).toMatchObject({ total: 2, totalKind: 'lower-bound', pagesForWindow: 1 });
  });

  it('counts earlier full pages into the lower bound and leaves pagesForWindow unknown while a slice is full', async () => {
    const { result } = await listWith({ pageNum: 3, pageSize: 4 }, [
      { body: json('constructed__list-text2video.json') },
      { body: json('constructed__list-image2video-empty.json') },
    ]);
    expect(result).toMatchObject({ status: 'ok', value: { total: 6, totalKind: 'lower-bound' } });
    expect(result?.status === 'ok' ? result.value.pagesForWindow : 'absent').toBeUndefined();
  });

  it('applies the creation window Kling cannot filter; the total counts only kept items', async () => {
    const { result } = await listWith({ pageNum: 1, pageSize: 10, createdAfter: '2024-08-04T00:00:00.000Z' }, [
      { body: json('constructed__list-text2video.json') },
      { body: json('constructed__list-image2video-empty.json') },
    ]);
    expect(result).toMatchObject({ status: 'ok', value: { items: [{ providerJobId: 'text2video:866889456698785798' }], total: 1, totalKind: 'lower-bound', pagesForWindow: 1 } });
  });

  it('refuses a page size of 1 and a page past 1000 without sending', async () => {
    for (const list of [{ pageNum: 1, pageSize: 1 }, { pageNum: 1001, pageSize: 10 }]) {
      const { result, transport } = await listWith(list, []);
      expect(result).toEqual({ status: 'failed', failure: { code: 'invalid-request', retryable: false } });
      expect(transport.requests).toEqual([]);
    }
  });

  it('fails protocol-violation for a slice holding more tasks than asked, or data that is not an array', async () => {
    const tooMany = await listWith({ pageNum: 1, pageSize: 2 }, [{ body: json('constructed__list-text2video.json') }, { body: json('constructed__list-image2video-empty.json') }]);
    expect(tooMany.result).toEqual({ status: 'failed', failure: { code: 'protocol-violation', retryable: false } });
    const notArray = await listWith({ pageNum: 1, pageSize: 2 }, [{ body: { type: 'json', value: { code: 0, data: {} } } }]);
    expect(notArray.result).toEqual({ status: 'failed', failure: { code: 'protocol-violation', retryable: false } });
  });

  it('stops at the first failing slice', async () => {
    const { result, transport } = await listWith({ pageNum: 1, pageSize: 4 }, [{ status: 401, body: { type: 'json', value: { code: 1004, message: 'expired' } } }]);
    expect(result).toEqual({ status: 'failed', failure: { code: 'authentication', retryable: true, providerCode: '1004' } });
    expect(transport.requests).toHaveLength(1);
  });
});

describe('kling-video factory', () => {
  it('declares get and list only: Kling has no cancel', () => {
    const factory = createKlingVideoAdapterFactory();
    expect(factory.protocolFamily).toBe('kling-video/v1');
    expect(factory.jobOperations).toEqual(['get', 'list']);
    expect(factory.createAdapter().cancel).toBeUndefined();
  });
});
