import { readFileSync } from 'node:fs';
import type { ProviderDispatchTargetV2, TaskEnvelopeV2 } from '@tokenforge/model-protocol';
import { createProtocolEngineTargetBindingV1, createProtocolEngineV1, isProtocolEngineErrorV1 } from '@tokenforge/protocol-engine';
import { describe, expect, it } from 'vitest';
import { createTokenForgeProtocolSuiteV1 } from '../../suite/create-protocol-suite-v1.js';
import { createFixtureTransportV1, type FixtureResponseBodyV1, type FixtureResponseV1 } from '../../testing/fixture-transport.js';
import { createDashScopeTasksSuiteEntryV1 } from './suite-entry.js';

const file = (name: string): FixtureResponseBodyV1 => ({ type: 'text', text: readFileSync(new URL(`./__fixtures__/${name}`, import.meta.url), 'utf8') });
const recorded = (scenario: string): FixtureResponseBodyV1 => file(`cnblogs-dashscope-sdk__${scenario}.response.body.txt`);

const suite = createTokenForgeProtocolSuiteV1({ entries: [createDashScopeTasksSuiteEntryV1({ now: () => 0 })] });
const engine = createProtocolEngineV1({ registry: suite.registry });
const target: ProviderDispatchTargetV2 = {
  provider: 'engine-test',
  providerModel: 'wanx-v1',
  connectionRef: 'dashscope-connection',
  capability: { protocolFamily: 'dashscope-tasks/v1', executionMode: 'async-job', taskKinds: ['image-generation', 'video-generation'] },
};
const task: TaskEnvelopeV2 = { kind: 'image-generation', prompt: 'a pelican', count: 4 };
const TASK_ID = '9e2b6ef6-285d-4efa-8651-4dbda7d571fa';
const signal = new AbortController().signal;

function bind(responses: FixtureResponseV1[]) {
  const transport = createFixtureTransportV1({ responses });
  let binds = 0;
  const binding = createProtocolEngineTargetBindingV1({
    target,
    bindTransport: () => {
      binds += 1;
      return transport;
    },
  });
  return { transport, binding, binds: () => binds };
}

