import { expect, it } from 'vitest';
import { SIGN_IN_FAILURES_ALLOWED, SIGN_IN_WINDOW_MS, SignInThrottle } from './sign-in-throttle.js';

it('lets an address fail 5 times in 10 minutes, then makes it wait until the oldest failure leaves the window', () => {
  const throttle = new SignInThrottle();
  for (let index = 0; index < SIGN_IN_FAILURES_ALLOWED; index += 1) {
    expect(throttle.retryAfterMs('a', 1000 + index)).toBe(0);
    throttle.fail('a', 1000 + index);
  }
  expect(throttle.retryAfterMs('a', 2000)).toBe(1000 + SIGN_IN_WINDOW_MS - 2000);
  expect(throttle.retryAfterMs('b', 2000)).toBe(0);
  expect(throttle.retryAfterMs('a', 999 + SIGN_IN_WINDOW_MS)).toBe(1);
  expect(throttle.retryAfterMs('a', 1000 + SIGN_IN_WINDOW_MS)).toBe(0);
});

it('a success clears the address', () => {
  const throttle = new SignInThrottle();
  for (let index = 0; index < SIGN_IN_FAILURES_ALLOWED; index += 1) throttle.fail('a', 1000);
  expect(throttle.retryAfterMs('a', 1000)).toBeGreaterThan(0);
  throttle.succeed('a');
  expect(throttle.retryAfterMs('a', 1000)).toBe(0);
});
