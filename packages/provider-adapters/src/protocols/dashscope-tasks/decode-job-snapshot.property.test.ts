import fc from 'fast-check';
import { providerAsyncJobSnapshotV2Schema } from '@tokenforge/model-protocol';
import { describe, expect, it } from 'vitest';
import { isProtocolViolationError } from '../../codec-kit/index.js';
import { decodeDashScopeJobSnapshot } from './decode-job-snapshot.js';
import { readDashScopeTask } from './wire-readers.js';

const output = fc.record(
  {
    task_id: fc.oneof(fc.uuid(), fc.integer(), fc.constant('')),
    task_status: fc.constantFrom('PENDING', 'RUNNING', 'SUSPENDED', 'SUCCEEDED', 'FAILED', 'CANCELED', 'UNKNOWN', 'NEW', null),
    submit_time: fc.oneof(fc.constant('2024-03-01 17:38:24.817'), fc.constant('2024-02-30 00:00:00'), fc.string(), fc.integer()),
    results: fc.array(fc.oneof(fc.record({ url: fc.constantFrom('https://r.example/a.png', 'http://r.example/a.png', '') }), fc.record({ code: fc.string() }), fc.constant({})), { maxLength: 4 }),
    task_metrics: fc.record({ TOTAL: fc.integer({ min: -1, max: 5 }), SUCCEEDED: fc.integer({ min: 0, max: 5 }), FAILED: fc.integer({ min: 0, max: 5 }) }),
    code: fc.oneof(fc.constantFrom('DataInspectionFailed', 'InternalError', 'has spaces'), fc.integer()),
  },
  { requiredKeys: ['task_id'] },
);

describe('decodeDashScopeJobSnapshot properties', () => {
  it('any task answer either decodes to a valid snapshot or fails as a protocol violation; failures only on failed jobs', () => {
    fc.assert(
      fc.property(output, fc.option(fc.record({ image_count: fc.integer({ min: -1, max: 10 }), video_duration: fc.double({ min: -1, max: 30, noNaN: true }) }), { nil: undefined }), (out, usage) => {
        try {
          const snapshot = decodeDashScopeJobSnapshot(readDashScopeTask({ request_id: 'r', output: out, ...(usage === undefined ? {} : { usage }) }), 0);
          expect(providerAsyncJobSnapshotV2Schema.parse(snapshot)).toEqual(snapshot);
          if (snapshot.failure !== undefined) expect(snapshot.state).toBe('failed');
          for (const media of snapshot.media ?? []) expect(media.url.startsWith('https://')).toBe(true);
        } catch (error) {
          expect(isProtocolViolationError(error)).toBe(true);
        }
      }),
      { numRuns: 500 },
    );
  });
});
