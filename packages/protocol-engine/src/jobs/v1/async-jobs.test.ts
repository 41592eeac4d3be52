import {
  ProviderTransportFailureV1,
  type AsyncJobOperationV1,
  type ProviderAsyncJobAdapterV1,
  type ProviderAsyncJobSnapshotV2,
} from '@tokenforge/model-protocol';
import { describe, expect, it } from 'vitest';
import { createProtocolEngineV1 } from '../../engine/v1/create-protocol-engine-v1.js';
import { isProtocolEngineErrorV1 } from '../../error/v1/protocol-engine-error-v1.js';
import {
  asyncCapability,
  asyncFactory,
  chatCapability,
  countingBinding,
  makeTarget,
  newSignal,
  registryOf,
  videoTask,
} from '../../test-support/fakes.js';

const snapshot = (providerJobId = 'job-1', extra: Partial<ProviderAsyncJobSnapshotV2> = {}): ProviderAsyncJobSnapshotV2 => ({
  providerJobId,
  state: 'succeeded',
  createdAt: '2026-01-01T00:00:10.000Z',
  media: [{ type: 'video', url: 'https://cdn.example/v.mp4', durationSeconds: 5 }],
  ...extra,
});

function setup(
  adapter: Partial<ProviderAsyncJobAdapterV1>,
  operations: readonly AsyncJobOperationV1[] = (['get', 'list', 'cancel'] as const).filter((operation) => operation in adapter),
) {
  const full: ProviderAsyncJobAdapterV1 = {
    start: async () => ({ acceptance: { state: 'accepted' }, responseMetadata: { providerRequestId: 'r-1' }, providerJobId: 'job-1' }),
    ...adapter,
  };
  const engine = createProtocolEngineV1({ registry: registryOf([], [asyncFactory(full, operations)]) });
  const bound = countingBinding(makeTarget(asyncCapability()));
  return { engine, ...bound };
}

async function codeOf(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (error) {
    return isProtocolEngineErrorV1(error) ? error.code : `foreign: ${String(error)}`;
  }
  return 'resolved';
}

describe('async start', () => {
  it('returns accepted-job with the provider job id', async () => {
    const { engine, binding } = setup({});
    expect(await engine.execute({ binding, task: videoTask(), signal: newSignal() })).toEqual({
      apiVersion: 'tokenforge-protocol-engine/v1',
      kind: 'accepted-job',
      acceptance: { state: 'accepted' },
      responseMetadata: { providerRequestId: 'r-1' },
      providerJobId: 'job-1',
    });
  });

  it('returns rejected with the failure code, and never retryable when acceptance is unknown', async () => {
    for (const [state, retryable, expected] of [
      ['not-accepted', true, true],
      ['not-accepted', false, false],
      ['unknown', true, false],
    ] as const) {
      const { engine, binding } = setup({
        start: async () => ({ acceptance: { state }, responseMetadata: {}, failure: { code: 'overloaded', retryable } }),
      });
      expect(await engine.execute({ binding, task: videoTask(), signal: newSignal() })).toEqual({
        apiVersion: 'tokenforge-protocol-engine/v1',
        kind: 'rejected',
        acceptance: { state },
        responseMetadata: {},
        failureCode: 'overloaded',
        retryable: expected,
      });
    }
  });

  it('refuses malformed start outcomes', async () => {
    const outcomes: unknown[] = [
      null,
      { acceptance: { state: 'accepted' }, responseMetadata: {} },
      { acceptance: { state: 'accepted' }, responseMetadata: {}, providerJobId: 'job 1' },
      { acceptance: { state: 'accepted' }, responseMetadata: {}, providerJobId: 'job-1', raw: {} },
      { acceptance: { state: 'unknown' }, responseMetadata: {}, failure: { code: 'teapot', retryable: false } },
      { acceptance: { state: 'unknown' }, responseMetadata: {}, failure: { code: 'overloaded', retryable: false }, providerJobId: 'x' },
    ];
    for (const outcome of outcomes) {
      const { engine, binding } = setup({ start: async () => outcome as never });
      expect(await codeOf(engine.execute({ binding, task: videoTask(), signal: newSignal() }))).toBe('PROTOCOL_ENGINE_ADAPTER_OUTPUT_INVALID');
    }
  });

  it('maps a thrown transport failure and other throws', async () => {
    const transport = setup({
      start: async () => {
        throw new ProviderTransportFailureV1('after-send', 'timeout');
      },
    });
    expect(await codeOf(transport.engine.execute({ binding: transport.binding, task: videoTask(), signal: newSignal() }))).toBe(
      'PROTOCOL_ENGINE_TRANSPORT_FAILED',
    );
    const defect = setup({
      start: async () => {
        throw new Error('bug');
      },
    });
    expect(await codeOf(defect.engine.execute({ binding: defect.binding, task: videoTask(), signal: newSignal() }))).toBe(
      'PROTOCOL_ENGINE_ADAPTER_FAILED',
    );
  });
});

