import { z } from 'zod';
import { CONTRACT_BOUNDS_V1 as BOUNDS } from '../../bounds/v1/contract-bounds-v1.js';
import { usageV1Schema } from '../../usage/v1/usage-v1.js';

const index = z.number().int().nonnegative().max(BOUNDS.streamIndexMax);

/**
 * A normalized stream event. Content arrives in blocks; each block has an `index` (unique within the
 * stream) and a lifecycle `*-start`, any number of `*-delta`, then `*-end`. Blocks may interleave.
 * The terminal outcome is not an event: it is the execution's `terminal` promise.
 */
export const normalizedStreamEventV1Schema = z.discriminatedUnion('type', [
  /** A text block opens. */
  z.strictObject({ type: z.literal('text-start'), index }),
  /** More text for the block. */
  z.strictObject({ type: z.literal('text-delta'), index, delta: z.string() }),
  /** The text block is complete. */
  z.strictObject({ type: z.literal('text-end'), index }),
  /** A reasoning block opens. */
  z.strictObject({ type: z.literal('reasoning-start'), index }),
  /** More reasoning text for the block. */
  z.strictObject({ type: z.literal('reasoning-delta'), index, delta: z.string() }),
  /** The reasoning block is complete; `signature` is opaque provider state to replay unmodified. */
  z.strictObject({ type: z.literal('reasoning-end'), index, signature: z.string().min(1).optional() }),
  /** A whole redacted reasoning block (no start or end). */
  z.strictObject({ type: z.literal('reasoning-redacted'), index, data: z.string().min(1) }),
  /** A refusal block opens. */
  z.strictObject({ type: z.literal('refusal-start'), index }),
  /** More refusal text for the block. */
  z.strictObject({ type: z.literal('refusal-delta'), index, delta: z.string() }),
  /** The refusal block is complete. */
  z.strictObject({ type: z.literal('refusal-end'), index }),
  /** A tool call opens: its id and the tool name are known. */
  z.strictObject({
    type: z.literal('tool-call-start'),
    index,
    toolCallId: z.string().min(1).max(BOUNDS.toolCallIdMaxLength),
    toolName: z.string().min(1).max(BOUNDS.toolNameMaxLength),
  }),
  /** A fragment of the argument JSON text. */
  z.strictObject({ type: z.literal('tool-call-delta'), index, delta: z.string() }),
  /** The tool call is complete: the full argument text (the concatenation of the deltas). */
  z.strictObject({
    type: z.literal('tool-call-end'),
    index,
    argumentsText: z.string(),
    signature: z.string().min(1).optional(),
  }),
  /** A cumulative usage snapshot (each field never decreases during a stream). */
  z.strictObject({ type: z.literal('usage'), usage: usageV1Schema }),
]);
export type NormalizedStreamEventV1 = z.infer<typeof normalizedStreamEventV1Schema>;
export type NormalizedStreamEventTypeV1 = NormalizedStreamEventV1['type'];
