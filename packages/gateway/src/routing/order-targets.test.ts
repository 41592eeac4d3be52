import fc from 'fast-check';
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

  it('a single candidate is its own order under every balance and fact (the one-target path equals the general one)', () => {
    const balances = ['ordered', 'weighted', 'least-in-flight', 'latency'] as const;
    fc.assert(
      fc.property(
        fc.constantFrom(...balances),
        fc.record({ tier: fc.integer({ min: 0, max: 3 }), weight: fc.integer({ min: 1, max: 10 }), inFlight: fc.nat(5), latencyEwmaMs: fc.option(fc.nat(1000), { nil: undefined }), admitted: fc.boolean() }),
        fc.array(fc.double({ min: 0, max: 0.999, noNaN: true }), { minLength: 1, maxLength: 3 }),
        (balance, facts, draws) => {
          const one = candidate('only', facts);
          let draw = 0;
          expect(orderTargets([one], balance, () => draws[draw++ % draws.length] as number)).toEqual(['only']);
          // The general path over the same candidate beside a target of another tier that is cut off.
          const general = orderTargets([one, candidate('other', { tier: 9, admitted: false })], balance, () => draws[draw++ % draws.length] as number);
          expect(general.filter((target) => target === 'only')).toEqual(['only']);
          expect(general[0]).toBe('only');
        },
      ),
    );
  });
});
