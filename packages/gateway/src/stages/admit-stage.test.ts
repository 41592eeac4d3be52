import { describe, expect, it } from 'vitest';
import { ConcurrencyLimiter } from '../operations/concurrency-limiter.js';
import { admitStage, GATEWAY_WAIT_MS } from './admit-stage.js';

describe('admitStage', () => {
  it('takes a slot and gives it back once, however often release is called', async () => {
    const limiter = new ConcurrencyLimiter(2);
    const first = await admitStage({ draining: false, limiter });
    const second = await admitStage({ draining: false, limiter });
    expect(limiter.inFlight).toBe(2);
    if (first.kind !== 'continue' || second.kind !== 'continue') throw new Error('not admitted');
    first.value.release();
    first.value.release();
    expect(limiter.inFlight).toBe(1);
    second.value.release();
    expect(limiter.inFlight).toBe(0);
  });

  it('refuses a request over the limit as rate-limited, with the gateway’s wait, and takes nothing', async () => {
    const limiter = new ConcurrencyLimiter(1);
    await admitStage({ draining: false, limiter });
    expect(await admitStage({ draining: false, limiter })).toEqual({
      kind: 'refuse',
      refusal: { kind: 'egress', failure: { source: 'engine', code: 'GATEWAY_CONCURRENCY_LIMIT' }, outcome: 'refused:concurrency', headers: { 'retry-after': String(GATEWAY_WAIT_MS / 1000) } },
    });
    expect(limiter.inFlight).toBe(1);
  });

  it('refuses every request while draining as overloaded, before it looks at the limiter', async () => {
    const limiter = new ConcurrencyLimiter(1);
    expect(await admitStage({ draining: true, limiter })).toEqual({
      kind: 'refuse',
      refusal: { kind: 'egress', failure: { source: 'engine', code: 'GATEWAY_SHUTTING_DOWN' }, outcome: 'refused:draining', headers: { 'retry-after': String(GATEWAY_WAIT_MS / 1000), connection: 'close' } },
    });
    expect(limiter.inFlight).toBe(0);
  });
});
