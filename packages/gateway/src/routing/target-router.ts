import type { RuntimeModel, RuntimeTarget } from '../runtime/resolve-catalogue.js';
import { orderTargets } from './order-targets.js';
import type { TargetHealthSnapshot } from './target-health-snapshot.js';
import { TargetHealth } from './target-health.js';

/** How an attempt at a target ended, as routing counts it. */
export type AttemptResult = { readonly kind: 'answer'; readonly streaming?: boolean } | { readonly kind: 'failure'; readonly code: string };

/**
 * This process's routing state: each target's health (in flight, latency, cooldown) and the order a request tries
 * a model's targets in. State is per process and keyed by the target object, so a reload that keeps a target
 * unchanged keeps its state. The clock and the random source are injected.
 */
export class TargetRouter {
  readonly #health = new Map<RuntimeTarget, TargetHealth>();
  readonly #now: () => number;
  readonly #random: () => number;

  constructor(targets: Iterable<RuntimeTarget>, now: () => number = Date.now, random: () => number = Math.random) {
    this.#now = now;
    this.#random = random;
    this.adopt(targets);
  }

  /** The targets of the catalogue now in force: known ones keep their state, new ones start healthy, others are forgotten. */
  adopt(targets: Iterable<RuntimeTarget>): void {
    const keep = new Set(targets);
    for (const target of this.#health.keys()) if (!keep.has(target)) this.#health.delete(target);
    for (const target of keep) if (!this.#health.has(target)) this.#health.set(target, new TargetHealth(target.routing?.cooldown));
  }

  #of(target: RuntimeTarget): TargetHealth {
    let health = this.#health.get(target);
    if (health === undefined) {
      // A target of a catalogue that a reload replaced while this request was routed: state of its own.
      health = new TargetHealth(target.routing?.cooldown);
      this.#health.set(target, health);
    }
    return health;
  }

  /** The order to try `targets` (the model's servable targets, in catalogue order) in. Claims a probe when one is due. */
  order(model: RuntimeModel | undefined, targets: readonly RuntimeTarget[]): RuntimeTarget[] {
    const now = this.#now();
    const candidates = targets.map((target) => {
      const health = this.#of(target);
      return {
        target,
        tier: target.routing?.tier ?? 0,
        weight: target.routing?.weight ?? 1,
        inFlight: health.inFlight,
        latencyEwmaMs: health.latencyEwmaMs,
        admitted: health.admits(now),
      };
    });
    return orderTargets(candidates, model?.routing?.balance ?? 'ordered', this.#random);
  }

  /**
   * An attempt at `target` starts now; call the returned function once with how it ended. A streamed answer
   * (`streaming: true`, at its head) counts its latency then and stays in flight until the function it returns is
   * called, when the stream ends.
   */
  begin(target: RuntimeTarget): (result: AttemptResult) => () => void {
    const health = this.#of(target);
    const started = this.#now();
    health.begin();
    let done = false;
    return (result) => {
      if (done) return () => {};
      done = true;
      const now = this.#now();
      if (result.kind === 'failure') {
        health.failed(result.code, now, now - started);
        return () => {};
      }
      health.succeeded(now - started, result.streaming === true, now);
      if (result.streaming !== true) return () => {};
      let ended = false;
      return () => {
        if (!ended) health.ended();
        ended = true;
      };
    };
  }

  /** Requests in flight at `target` in this process. */
  inFlight(target: RuntimeTarget): number {
    return this.#health.get(target)?.inFlight ?? 0;
  }

  /** Every known target's health now. */
  snapshot(): TargetHealthSnapshot[] {
    const now = this.#now();
    return [...this.#health].map(([target, health]) => ({
      ref: target.ref,
      provider: target.provider,
      model: target.routing?.model ?? target.ref.slice(0, target.ref.lastIndexOf('#')),
      state: health.state(now),
      recentFailures: health.recentFailures(now),
      cooldownRemainingMs: health.cooldownRemainingMs(now),
      inFlight: health.inFlight,
      ...(health.latencyEwmaMs === undefined ? {} : { latencyEwmaMs: Math.round(health.latencyEwmaMs * 10) / 10 }),
      recent: health.recent(now),
    }));
  }
}
