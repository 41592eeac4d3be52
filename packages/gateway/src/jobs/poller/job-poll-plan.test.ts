import { describe, expect, it } from 'vitest';
import { DEFAULT_JOB_POLL_PLAN, decideNextPoll, jobPollPlanOf } from './job-poll-plan.js';

const plan = { ...DEFAULT_JOB_POLL_PLAN, firstPollMs: 1000, backoffFactor: 2, ceilingMs: 5000, planMs: 60_000, slowPollMs: 30_000, providerRetentionMs: 120_000 };
const job = (pollAttempts: number) => ({ createdAtMs: 0, pollAttempts, state: 'running' });

describe('decideNextPoll', () => {
  it('answers whole milliseconds when the backoff is fractional (the shared store keeps them in a bigint column)', () => {
    const plan = { ...DEFAULT_JOB_POLL_PLAN, firstPollMs: 1001, backoffFactor: 1.5, ceilingMs: 1_000_000 };
    for (let pollAttempts = 0; pollAttempts < 8; pollAttempts += 1) {
      const decision = decideNextPoll(plan, { createdAtMs: 0, pollAttempts, state: 'running' }, 10_000, 2.5);
      expect(Number.isInteger(decision.nextPollAtMs)).toBe(true);
    }
  });

  it('backs off from the first interval up to the ceiling', () => {
    expect([0, 1, 2, 3, 4].map((attempts) => decideNextPoll(plan, job(attempts), 10_000).nextPollAtMs! - 10_000)).toEqual([1000, 2000, 4000, 5000, 5000]);
  });

  it('waits at least as long as the provider asked', () => {
    expect(decideNextPoll(plan, job(0), 10_000, 7000)).toEqual({ state: 'running', nextPollAtMs: 17_000 });
    expect(decideNextPoll(plan, job(3), 10_000, 100)).toEqual({ state: 'running', nextPollAtMs: 15_000 });
  });

  it('a job past its plan is unknown (never failed) with a slow poll, and is not polled after the provider forgot it', () => {
    expect(decideNextPoll(plan, job(9), 59_999).state).toBe('running');
    expect(decideNextPoll(plan, job(9), 60_000)).toEqual({ state: 'unknown', nextPollAtMs: 90_000 });
    expect(decideNextPoll(plan, job(9), 119_999)).toEqual({ state: 'unknown', nextPollAtMs: 149_999 });
    expect(decideNextPoll(plan, job(9), 120_000)).toEqual({ state: 'unknown' });
  });

  it('takes a family\'s documented retention, then the operator\'s overrides', () => {
    expect(jobPollPlanOf('dashscope-tasks/v1').mediaRetentionMs).toBe(86_400_000);
    expect(jobPollPlanOf('kling-video/v1').providerRetentionMs).toBe(30 * 86_400_000);
    expect(jobPollPlanOf('other-family/v1')).toEqual(DEFAULT_JOB_POLL_PLAN);
    expect(jobPollPlanOf('kling-video/v1', { firstPollMs: 50 }).firstPollMs).toBe(50);
  });
});
