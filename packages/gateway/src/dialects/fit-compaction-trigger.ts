import type { ProtocolFamily, TaskEnvelopeV4 } from '@tokenforge/model-protocol';

/** The name the dropped-content header gives a compaction trigger left out for a target of another family. */
export const DROPPED_COMPACTION_TRIGGER = 'compaction-trigger';

/** A task with the client's compaction trigger kept or left out for one target. */
export interface FittedCompactionTrigger {
  /** The task to send (the same object when nothing was left out). */
  readonly task: TaskEnvelopeV4;
  /** `['compaction-trigger']` when the trigger was left out, else empty. */
  readonly dropped: readonly string[];
}

const NOTHING: readonly string[] = Object.freeze([]);
const TRIGGER: readonly string[] = Object.freeze([DROPPED_COMPACTION_TRIGGER]);

/**
 * Keeps the task's server-side compaction request (`compaction`: Anthropic `compact_20260112`, Responses
 * `context_management` compaction) only for a target of the client dialect's family. Another family would answer with
 * a compaction block in its own form, which the client's dialect cannot carry and the gateway leaves out, so the
 * request is left out for it and named: the client still works, its history is just not compacted server-side. Pure.
 */
export function fitCompactionTrigger(task: TaskEnvelopeV4, clientFamily: ProtocolFamily, targetFamily: ProtocolFamily): FittedCompactionTrigger {
  if (task.kind !== 'chat' || task.compaction === undefined || clientFamily === targetFamily) return { task, dropped: NOTHING };
  const { compaction: _left, ...rest } = task;
  return { task: rest, dropped: TRIGGER };
}
