import type { EgressContextV1, EgressFailureV3 } from '@tokenforge/model-protocol';

/** `created` in Unix seconds from the egress context's milliseconds. */
export function egressCreatedSeconds(context: EgressContextV1): number {
  return Math.floor(context.createdAtMs / 1000);
}

/** Not an engine code: anything the error table does not know is written as a 500 internal error. */
export const EGRESS_INTERNAL_FAILURE: EgressFailureV3 = Object.freeze({ source: 'engine', code: 'internal' });

/** A cancelled terminal, written like the engine's abort (499). */
export const EGRESS_CANCELLED_FAILURE: EgressFailureV3 = Object.freeze({ source: 'engine', code: 'PROTOCOL_ENGINE_ABORTED' });