describe('engine.jobs', () => {
  it('get returns the validated snapshot', async () => {
    const { engine, binding } = setup({ get: async ({ providerJobId }) => ({ status: 'ok', value: snapshot(providerJobId) }) });
    const observation = await engine.jobs.get({ binding, providerJobId: 'job-1', signal: newSignal() });
    expect(observation).toEqual({ apiVersion: 'tokenforge-protocol-engine/v1', snapshot: snapshot() });
    expect(Object.isFrozen(observation.snapshot)).toBe(true);
  });

  it('list returns items, total, totalKind and pagesForWindow from the page', async () => {
    let received: unknown;
    const { engine, binding } = setup({
      list: async ({ list }) => {
        received = list;
        return { status: 'ok', value: { items: [snapshot()], total: 7, totalKind: 'exact', pagesForWindow: 4 } };
      },
    });
    const page = await engine.jobs.list({
      binding,
      pageNum: 1,
      pageSize: 2,
      createdAfter: '2026-01-01T00:00:00Z',
      createdBefore: '2026-01-02T00:00:00Z',
      signal: newSignal(),
    });
    expect(page).toEqual({ apiVersion: 'tokenforge-protocol-engine/v1', items: [snapshot()], total: 7, totalKind: 'exact', pagesForWindow: 4 });
    expect(received).toEqual({ pageNum: 1, pageSize: 2, createdAfter: '2026-01-01T00:00:00Z', createdBefore: '2026-01-02T00:00:00Z' });
  });

  it('cancel resolves with the api version only', async () => {
    const { engine, binding } = setup({ cancel: async () => ({ status: 'ok', value: null }) });
    expect(await engine.jobs.cancel({ binding, providerJobId: 'job-1', signal: newSignal() })).toEqual({ apiVersion: 'tokenforge-protocol-engine/v1' });
  });

  it('refuses an undeclared operation with CAPABILITY_UNSUPPORTED before the transport is bound', async () => {
    const { engine, binding, calls } = setup({ get: async () => ({ status: 'ok', value: snapshot() }) }, ['get']);
    expect(await codeOf(engine.jobs.list({ binding, pageNum: 1, pageSize: 10, signal: newSignal() }))).toBe('PROTOCOL_ENGINE_CAPABILITY_UNSUPPORTED');
    expect(await codeOf(engine.jobs.cancel({ binding, providerJobId: 'job-1', signal: newSignal() }))).toBe('PROTOCOL_ENGINE_CAPABILITY_UNSUPPORTED');
    expect(calls.count).toBe(0);
  });

  it('refuses job operations on a non-async target or an undeclared family before binding', async () => {
    const { engine } = setup({ get: async () => ({ status: 'ok', value: snapshot() }) });
    const sync = countingBinding(makeTarget(chatCapability()));
    expect(await codeOf(engine.jobs.get({ binding: sync.binding, providerJobId: 'job-1', signal: newSignal() }))).toBe('PROTOCOL_ENGINE_PROTOCOL_UNDECLARED');
    const syncDeclared = countingBinding(makeTarget(asyncCapability({ executionMode: 'sync' })));
    expect(await codeOf(engine.jobs.get({ binding: syncDeclared.binding, providerJobId: 'job-1', signal: newSignal() }))).toBe(
      'PROTOCOL_ENGINE_CAPABILITY_UNSUPPORTED',
    );
    expect(sync.calls.count + syncDeclared.calls.count).toBe(0);
  });

  it('refuses malformed job inputs', async () => {
    const { engine, binding, calls } = setup({ get: async () => ({ status: 'ok', value: snapshot() }), list: async () => ({ status: 'failed', failure: { code: 'timeout', retryable: true } }) });
    expect(await codeOf(engine.jobs.get({ binding, providerJobId: '', signal: newSignal() }))).toBe('PROTOCOL_ENGINE_INPUT_INVALID');
    expect(await codeOf(engine.jobs.get({ binding, providerJobId: 'job-1' } as never))).toBe('PROTOCOL_ENGINE_INPUT_INVALID');
    expect(await codeOf(engine.jobs.list({ binding, pageNum: 0, pageSize: 10, signal: newSignal() }))).toBe('PROTOCOL_ENGINE_INPUT_INVALID');
    expect(
      await codeOf(
        engine.jobs.list({ binding, pageNum: 1, pageSize: 10, createdAfter: '2026-01-02T00:00:00Z', createdBefore: '2026-01-01T00:00:00Z', signal: newSignal() }),
      ),
    ).toBe('PROTOCOL_ENGINE_INPUT_INVALID');
    expect(calls.count).toBe(0);
  });

  it('turns a provider failure into PROVIDER_FAILED with the normalized failure only in cause', async () => {
    const failure = { code: 'not-found', retryable: false, providerCode: 'task_missing' } as const;
    const { engine, binding } = setup({ get: async () => ({ status: 'failed', failure }) });
    const error = await engine.jobs.get({ binding, providerJobId: 'job-1', signal: newSignal() }).catch((caught: unknown) => caught);
    expect(isProtocolEngineErrorV1(error) && [error.code, error.phase]).toEqual(['PROTOCOL_ENGINE_PROVIDER_FAILED', 'adapter']);
    expect((error as Error).cause).toEqual(failure);
    expect(Object.keys(error as object).sort()).toEqual(['apiVersion', 'code', 'phase']);
    expect((error as Error).message).not.toContain('task_missing');
  });

  it('maps thrown transport failures during operations to TRANSPORT_FAILED', async () => {
    const { engine, binding } = setup({
      cancel: async () => {
        throw new ProviderTransportFailureV1('before-send', 'dns-failed');
      },
    });
    expect(await codeOf(engine.jobs.cancel({ binding, providerJobId: 'job-1', signal: newSignal() }))).toBe('PROTOCOL_ENGINE_TRANSPORT_FAILED');
  });

  it('names the stage and reason category of a transport failure in the message, nothing more', async () => {
    const { engine, binding } = setup({
      cancel: async () => {
        throw new ProviderTransportFailureV1('before-send', 'policy-refused', { cause: new Error('refused 127.0.0.1 with key sk-secret') });
      },
    });
    let caught: unknown;
    try {
      await engine.jobs.cancel({ binding, providerJobId: 'job-1', signal: newSignal() });
    } catch (error) {
      caught = error;
    }
    expect((caught as Error).message).toContain('before-send: policy-refused');
    expect((caught as Error).message).not.toContain('127.0.0.1');
    expect((caught as Error).message).not.toContain('sk-secret');
  });

  const invalid: [string, Partial<ProviderAsyncJobAdapterV1>, 'get' | 'list' | 'cancel'][] = [
    ['a snapshot for another job', { get: async () => ({ status: 'ok', value: snapshot('job-2') }) }, 'get'],
    ['a snapshot with an undeclared field', { get: async () => ({ status: 'ok', value: { ...snapshot(), raw: {} } as never }) }, 'get'],
    ['media over http', { get: async () => ({ status: 'ok', value: snapshot('job-1', { media: [{ type: 'video', url: 'http://cdn.example/v.mp4' }] }) }) }, 'get'],
    ['a failure on a job that did not fail', { get: async () => ({ status: 'ok', value: snapshot('job-1', { failure: { code: 'timeout', retryable: true } }) }) }, 'get'],
    ['an unknown result status', { get: async () => ({ status: 'maybe' }) as never }, 'get'],
    ['a result envelope with an undeclared field', { get: async () => ({ status: 'ok', value: snapshot(), extra: 1 }) as never }, 'get'],
    ['a malformed provider failure', { get: async () => ({ status: 'failed', failure: { code: 'teapot', retryable: true } }) as never }, 'get'],
    ['a page larger than the page size', { list: async () => ({ status: 'ok', value: { items: [snapshot(), snapshot('job-2'), snapshot('job-3')], total: 3, totalKind: 'exact' } }) }, 'list'],
    ['a total below the page length', { list: async () => ({ status: 'ok', value: { items: [snapshot()], total: 0, totalKind: 'exact' } }) }, 'list'],
    ['a job outside the window', { list: async () => ({ status: 'ok', value: { items: [snapshot('job-1', { createdAt: '2025-12-31T23:59:59Z' })], total: 1, totalKind: 'lower-bound' } }) }, 'list'],
    ['a page without totalKind', { list: async () => ({ status: 'ok', value: { items: [], total: 0 } }) as never }, 'list'],
    ['a non-null cancel value', { cancel: async () => ({ status: 'ok', value: {} }) as never }, 'cancel'],
  ];
  for (const [name, adapter, operation] of invalid) {
    it(`refuses ${name} with ADAPTER_OUTPUT_INVALID`, async () => {
      const { engine, binding } = setup(adapter);
      const signal = newSignal();
      const promise =
        operation === 'list'
          ? engine.jobs.list({ binding, pageNum: 1, pageSize: 2, createdAfter: '2026-01-01T00:00:00Z', signal })
          : engine.jobs[operation]({ binding, providerJobId: 'job-1', signal });
      expect(await codeOf(promise)).toBe('PROTOCOL_ENGINE_ADAPTER_OUTPUT_INVALID');
    });
  }
});
