import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SlidingWindowLog } from './sliding-window-log.js';

describe('SlidingWindowLog', () => {
  it('counts an entry while now < atMs + window, and says when a need fits', () => {
    const log = new SlidingWindowLog(1000);
    log.add(0, 3);
    log.add(400, 5);
    expect(log.total(999)).toBe(8);
    expect(log.waitFor(4, 10, 999)).toBe(1);
    expect(log.waitFor(11, 10, 999)).toBeUndefined();
    expect(log.total(1000)).toBe(5);
    expect(log.resetMs(1000)).toBe(400);
    expect(log.total(1400)).toBe(0);
    expect(log.resetMs(1400)).toBe(0);
  });

  it('agrees with a naive recount for any adds, corrections and clock steps, across compactions (property)', () => {
    const step = fc.oneof(
      fc.record({ kind: fc.constant('add' as const), amount: fc.integer({ min: 0, max: 50 }), advance: fc.integer({ min: 0, max: 300 }) }),
      fc.record({ kind: fc.constant('correct' as const), pick: fc.nat(), amount: fc.integer({ min: 0, max: 50 }), advance: fc.integer({ min: 0, max: 300 }) }),
    );
    fc.assert(
      fc.property(fc.array(step, { minLength: 100, maxLength: 300, size: 'max' }), fc.integer({ min: 1, max: 200 }), (steps, limit) => {
        const log = new SlidingWindowLog(1000);
        const naive: { atMs: number; amount: number; sequence: number }[] = [];
        let now = 0;
        for (const action of steps) {
          now += action.advance;
          if (action.kind === 'add') {
            naive.push({ atMs: now, amount: action.amount, sequence: log.add(now, action.amount) });
          } else if (naive.length > 0) {
            const entry = naive[action.pick % naive.length];
            if (entry === undefined) continue;
            log.correct(entry.sequence, action.amount);
            if (entry.atMs + 1000 > now) entry.amount = action.amount;
          }
          const live = naive.filter((entry) => entry.atMs + 1000 > now);
          const expected = live.reduce((sum, entry) => sum + entry.amount, 0);
          expect(log.total(now)).toBe(expected);
          const wait = log.waitFor(10, limit, now);
          if (expected + 10 <= limit) expect(wait).toBe(0);
          else if (10 > limit) expect(wait).toBeUndefined();
          else {
            const freedAt = now + (wait ?? 0);
            const stillHeld = live.filter((entry) => entry.atMs + 1000 > freedAt).reduce((sum, entry) => sum + entry.amount, 0);
            expect(stillHeld + 10).toBeLessThanOrEqual(limit);
          }
        }
      }),
      { numRuns: 300 },
    );
  });
});
