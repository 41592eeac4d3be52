import { DEFAULT_REASONING_EFFORTS_V3, mapReasoningEffortV3, type ReasoningEffortV3 } from '@tokenforge/model-protocol';

/**
 * The effort level a family sends for a requested level: `mapReasoningEffortV3` against the levels the target
 * declares (`capability.reasoningEfforts`, else {@link DEFAULT_REASONING_EFFORTS_V3}), so `none`, `xhigh` and
 * `max` reach a target that lacks them as its nearest level. `expressible` is what the family's encoding can
 * carry (a budget table's keys, a dialect's level names); declared levels outside it are ignored, and when none
 * remain the expressible levels are the scale. Pure.
 */
export function resolveReasoningEffortV3<Level extends ReasoningEffortV3>(
  requested: ReasoningEffortV3,
  declared: readonly ReasoningEffortV3[] | undefined,
  expressible: readonly Level[],
): Level {
  const scale = (declared ?? DEFAULT_REASONING_EFFORTS_V3).filter((level): level is Level => (expressible as readonly ReasoningEffortV3[]).includes(level));
  return mapReasoningEffortV3(requested, scale.length > 0 ? scale : expressible) as Level;
}
