import type { NormalizedStreamEventV4 } from '@tokenforge/model-protocol';

type Result = IteratorResult<NormalizedStreamEventV4>;
type Resolve = (result: Result) => void;
type Reject = (error: unknown) => void;

interface Waiter {
  readonly resolve: Resolve;
  readonly reject: Reject;
}

const DONE: Result = Object.freeze({ done: true, value: undefined });

/**
 * The consumers waiting for a stream's pulls, in order. The one waiting for the pull in flight lives in two slots
 * (the hot path allocates no queue entry); further concurrent `next()` calls, which a for-await loop never makes,
 * wait behind it.
 */
export class PullWaiters {
  private headResolve: Resolve | undefined;
  private headReject: Reject | undefined;
  private readonly overflow: Waiter[] = [];

  /** Bound once: the executor of the head's promise. */
  readonly capture = (resolve: Resolve, reject: Reject): void => {
    this.headResolve = resolve;
    this.headReject = reject;
  };

  /** Whether a consumer waits for the pull in flight. */
  get waiting(): boolean {
    return this.headResolve !== undefined;
  }

  /** A consumer calling `next()` while another already waits: served after it. */
  queue(): Promise<Result> {
    return new Promise<Result>((resolve, reject) => this.overflow.push({ resolve, reject }));
  }

  /** Hands the head consumer its result and moves the next one up. */
  resolveHead(result: Result): void {
    const resolve = this.headResolve;
    this.advance();
    resolve?.(result);
  }

  /** Rejects the head consumer and moves the next one up. */
  rejectHead(error: unknown): void {
    const reject = this.headReject;
    this.advance();
    reject?.(error);
  }

  /** Ends every waiting consumer's iteration. */
  flush(): void {
    const resolve = this.headResolve;
    this.headResolve = undefined;
    this.headReject = undefined;
    resolve?.(DONE);
    for (const waiter of this.overflow.splice(0)) waiter.resolve(DONE);
  }

  private advance(): void {
    const next = this.overflow.shift();
    this.headResolve = next?.resolve;
    this.headReject = next?.reject;
  }
}