describe('dashscope-tasks/v1 through the engine (recorded traffic)', () => {
  it('execute → accepted-job, get RUNNING, get SUCCEEDED, list, cancel refused for a finished task', async () => {
    const { binding, transport } = bind([
      { body: recorded('image-synthesis-nosse') },
      { body: recorded('get-task-running-nosse') },
      { body: recorded('get-task-image-synthesis-success-nosse') },
      { body: recorded('list-task-nosse') },
      { status: 400, body: recorded('cancel-completed-task-nosse') },
    ]);
    const execution = await engine.execute({ binding, task, signal });
    expect(execution).toMatchObject({ kind: 'accepted-job', providerJobId: TASK_ID, responseMetadata: { providerRequestId: '33da8e6b-1309-9a44-be83-352165959608' } });
    expect((await engine.jobs.get({ binding, providerJobId: TASK_ID, signal })).snapshot).toMatchObject({ state: 'running', outputCounts: { succeeded: 0, failed: 0 } });
    expect((await engine.jobs.get({ binding, providerJobId: TASK_ID, signal })).snapshot).toMatchObject({ state: 'succeeded', usage: { images: 4 } });
    expect(await engine.jobs.list({ binding, pageNum: 1, pageSize: 10, signal })).toMatchObject({ total: 1, totalKind: 'exact', pagesForWindow: 1 });
    const cancelError = await engine.jobs.cancel({ binding, providerJobId: TASK_ID, signal }).catch((caught: unknown) => caught);
    expect(isProtocolEngineErrorV1(cancelError) && cancelError.code).toBe('PROTOCOL_ENGINE_PROVIDER_FAILED');
    expect(isProtocolEngineErrorV1(cancelError) && cancelError.cause).toEqual({ code: 'conflict', retryable: false, providerCode: 'UnsupportedOperation' });
    expect(transport.requests.map((request) => `${request.method} ${request.path}`)).toEqual([
      'POST /api/v1/services/aigc/text2image/image-synthesis',
      `GET /api/v1/tasks/${TASK_ID}`,
      `GET /api/v1/tasks/${TASK_ID}`,
      'GET /api/v1/tasks',
      `POST /api/v1/tasks/${TASK_ID}/cancel`,
    ]);
  });

  it('jobs.cancel of a pending task resolves', async () => {
    const { binding } = bind([{ body: { type: 'json', value: { request_id: 'r' } } }]);
    await expect(engine.jobs.cancel({ binding, providerJobId: TASK_ID, signal })).resolves.toMatchObject({ apiVersion: 'tokenforge-protocol-engine/v1' });
  });

  it.each([
    ['before-send failure', { failure: { stage: 'before-send', reason: 'connect-failed' } }, 'not-accepted', 'network', true],
    ['after-send timeout', { failure: { stage: 'after-send', reason: 'timeout' } }, 'unknown', 'timeout', false],
    ['429 refusal', { status: 429, body: file('constructed__throttling-429.response.body.txt') }, 'not-accepted', 'rate-limited', true],
    ['500 InternalError', { status: 500, body: file('constructed__internal-error-500.response.body.txt') }, 'unknown', 'provider-error', false],
    ['id-less 2xx', { body: { type: 'json', value: { request_id: 'r' } } }, 'unknown', 'protocol-violation', false],
    ['truncated 2xx', { body: { type: 'text', text: '\uFEFF{"output":{"task_id":"9e' } }, 'unknown', 'protocol-violation', false],
  ] satisfies [string, FixtureResponseV1, string, string, boolean][])('execute → rejected: %s', async (_name, response, acceptance, failureCode, retryable) => {
    const { binding } = bind([response]);
    expect(await engine.execute({ binding, task, signal })).toMatchObject({ kind: 'rejected', acceptance: { state: acceptance }, failureCode, retryable });
  });

  it('execute → rejected not-accepted for a task the dialect cannot express, nothing sent', async () => {
    const { binding, transport } = bind([]);
    expect(await engine.execute({ binding, task: { kind: 'video-generation', prompt: 'p', mode: 'pro' }, signal })).toMatchObject({
      kind: 'rejected',
      acceptance: { state: 'not-accepted' },
      failureCode: 'unsupported',
    });
    expect(transport.requests).toEqual([]);
  });

  it('a transport failure during get is TRANSPORT_FAILED', async () => {
    const { binding } = bind([{ failure: { stage: 'after-send', reason: 'connection-lost' } }]);
    const error = await engine.jobs.get({ binding, providerJobId: TASK_ID, signal }).catch((caught: unknown) => caught);
    expect(isProtocolEngineErrorV1(error) && error.code).toBe('PROTOCOL_ENGINE_TRANSPORT_FAILED');
  });

  it('an unknown start is reconciled by submission window through list (DashScope echoes no key)', async () => {
    const listBody = {
      request_id: 'r-list',
      total: 2,
      total_page: 1,
      page_no: 1,
      page_size: 10,
      data: [
        { task_id: 'before-window', status: 'SUCCEEDED', gmt_create: Date.parse('2024-03-01T09:37:59.999Z') },
        { task_id: 'orphan-task', status: 'PENDING', gmt_create: Date.parse('2024-03-01T09:38:24.900Z') },
      ],
    };
    const { binding, transport } = bind([{ failure: { stage: 'after-send', reason: 'connection-lost' } }, { body: { type: 'json', value: listBody } }]);
    expect(await engine.execute({ binding, task, signal })).toMatchObject({ kind: 'rejected', acceptance: { state: 'unknown' }, retryable: false });
    const page = await engine.jobs.list({ binding, pageNum: 1, pageSize: 10, createdAfter: '2024-03-01T09:38:00.000Z', createdBefore: '2024-03-01T09:39:00.000Z', signal });
    expect(page).toMatchObject({ items: [{ providerJobId: 'orphan-task', state: 'queued' }], total: 1, totalKind: 'lower-bound', pagesForWindow: 1 });
    expect(transport.requests[1]?.query).toEqual({ page_no: '1', page_size: '10', model_name: 'wanx-v1', start_time: '20240301173800', end_time: '20240301173900' });
  });
});
