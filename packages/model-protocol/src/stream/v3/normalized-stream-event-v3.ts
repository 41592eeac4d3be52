import { z } from 'zod';
import { usageV3Schema } from '../../usage/v3/usage-v3.js';
import { normalizedStreamEventV1Schema } from '../v1/normalized-stream-event-v1.js';

const [textStart, textDelta, textEnd, reasoningStart, reasoningDelta, reasoningEnd, reasoningRedacted, refusalStart, refusalDelta, refusalEnd, toolCallStart, toolCallDelta, toolCallEnd] =
  normalizedStreamEventV1Schema.options;

/**
 * A normalized stream event, V3 revision: the V1 events, with usage snapshots in V3 form (the same
 * never-decreasing rule applies to every figure, details included). Every V1 event is a V3 event.
 */
export const normalizedStreamEventV3Schema = z.discriminatedUnion('type', [
  textStart,
  textDelta,
  textEnd,
  reasoningStart,
  reasoningDelta,
  reasoningEnd,
  reasoningRedacted,
  refusalStart,
  refusalDelta,
  refusalEnd,
  toolCallStart,
  toolCallDelta,
  toolCallEnd,
  /** A cumulative usage snapshot (each field never decreases during a stream). */
  z.strictObject({ type: z.literal('usage'), usage: usageV3Schema }),
]);
export type NormalizedStreamEventV3 = z.infer<typeof normalizedStreamEventV3Schema>;
