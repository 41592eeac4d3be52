/** One response a connection keeps: the full input it answered and the output items it produced. */
export interface RememberedResponse {
  /** The response id the client was given (`response.completed`'s `response.id`). */
  readonly id: string;
  /** The request's input items, already expanded from any earlier response. */
  readonly input: readonly unknown[];
  /** The response's output items. */
  readonly output: readonly unknown[];
  /** The UTF-8 bytes of input and output as they travelled (the size the cap counts). */
  readonly bytes: number;
  /** `Date.now()` when it completed. */
  readonly completedAt: number;
}

/** The bounds of a connection's history. */
export interface ResponseHistoryLimits {
  /** The most bytes of input and output kept; a larger response is not kept (its id is then not found). */
  readonly maxBytes: number;
  /** How long the response is kept after it completed. */
  readonly ttlMs: number;
}

/** What expanding a request against the history gives: the full input, or `not-found`. */
export type ExpandedInput = { readonly kind: 'expanded'; readonly input: unknown[] } | { readonly kind: 'not-found' };

/**
 * The last response of one WebSocket connection, so that a `response.create` naming it in `previous_response_id`
 * is expanded into a whole request (any target family can serve it). Exactly one response is kept, within
 * `maxBytes` and `ttlMs`; an older, larger, expired or unknown id is `not-found`, never an empty history.
 */
export class ConnectionResponseHistory {
  private last: RememberedResponse | undefined;

  constructor(
    private readonly limits: ResponseHistoryLimits,
    private readonly now: () => number,
  ) {}

  /** Keeps `response` in place of the one before; forgets both when it is over the byte cap. */
  remember(response: Omit<RememberedResponse, 'completedAt'>): void {
    this.last = response.bytes > this.limits.maxBytes ? undefined : { ...response, completedAt: this.now() };
  }

  /** Forgets the kept response (a later request failed after naming it, or the connection ended). */
  forget(): void {
    this.last = undefined;
  }

  /** The id of the kept response, if it is still within its time. */
  get latestId(): string | undefined {
    return this.current()?.id;
  }

  /** The kept response's input and output followed by `input`, when `previousId` names it. */
  expand(previousId: string, input: readonly unknown[]): ExpandedInput {
    const last = this.current();
    if (last === undefined || last.id !== previousId) return { kind: 'not-found' };
    return { kind: 'expanded', input: [...last.input, ...last.output, ...input] };
  }

  private current(): RememberedResponse | undefined {
    if (this.last !== undefined && this.now() - this.last.completedAt > this.limits.ttlMs) this.last = undefined;
    return this.last;
  }
}
