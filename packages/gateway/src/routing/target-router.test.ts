import { describe, expect, it } from 'vitest';
import { describeTargets } from '../operations/describe-targets.js';
import type { RuntimeTarget } from '../runtime/resolve-catalogue.js';
import { TargetRouter } from './target-router.js';

const cooldown = { failures: 1, windowMs: 1_000, cooldownMs: 5_000, classes: new Set(['network']) };
const target = (ref: string, tier = 0): RuntimeTarget => ({ ref, provider: 'p', routing: { model: 'm', tier, weight: 1, cooldown } }) as unknown as RuntimeTarget;

describe('TargetRouter', () => {
  it('orders by tier, skips a cooled-down target until its probe, and reports each target for the admin API', () => {
    let now = 0;
    const [first, second] = [target('m#0'), target('m#1')];
    const router = new TargetRouter([first, second], () => now);
    expect(router.order(undefined, [first, second])).toEqual([first, second]);
    router.begin(first)({ kind: 'failure', code: 'network' });
    expect(router.order(undefined, [first, second])).toEqual([second, first]);
    const report = describeTargets(router, () => new Date(0));
    expect(report.instance).toMatch(/:\d+$/);
    expect(report.targets).toEqual([
      { ref: 'm#0', provider: 'p', model: 'm', state: 'cooling-down', recentFailures: 0, cooldownRemainingMs: 5_000, inFlight: 0, recent: { attempts: 1, errorRate: 1 } },
      { ref: 'm#1', provider: 'p', model: 'm', state: 'healthy', recentFailures: 0, cooldownRemainingMs: 0, inFlight: 0, recent: { attempts: 0, errorRate: 0 } },
    ]);
    now = 5_000;
    expect(router.order(undefined, [first, second])).toEqual([first, second]);
  });

  it('a streamed answer counts its latency at the head and stays in flight until the stream ends', () => {
    let now = 0;
    const streamed = target('m#0');
    const router = new TargetRouter([streamed], () => now);
    const settle = router.begin(streamed);
    now = 40;
    const ended = settle({ kind: 'answer', streaming: true });
    now = 5_000;
    expect(router.snapshot()[0]).toMatchObject({ inFlight: 1, latencyEwmaMs: 40, recent: { attempts: 1, errorRate: 0, latencyP50Ms: 40 } });
    ended();
    ended();
    expect(router.snapshot()[0]).toMatchObject({ inFlight: 0 });
  });

  it('adopting a reloaded catalogue keeps the state of targets it still has and forgets the others', () => {
    const [kept, dropped] = [target('m#0'), target('m#1')];
    const router = new TargetRouter([kept, dropped], () => 0);
    router.begin(kept)({ kind: 'failure', code: 'network' });
    const added = target('m#2');
    router.adopt([kept, added]);
    expect(router.snapshot().map((snapshot) => [snapshot.ref, snapshot.state])).toEqual([
      ['m#0', 'cooling-down'],
      ['m#2', 'healthy'],
    ]);
  });
});
