import { REASONING_EFFORTS_V3, type ReasoningEffortV3 } from '../../task/v3/task-envelope-v3.js';

const RANK: Readonly<Record<ReasoningEffortV3, number>> = Object.freeze(
  Object.fromEntries(REASONING_EFFORTS_V3.map((effort, index) => [effort, index])) as Record<ReasoningEffortV3, number>,
);

/**
 * Maps a requested effort onto the levels a target declares: the level itself when declared, otherwise the
 * nearest declared level on the V3 scale; when two are equally near, the lower one (never more reasoning than
 * asked for). `declared` must hold at least one level. Pure; the same table for every family.
 *
 * | requested | declared `low, medium, high` | declared `minimal … high` | declared `none … max` |
 * |---|---|---|---|
 * | none | low | minimal | none |
 * | xhigh, max | high | high | itself |
 */
export function mapReasoningEffortV3(requested: ReasoningEffortV3, declared: readonly ReasoningEffortV3[]): ReasoningEffortV3 {
  const wanted = RANK[requested];
  let best: ReasoningEffortV3 | undefined;
  let bestDistance = Number.POSITIVE_INFINITY;
  for (const level of declared) {
    const distance = Math.abs(RANK[level] - wanted);
    if (distance < bestDistance || (distance === bestDistance && RANK[level] < RANK[best as ReasoningEffortV3])) {
      best = level;
      bestDistance = distance;
    }
  }
  if (best === undefined) throw new RangeError('mapReasoningEffortV3 needs at least one declared level');
  return best;
}

/** The levels a target takes when its capability declares no `reasoningEfforts`: the V2 scale. */
export const DEFAULT_REASONING_EFFORTS_V3: readonly ReasoningEffortV3[] = Object.freeze(['minimal', 'low', 'medium', 'high'] as const);
