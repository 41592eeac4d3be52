import type { SignInThrottlePolicyV1 } from '../v1/governance-store-v1.js';

/**
 * The embedded store's failed console sign-ins per client address, in this process's memory (the embedded store
 * serves one process): the times of the failures still inside the policy's window. At most 10 000 addresses are
 * kept; past that, addresses whose failures all left the window are forgotten first.
 */
export class SignInFailureLog {
  readonly #failures = new Map<string, number[]>();

  /** How long `address` must wait before its next attempt (0: it may try now). */
  retryAfterMs(address: string, policy: SignInThrottlePolicyV1, nowMs: number): number {
    const recent = this.#recent(address, policy, nowMs);
    if (recent.length < policy.failuresAllowed) return 0;
    return (recent[recent.length - policy.failuresAllowed] ?? nowMs) + policy.windowMs - nowMs;
  }

  /** Counts one failure; answers the wait after it. */
  fail(address: string, policy: SignInThrottlePolicyV1, nowMs: number): number {
    const recent = this.#recent(address, policy, nowMs);
    recent.push(nowMs);
    this.#failures.set(address, recent);
    if (this.#failures.size > 10_000) {
      for (const [other, times] of this.#failures) if ((times[times.length - 1] ?? 0) <= nowMs - policy.windowMs) this.#failures.delete(other);
    }
    return this.retryAfterMs(address, policy, nowMs);
  }

  clear(address: string): void {
    this.#failures.delete(address);
  }

  #recent(address: string, policy: SignInThrottlePolicyV1, nowMs: number): number[] {
    return (this.#failures.get(address) ?? []).filter((at) => at > nowMs - policy.windowMs);
  }
}
