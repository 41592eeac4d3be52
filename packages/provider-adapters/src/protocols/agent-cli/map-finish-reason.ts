import type { FinishReasonV1 } from '@tokenforge/model-protocol';

/**
 * A CLI run that reached its terminal frame with success finished its turn: `stop`. The CLIs report no length or
 * filter cut in their NDJSON (Claude Code's `stop_reason` is the last model turn's, not the run's); the raw value
 * is kept when there is one.
 */
export function mapAgentCliFinishReason(raw: string | undefined): FinishReasonV1 {
  return raw === undefined ? { unified: 'stop' } : { unified: 'stop', raw: raw.slice(0, 64) };
}
