import { describe, expect, it } from 'vitest';
import { orderTargets, type BalanceCandidate } from './order-targets.js';

function candidate(target: string, facts: Partial<Omit<BalanceCandidate<string>, 'target'>> = {}): BalanceCandidate<string> {
  return { target, tier: 0, weight: 1, inFlight: 0, latencyEwmaMs: undefined, admitted: true, ...facts };
}

describe('orderTargets', () => {
  it('keeps catalogue order by default (one tier, ordered)', () => {
    expect(orderTargets([candidate('a'), candidate('b'), candidate('c')], 'ordered')).toEqual(['a', 'b', 'c']);
  });

  it('tries lower tiers first and balances only within a tier', () => {
    const candidates = [candidate('backup', { tier: 1, inFlight: 0 }), candidate('busy', { inFlight: 5 }), candidate('idle', { inFlight: 1 })];
    expect(orderTargets(candidates, 'least-in-flight')).toEqual(['idle', 'busy', 'backup']);
  });

  it('puts targets that are not admitted (cooling down) last, in the same order', () => {
    const candidates = [candidate('dead', { admitted: false }), candidate('b'), candidate('backup', { tier: 1 })];
    expect(orderTargets(candidates, 'ordered')).toEqual(['b', 'backup', 'dead']);
  });

  it('latency: unmeasured first, then lowest moving average', () => {
    const candidates = [candidate('slow', { latencyEwmaMs: 900 }), candidate('fast', { latencyEwmaMs: 20 }), candidate('new')];
    expect(orderTargets(candidates, 'latency')).toEqual(['new', 'fast', 'slow']);
  });

  it('weighted: draws in proportion to weight (a 3:1 split over a fixed sequence of draws)', () => {
    const candidates = [candidate('heavy', { weight: 3 }), candidate('light', { weight: 1 })];
    const firsts = Array.from({ length: 100 }, (_, index) => orderTargets(candidates, 'weighted', () => index / 100)[0]);
    expect(firsts.filter((first) => first === 'heavy')).toHaveLength(75);
    expect(orderTargets(candidates, 'weighted', () => 0.9)).toEqual(['light', 'heavy']);
  });
});
