import type { HostedToolV3, ProtocolCapabilityV2, ProtocolCapabilityV3, TaskEnvelopeV4 } from '@tokenforge/model-protocol';

/** A task fitted to one target, and what was left out for it. */
export interface FittedTask {
  /** The task to send to the target (the same object when nothing was left out). */
  readonly task: TaskEnvelopeV4;
  /** Names of the hosted tools left out, in the client's words where the ingress reported them. */
  readonly droppedHostedTools: readonly string[];
}

/** The V3 facts this step reads; a V2 capability has none of them, so it declares none. */
type FitFacts = Pick<ProtocolCapabilityV3, 'hostedTools' | 'parallelToolCalls' | 'contextManagement' | 'reasoningEfforts'>;

/**
 * Fits a task to one attempt's target, leaving out the hints the target does not declare so that a
 * cross-dialect request never fails for one:
 * - hosted tools of a kind missing from the target's `hostedTools` are dropped and named (by `hostedToolNames`,
 *   the client's own tool names parallel to `task.hostedTools`, else by kind);
 * - `parallelToolCalls` and `contextManagement` are dropped unless the target declares the fact;
 * - a reasoning effort of `none` is dropped unless the target declares `none` among its `reasoningEfforts`
 *   (mapped to the nearest level it would turn reasoning on); reasoning left empty is dropped.
 * Everything else is left to the engine's capability check. Pure.
 */
export function fitTaskToTarget(
  task: TaskEnvelopeV4,
  capability: ProtocolCapabilityV2 | ProtocolCapabilityV3,
  hostedToolNames?: readonly string[],
): FittedTask {
  if (task.kind !== 'chat' && task.kind !== 'token-count') return { task, droppedHostedTools: [] };
  const facts = capability as FitFacts;
  const dropped: string[] = [];
  let changed = false;
  const fitted: Record<string, unknown> = { ...task };
  if (task.hostedTools !== undefined) {
    const served = facts.hostedTools ?? [];
    const kept: HostedToolV3[] = [];
    task.hostedTools.forEach((tool, index) => {
      if (served.includes(tool.kind)) kept.push(tool);
      else dropped.push(hostedToolNames?.[index] ?? tool.kind);
    });
    if (kept.length !== task.hostedTools.length) {
      changed = true;
      if (kept.length === 0) delete fitted.hostedTools;
      else fitted.hostedTools = kept;
    }
  }
  if (task.kind === 'chat') {
    if (task.parallelToolCalls !== undefined && facts.parallelToolCalls !== true) {
      delete fitted.parallelToolCalls;
      changed = true;
    }
    if (task.contextManagement !== undefined && facts.contextManagement !== true) {
      delete fitted.contextManagement;
      changed = true;
    }
  }
  const reasoning = task.reasoning;
  if (reasoning?.effort === 'none' && !(facts.reasoningEfforts ?? []).includes('none')) {
    const { effort: _none, ...rest } = reasoning;
    if (Object.keys(rest).length === 0) delete fitted.reasoning;
    else fitted.reasoning = rest;
    changed = true;
  }
  return { task: changed ? (fitted as unknown as TaskEnvelopeV4) : task, droppedHostedTools: [...new Set(dropped)] };
}
