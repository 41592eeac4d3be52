import { describe, expect, it } from 'vitest';
import { TargetHealth, type CooldownPolicy } from './target-health.js';

const policy: CooldownPolicy = { failures: 3, windowMs: 1_000, cooldownMs: 5_000, classes: new Set(['network', 'overloaded']) };

function failTimes(health: TargetHealth, times: number, at: number, code = 'network'): void {
  for (let index = 0; index < times; index += 1) {
    health.begin();
    health.failed(code, at + index, 1);
  }
}

describe('TargetHealth', () => {
  it('cools down after N counted failures within the window, then admits exactly one probe', () => {
    const health = new TargetHealth(policy);
    failTimes(health, 2, 0);
    expect(health.state(10)).toBe('healthy');
    failTimes(health, 1, 10);
    expect(health.state(11)).toBe('cooling-down');
    expect(health.admits(4_000)).toBe(false);
    expect(health.cooldownRemainingMs(4_000)).toBe(1_010);
    expect(health.state(5_011)).toBe('probing');
    expect(health.admits(5_011)).toBe(true);
    expect(health.admits(5_012)).toBe(false);
  });

  it('a successful probe makes it healthy; a failed one starts another cooldown', () => {
    const healed = new TargetHealth(policy);
    failTimes(healed, 3, 0);
    expect(healed.admits(6_000)).toBe(true);
    healed.begin();
    healed.succeeded(40);
    expect(healed.state(6_001)).toBe('healthy');
    expect(healed.latencyEwmaMs).toBe(40);

    const still = new TargetHealth(policy);
    failTimes(still, 3, 0);
    expect(still.admits(6_000)).toBe(true);
    still.begin();
    still.failed('network', 6_000, 1);
    expect(still.state(6_001)).toBe('cooling-down');
    expect(still.state(11_000)).toBe('probing');
  });

  it('counts only failures of the listed classes and only within the window', () => {
    const health = new TargetHealth(policy);
    failTimes(health, 5, 0, 'invalid-request');
    expect(health.state(10)).toBe('healthy');
    failTimes(health, 2, 0);
    failTimes(health, 1, 2_000);
    expect(health.state(2_001)).toBe('healthy');
    expect(health.recentFailures(2_001)).toBe(1);
  });

  it('a probe claim that never reports back lapses after one cooldown', () => {
    const health = new TargetHealth(policy);
    failTimes(health, 3, 0);
    expect(health.admits(5_100)).toBe(true);
    expect(health.admits(9_000)).toBe(false);
    expect(health.admits(10_200)).toBe(true);
  });

  it('without a policy it never cools down, and keeps in-flight counts and a latency average', () => {
    const health = new TargetHealth(undefined);
    failTimes(health, 10, 0);
    expect(health.state(20)).toBe('healthy');
    health.begin();
    health.begin();
    expect(health.inFlight).toBe(2);
    health.succeeded(100);
    expect(health.inFlight).toBe(1);
    expect(health.latencyEwmaMs).toBeCloseTo(1 + 0.3 * (100 - 1));
  });
});
