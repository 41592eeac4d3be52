/** Failed sign-ins one client address may make within {@link SIGN_IN_WINDOW_MS} before it is made to wait. */
export const SIGN_IN_FAILURES_ALLOWED = 5;
/** The window failed sign-ins are counted in (10 minutes). */
export const SIGN_IN_WINDOW_MS = 10 * 60_000;

/**
 * Throttles failed console sign-ins per client address, in this instance's memory: after
 * {@link SIGN_IN_FAILURES_ALLOWED} failures within {@link SIGN_IN_WINDOW_MS} the address waits until the oldest one
 * leaves the window. A success clears the address.
 */
export class SignInThrottle {
  readonly #failures = new Map<string, number[]>();

  /** How long `address` must wait before its next attempt (0: it may try now). */
  retryAfterMs(address: string, nowMs: number): number {
    const recent = this.#recent(address, nowMs);
    if (recent.length < SIGN_IN_FAILURES_ALLOWED) return 0;
    return (recent[recent.length - SIGN_IN_FAILURES_ALLOWED] ?? nowMs) + SIGN_IN_WINDOW_MS - nowMs;
  }

  fail(address: string, nowMs: number): void {
    const recent = this.#recent(address, nowMs);
    recent.push(nowMs);
    this.#failures.set(address, recent);
    if (this.#failures.size > 10_000) {
      for (const [other, times] of this.#failures) if ((times[times.length - 1] ?? 0) <= nowMs - SIGN_IN_WINDOW_MS) this.#failures.delete(other);
    }
  }

  succeed(address: string): void {
    this.#failures.delete(address);
  }

  #recent(address: string, nowMs: number): number[] {
    return (this.#failures.get(address) ?? []).filter((at) => at > nowMs - SIGN_IN_WINDOW_MS);
  }
}
