import { expect, it } from 'vitest';
import { SignInFailureLog } from './sign-in-failure-log.js';

const POLICY = { failuresAllowed: 5, windowMs: 600_000 };

it('lets an address fail 5 times in the window, then makes it wait until the oldest failure leaves the window', () => {
  const log = new SignInFailureLog();
  for (let index = 0; index < POLICY.failuresAllowed - 1; index += 1) expect(log.fail('a', POLICY, 1000 + index)).toBe(0);
  expect(log.fail('a', POLICY, 1004)).toBe(1000 + POLICY.windowMs - 1004);
  expect(log.retryAfterMs('a', POLICY, 2000)).toBe(1000 + POLICY.windowMs - 2000);
  expect(log.retryAfterMs('b', POLICY, 2000)).toBe(0);
  expect(log.retryAfterMs('a', POLICY, 999 + POLICY.windowMs)).toBe(1);
  expect(log.retryAfterMs('a', POLICY, 1000 + POLICY.windowMs)).toBe(0);
});

it('clearing forgets the address', () => {
  const log = new SignInFailureLog();
  for (let index = 0; index < POLICY.failuresAllowed; index += 1) log.fail('a', POLICY, 1000);
  expect(log.retryAfterMs('a', POLICY, 1000)).toBeGreaterThan(0);
  log.clear('a');
  expect(log.retryAfterMs('a', POLICY, 1000)).toBe(0);
});
