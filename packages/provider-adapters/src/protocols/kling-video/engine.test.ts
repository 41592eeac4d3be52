import { readFileSync } from 'node:fs';
import type { ProviderDispatchTargetV2, TaskEnvelopeV2 } from '@tokenforge/model-protocol';
import { createProtocolEngineTargetBindingV1, createProtocolEngineV1, isProtocolEngineErrorV1 } from '@tokenforge/protocol-engine';
import { describe, expect, it } from 'vitest';
import { createTokenForgeProtocolSuiteV1 } from '../../suite/create-protocol-suite-v1.js';
import { createFixtureTransportV1, type FixtureResponseBodyV1, type FixtureResponseV1 } from '../../testing/fixture-transport.js';
import { createKlingVideoSuiteEntryV1 } from './suite-entry.js';

const fixture = (name: string): FixtureResponseBodyV1 => ({ type: 'text', text: readFileSync(new URL(`./__fixtures__/${name}`, import.meta.url), 'utf8') });

const suite = createTokenForgeProtocolSuiteV1({ entries: [createKlingVideoSuiteEntryV1({ now: () => 0 })] });
const engine = createProtocolEngineV1({ registry: suite.registry });
const target: ProviderDispatchTargetV2 = {
  provider: 'engine-test',
  providerModel: 'kling-v2-master',
  connectionRef: 'kling-connection',
  capability: { protocolFamily: 'kling-video/v1', executionMode: 'async-job', taskKinds: ['video-generation'], callbackUrl: true },
};
const task: TaskEnvelopeV2 = { kind: 'video-generation', prompt: 'a red fox in snow', idempotencyKey: 'order-42' };

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

const signal = new AbortController().signal;

