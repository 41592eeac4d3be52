import fc from 'fast-check';
import { providerAsyncJobListPageV2Schema } from '@tokenforge/model-protocol';
import { describe, expect, it } from 'vitest';
import { isProtocolViolationError } from '../../codec-kit/index.js';
import { decodeKlingJobList } from './decode-job-list.js';
import { planKlingJobList } from './plan-job-list.js';
import { readKlingTaskList } from './wire-readers.js';

const wireTask = fc.record(
  {
    task_id: fc.oneof(fc.stringMatching(/^[0-9]{1,19}$/), fc.bigInt({ min: 0n, max: 10n ** 19n }).map(Number), fc.constant('')),
    task_status: fc.constantFrom('submitted', 'processing', 'succeed', 'failed', 'weird', null),
    created_at: fc.oneof(fc.integer({ min: -10, max: 2_000_000_000_000 }), fc.constant('1722769557708'), fc.constant(null)),
    task_result: fc.constantFrom(undefined, { videos: [{ url: 'https://c.example/v.mp4', duration: '5' }] }, { videos: [{ url: 'ftp://x' }] }),
  },
  { requiredKeys: ['task_id'] },
);

describe('decodeKlingJobList properties', () => {
  it('any page either decodes to a valid page whose total bounds its items, or fails as a protocol violation', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 5 }),
        fc.integer({ min: 2, max: 8 }),
        fc.array(wireTask, { maxLength: 5 }),
        fc.array(wireTask, { maxLength: 5 }),
        fc.option(fc.integer({ min: 0, max: 2_000_000_000_000 }), { nil: undefined }),
        (pageNum, pageSize, textTasks, imageTasks, afterMs) => {
          const list = { pageNum, pageSize, ...(afterMs === undefined ? {} : { createdAfter: new Date(afterMs).toISOString() }) };
          const slices = planKlingJobList(list);
          if (slices === undefined) throw new Error('a page size of 2 or more is always expressible');
          expect(slices.reduce((sum, slice) => sum + slice.pageSize, 0)).toBe(pageSize);
          try {
            const page = decodeKlingJobList(
              slices.map((slice, index) => ({ slice, tasks: readKlingTaskList(index === 0 ? textTasks : imageTasks) })),
              list,
            );
            expect(providerAsyncJobListPageV2Schema.parse(page)).toEqual(page);
            expect(page.items.length).toBeLessThanOrEqual(pageSize);
            expect(page.total).toBeGreaterThanOrEqual(page.items.length);
          } catch (error) {
            expect(isProtocolViolationError(error)).toBe(true);
          }
        },
      ),
      { numRuns: 300 },
    );
  });
});
