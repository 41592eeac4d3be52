import { z } from 'zod';
import {
  embeddingResultV1Schema,
  imageResultV1Schema,
  outputReasoningPartV1Schema,
  outputRedactedReasoningPartV1Schema,
  outputRefusalPartV1Schema,
  outputTextPartV1Schema,
  outputToolCallPartV1Schema,
  rerankResultV1Schema,
} from '../v1/task-result-v1.js';
import { tokenCountResultV3Schema } from '../v3/task-result-v3.js';

/**
 * A compaction the provider made of the conversation (Anthropic `compaction` block, Responses `compaction` output
 * item). Opaque and bound to the family that produced it: a host returns it to a client of that family unmodified
 * (or sealed for the family), and leaves it out for any other.
 */
export const outputCompactionPartV4Schema = z.strictObject({
  type: z.literal('compaction'),
  /** The payload exactly as the provider produced it: Anthropic `content`, Responses `encrypted_content`. */
  data: z.string().min(1),
  /** The provider's id of the item (Responses `cmp_…`), where the dialect gives one. */
  id: z
    .string()
    .min(1)
    .max(512)
    .regex(/^[\x21-\x7E]+$/)
    .optional(),
  /**
   * Members of the provider's block beside its payload that the producing family's codec carries verbatim, as a JSON
   * object text that codec wrote (Anthropic: `encrypted_content`, `signature` and `tool_changes` of a compaction block,
   * when not null). Opaque to everyone else and bound to the family like the payload.
   */
  providerFields: z.string().min(2).optional(),
});
export type OutputCompactionPartV4 = z.infer<typeof outputCompactionPartV4Schema>;

/** One block of a V4 chat answer: the V1 blocks and compaction. */
export const chatOutputPartV4Schema = z.discriminatedUnion('type', [
  outputTextPartV1Schema,
  outputReasoningPartV1Schema,
  outputRedactedReasoningPartV1Schema,
  outputToolCallPartV1Schema,
  outputRefusalPartV1Schema,
  outputCompactionPartV4Schema,
]);
export type ChatOutputPartV4 = z.infer<typeof chatOutputPartV4Schema>;

/** The answer to a chat task, V4 revision: its blocks in block-index order. Every V1 chat result is one. */
export const chatResultV4Schema = z.strictObject({
  kind: z.literal('chat'),
  /** The blocks, in the order of their stream `index`. */
  content: z.array(chatOutputPartV4Schema),
});
export type ChatResultV4 = z.infer<typeof chatResultV4Schema>;

/** The result of a sync or stream execution, V4 revision; its `kind` equals the task kind. Every V3 result is one. */
export const taskResultV4Schema = z.discriminatedUnion('kind', [chatResultV4Schema, embeddingResultV1Schema, imageResultV1Schema, rerankResultV1Schema, tokenCountResultV3Schema]);
export type TaskResultV4 = z.infer<typeof taskResultV4Schema>;
