import { PROTOCOL_ENGINE_API_VERSION, type ProtocolEngineTargetBindingV1, type ProtocolEngineV1 } from '@tokenforge/protocol-engine';
import { describe, expect, it } from 'vitest';
import type { ManifestCaseV1 } from '../manifest/certification-manifest-v1.js';
import type { OperationCountsV1 } from '../evidence/certification-evidence-v1.js';
import { isStopSignal, jobIdFingerprintOf, RunStop, runCase, type CaseContext } from './run-case.js';

const asyncCase: ManifestCaseV1 = {
  caseId: 'probe',
  target: { provider: 'p', providerModel: 'm', connectionRef: 'c', capability: { protocolFamily: 'kling-video/v1', executionMode: 'async-job', taskKinds: ['video-generation'] } },
  task: { kind: 'video-generation', prompt: 'a boat', idempotencyKey: 'key-1' },
  connection: { origin: 'https://api.example.com', basePath: '/', credentials: { type: 'api-key', apiKeyEnv: 'KEY' } },
  async: { maxPolls: 3, pollIntervalMs: 0 },
};

function fakeEngine(calls: string[]): ProtocolEngineV1 {
  return {
    apiVersion: PROTOCOL_ENGINE_API_VERSION,
    protocolFamilies: ['kling-video/v1'],
    execute: async () => {
      calls.push('execute');
      return { apiVersion: PROTOCOL_ENGINE_API_VERSION, kind: 'accepted-job', acceptance: { state: 'accepted' }, responseMetadata: {}, providerJobId: 'job-secret-1' };
    },
    jobs: {
      get: async () => {
        calls.push('get');
        return { apiVersion: PROTOCOL_ENGINE_API_VERSION, snapshot: { providerJobId: 'job-secret-1', state: 'running' } };
      },
      list: async () => {
        calls.push('list');
        return { apiVersion: PROTOCOL_ENGINE_API_VERSION, items: [], total: 0 };
      },
      cancel: async () => {
        calls.push('cancel');
        return { apiVersion: PROTOCOL_ENGINE_API_VERSION };
      },
    },
  };
}

function context(calls: string[], beforeOperation: CaseContext['beforeOperation'] = () => {}): CaseContext {
  return {
    engine: fakeEngine(calls),
    binding: {} as ProtocolEngineTargetBindingV1,
    signal: new AbortController().signal,
    tally: { httpRequests: 0, lastFailure: undefined },
    now: () => Date.parse('2026-01-01T00:00:00.000Z'),
    sleep: async () => {},
    beforeOperation,
  };
}

const zero = (): OperationCountsV1 => ({ executionStarts: 0, asyncGetObservations: 0, asyncListObservations: 0 });

describe('runCase (async)', () => {
  it('polls exactly maxPolls times, ends polling-exhausted and never cancels', async () => {
    const calls: string[] = [];
    const operations = zero();
    const result = await runCase(asyncCase, context(calls), operations);
    expect(calls).toEqual(['execute', 'get', 'get', 'get']);
    expect(operations).toEqual({ executionStarts: 1, asyncGetObservations: 3, asyncListObservations: 0 });
    expect(result.outcome).toBe('polling-exhausted');
    expect(result.job).toMatchObject({ acceptance: 'accepted', polls: 3, finalState: 'running', jobIdFingerprint: jobIdFingerprintOf('job-secret-1'), submittedAfter: '2026-01-01T00:00:00.000Z' });
    expect(result.job?.idempotencyKeyFingerprint).toMatch(/^sha256:[0-9a-f]{16}$/);
    expect(JSON.stringify(result)).not.toContain('job-secret-1');
    expect(JSON.stringify(result)).not.toContain('key-1');
  });

  it('lets a request-cap stop through instead of recording it as a case error', async () => {
    const calls: string[] = [];
    let operations = 0;
    const stop = await runCase(
      asyncCase,
      context(calls, () => {
        operations += 1;
        if (operations > 2) throw new RunStop('request-cap');
      }),
      zero(),
    ).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(isStopSignal(stop)).toBe(true);
    expect(calls).toEqual(['execute', 'get']);
  });
});
