import { describe, expect, it } from 'vitest';
import { caseOrder, measureAlternating } from './measure-alternating.js';

describe('measureAlternating', () => {
  it('reverses the order every other round', () => {
    expect(caseOrder(3, 0)).toEqual([0, 1, 2]);
    expect(caseOrder(3, 1)).toEqual([2, 1, 0]);
  });

  it('runs beforeEachCase right before every timed case, never in warm-up rounds', async () => {
    const events: string[] = [];
    const cases = ['a', 'b'].map((name) => ({ name, operationsPerRound: 2, fn: async (operations: number) => void events.push(`${name}x${operations}`) }));
    const measurements = await measureAlternating(cases, { warmupRounds: 1, rounds: 2, beforeEachCase: () => events.push('gc') });
    expect(events).toEqual(['ax2', 'bx2', 'gc', 'ax2', 'gc', 'bx2', 'gc', 'bx2', 'gc', 'ax2']);
    expect(measurements.map((measurement) => measurement.samples.length)).toEqual([2, 2]);
  });
});
