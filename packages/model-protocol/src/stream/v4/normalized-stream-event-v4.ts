import { z } from 'zod';
import { normalizedStreamEventV3Schema } from '../v3/normalized-stream-event-v3.js';
import { CONTRACT_BOUNDS_V1 as BOUNDS } from '../../bounds/v1/contract-bounds-v1.js';

/**
 * A normalized stream event, V4 revision: the V3 events and a whole compaction block. Every V3 event is a V4 event.
 */
export const normalizedStreamEventV4Schema = z.discriminatedUnion('type', [
  ...normalizedStreamEventV3Schema.options,
  /** A whole compaction block (no start or end): the provider's opaque payload, bound to its family. */
  z.strictObject({
    type: z.literal('compaction'),
    /** The block index, as for every other block. */
    index: z.number().int().nonnegative().max(BOUNDS.streamIndexMax),
    /** The payload exactly as the provider produced it: Anthropic `content`, Responses `encrypted_content`. */
    data: z.string().min(1),
    /** The provider's id of the item (Responses `cmp_…`), where the dialect gives one. */
    id: z
      .string()
      .min(1)
      .max(512)
      .regex(/^[\x21-\x7E]+$/)
      .optional(),
    /** Members of the provider's block beside its payload, as the producing family's codec wrote them (a JSON object text). */
    providerFields: z.string().min(2).optional(),
  }),
]);
export type NormalizedStreamEventV4 = z.infer<typeof normalizedStreamEventV4Schema>;
