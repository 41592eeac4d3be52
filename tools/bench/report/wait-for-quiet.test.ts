import { describe, expect, it } from 'vitest';
import { waitForQuiet } from './wait-for-quiet.js';

function clock(loads: number[]): { load: () => number; sleep: (ms: number) => Promise<void>; slept: number[] } {
  const slept: number[] = [];
  let index = 0;
  return {
    load: () => loads[Math.min(index, loads.length - 1)] as number,
    sleep: (ms) => {
      slept.push(ms);
      index += 1;
      return Promise.resolve();
    },
    slept,
  };
}

describe('waitForQuiet', () => {
  it('does not wait on a quiet machine', async () => {
    const fake = clock([0.4]);
    expect(await waitForQuiet({ ...fake, threshold: 1, maxWaitMs: 60_000, pollMs: 5000 })).toEqual({ waitedMs: 0, loadBefore: 0.4, loadAfter: 0.4, quiet: true });
    expect(fake.slept).toEqual([]);
  });

  it('polls until the load average falls to the threshold', async () => {
    const fake = clock([2.6, 1.9, 1.2, 0.9]);
    expect(await waitForQuiet({ ...fake, threshold: 1, maxWaitMs: 60_000, pollMs: 5000 })).toEqual({ waitedMs: 15_000, loadBefore: 2.6, loadAfter: 0.9, quiet: true });
  });

  it('gives up after the longest wait and says the machine was not quiet', async () => {
    const fake = clock([3]);
    const waited = await waitForQuiet({ ...fake, threshold: 1, maxWaitMs: 12_000, pollMs: 5000 });
    expect(waited).toEqual({ waitedMs: 12_000, loadBefore: 3, loadAfter: 3, quiet: false });
    expect(fake.slept).toEqual([5000, 5000, 2000]);
  });
});