describe('kling-video/v1 through the engine', () => {
  it('execute → accepted-job, then jobs.get and jobs.list on the same binding', async () => {
    const { binding, transport } = bind([
      { body: fixture('constructed__create-text2video-submitted.json') },
      { body: fixture('constructed__get-text2video-succeed.json') },
      { body: fixture('constructed__list-text2video.json') },
      { body: fixture('constructed__list-image2video-empty.json') },
    ]);
    const execution = await engine.execute({ binding, task, signal, providerCallbackUrl: 'https://host.example/cb' });
    expect(execution).toMatchObject({ kind: 'accepted-job', acceptance: { state: 'accepted' }, providerJobId: 'text2video:866889456698785798' });
    const providerJobId = execution.kind === 'accepted-job' ? execution.providerJobId : '';
    const observation = await engine.jobs.get({ binding, providerJobId, signal });
    expect(observation.snapshot).toMatchObject({ state: 'succeeded', idempotencyKey: 'order-42', usage: { videoSeconds: 5 } });
    const page = await engine.jobs.list({ binding, pageNum: 1, pageSize: 6, createdAfter: '2024-08-04T00:00:00.000Z', signal });
    expect(page).toMatchObject({ items: [{ providerJobId, idempotencyKey: 'order-42' }], total: 1, totalKind: 'lower-bound', pagesForWindow: 1 });
    expect(transport.requests.map((request) => `${request.method} ${request.path}`)).toEqual([
      'POST /v1/videos/text2video',
      'GET /v1/videos/text2video/866889456698785798',
      'GET /v1/videos/text2video',
      'GET /v1/videos/image2video',
    ]);
  });

  it.each([
    ['before-send failure', { failure: { stage: 'before-send', reason: 'connect-failed' } }, 'not-accepted', 'network', true],
    ['after-send failure', { failure: { stage: 'after-send', reason: 'connection-lost' } }, 'unknown', 'network', false],
    ['code 1201 refusal in HTTP 200', { body: fixture('constructed__error-1201-http200.json') }, 'not-accepted', 'invalid-request', false],
    ['429 with code 1302', { status: 429, body: fixture('constructed__error-1302-http429.json') }, 'not-accepted', 'rate-limited', true],
    ['500 with code 5000', { status: 500, body: fixture('constructed__error-5000-http500.json') }, 'unknown', 'provider-error', false],
    ['numeric task id', { body: fixture('constructed__create-numeric-task-id.txt') }, 'unknown', 'protocol-violation', false],
    ['unreadable 2xx body', { body: { type: 'text', text: '{"code":0,' } }, 'unknown', 'protocol-violation', false],
  ] satisfies [string, FixtureResponseV1, string, string, boolean][])('execute → rejected: %s', async (_name, response, acceptance, failureCode, retryable) => {
    const { binding } = bind([response]);
    const execution = await engine.execute({ binding, task, signal });
    expect(execution).toMatchObject({ kind: 'rejected', acceptance: { state: acceptance }, failureCode, retryable });
  });

  it('execute → rejected not-accepted for a task Kling cannot express, with nothing sent', async () => {
    const { binding, transport } = bind([]);
    const execution = await engine.execute({ binding, task: { kind: 'video-generation', prompt: 'p', seed: 3 }, signal });
    expect(execution).toMatchObject({ kind: 'rejected', acceptance: { state: 'not-accepted' }, failureCode: 'unsupported', retryable: false });
    expect(transport.requests).toEqual([]);
  });

  it('jobs.cancel is refused with CAPABILITY_UNSUPPORTED before any transport is bound', async () => {
    const { binding, binds, transport } = bind([]);
    const error = await engine.jobs.cancel({ binding, providerJobId: 'text2video:866889456698785798', signal }).catch((caught: unknown) => caught);
    expect(isProtocolEngineErrorV1(error) && error.code).toBe('PROTOCOL_ENGINE_CAPABILITY_UNSUPPORTED');
    expect(binds()).toBe(0);
    expect(transport.requests).toEqual([]);
  });

  it('a provider failure of jobs.get is PROVIDER_FAILED; a transport failure is TRANSPORT_FAILED', async () => {
    const { binding } = bind([
      { status: 404, body: { type: 'json', value: { code: 1203, message: 'no such task' } } },
      { failure: { stage: 'after-send', reason: 'timeout' } },
    ]);
    const providerFailure = await engine.jobs.get({ binding, providerJobId: 'text2video:1', signal }).catch((caught: unknown) => caught);
    expect(isProtocolEngineErrorV1(providerFailure) && providerFailure.code).toBe('PROTOCOL_ENGINE_PROVIDER_FAILED');
    const transportFailure = await engine.jobs.get({ binding, providerJobId: 'text2video:1', signal }).catch((caught: unknown) => caught);
    expect(isProtocolEngineErrorV1(transportFailure) && transportFailure.code).toBe('PROTOCOL_ENGINE_TRANSPORT_FAILED');
  });

  it('an unknown start is reconciled through list by the echoed idempotency key, not by creating again', async () => {
    const { binding, transport } = bind([
      { failure: { stage: 'after-send', reason: 'timeout' } },
      { body: fixture('constructed__list-text2video.json') },
      { body: fixture('constructed__list-image2video-empty.json') },
    ]);
    const execution = await engine.execute({ binding, task, signal });
    expect(execution).toMatchObject({ kind: 'rejected', acceptance: { state: 'unknown' }, failureCode: 'timeout', retryable: false });
    const page = await engine.jobs.list({ binding, pageNum: 1, pageSize: 10, signal });
    expect(page.items.filter((item) => item.idempotencyKey === task.idempotencyKey).map((item) => item.providerJobId)).toEqual(['text2video:866889456698785798']);
    expect(transport.requests.filter((request) => request.method === 'POST')).toHaveLength(1);
  });

  it('a host abort while the create is in flight ends as an unknown start, not a throw', async () => {
    const controller = new AbortController();
    const { binding } = bind([{ delayMs: 1_000, body: fixture('constructed__create-text2video-submitted.json') }]);
    const pending = engine.execute({ binding, task, signal: controller.signal });
    setTimeout(() => controller.abort(new Error('host gave up')), 10);
    // The request had left: the job may exist, so the start is unknown (not an abort error a host might retry after).
    expect(await pending).toMatchObject({ kind: 'rejected', acceptance: { state: 'unknown' }, failureCode: 'network', retryable: false });
  });
});
