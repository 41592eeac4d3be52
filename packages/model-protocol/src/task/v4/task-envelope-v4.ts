import { z } from 'zod';
import {
  audioPartV2Schema,
  cacheControlV2Schema,
  documentPartV2Schema,
  imagePartV2Schema,
  reasoningPartV2Schema,
  redactedReasoningPartV2Schema,
  textPartV2Schema,
} from '../v2/chat-content-part-v2.js';
import {
  chatTaskV3Schema,
  tokenCountTaskV3Schema,
  toolCallPartV3Schema,
  toolResultPartV3Schema,
} from '../v3/task-envelope-v3.js';
import {
  embeddingTaskV2Schema,
  imageEditTaskV2Schema,
  imageGenerationTaskV2Schema,
  rerankTaskV2Schema,
  videoGenerationTaskV2Schema,
} from '../v2/task-envelope-v2.js';

/*
 * The V4 revision of the task: the V3 task with two opaque, family-bound pieces of earlier assistant turns that
 * agent clients send back in long sessions. Every V3 task is a V4 task (V4 only adds a part type and an optional
 * member), so a host written against V3 keeps working unchanged.
 */

/** Most characters of a provider item id a V4 part carries. */
const PROVIDER_ITEM_ID_MAX_LENGTH = 512;

const providerItemId = z
  .string()
  .min(1)
  .max(PROVIDER_ITEM_ID_MAX_LENGTH)
  .regex(/^[\x21-\x7E]+$/);

/**
 * A compaction the provider made of the conversation before it (Anthropic `compaction` content block, OpenAI
 * Responses `compaction` item). Opaque and bound to the protocol family that produced it: a host replays it
 * unmodified to that family and leaves it out for any other (it is one family's summary of history the others
 * never saw, in a form they cannot read). A value that is not a host's sealed wrapper is the client dialect's own.
 */
export const compactionPartV4Schema = z.strictObject({
  type: z.literal('compaction'),
  /**
   * The compaction payload exactly as the provider produced it: the Anthropic block's `content`, the Responses
   * item's `encrypted_content` (or a host's sealed wrapper of either). Never read, never rewritten.
   */
  data: z.string().min(1),
  /** The provider's id of the item (Responses `cmp_…`), where the dialect gives one; replayed with the payload. */
  id: providerItemId.optional(),
  /**
   * Members of the provider's block beside its payload that the producing family's codec carries verbatim, as a JSON
   * object text that codec wrote (Anthropic: `encrypted_content`, `signature` and `tool_changes` of a compaction block,
   * when not null). Opaque to everyone else and bound to the family like the payload.
   */
  providerFields: z.string().min(2).optional(),
  /** Optional prompt-caching breakpoint after this part (Anthropic allows one on a compaction block). */
  cacheControl: cacheControlV2Schema.optional(),
});
export type CompactionPartV4 = z.infer<typeof compactionPartV4Schema>;

/**
 * Reasoning the assistant produced earlier, V4 revision: the V2 part with the provider's id of a reasoning item the
 * provider stored (a Responses `rs_…` item sent back without `encrypted_content`, as clients do that store
 * responses or do not ask for encrypted reasoning). The id refers to the producing family's stored state: a host
 * replays it to that family only and leaves the part out for any other (never forging a signature for it).
 */
export const reasoningPartV4Schema = reasoningPartV2Schema.extend({
  /** The provider's id of the stored reasoning item; the part's `signature` is then usually absent. */
  storedItemId: providerItemId.optional(),
});
export type ReasoningPartV4 = z.infer<typeof reasoningPartV4Schema>;

/** Any part of a V4 chat message: the V3 parts, reasoning with a stored item id, and compaction. */
export const chatContentPartV4Schema = z.discriminatedUnion('type', [
  textPartV2Schema,
  imagePartV2Schema,
  documentPartV2Schema,
  audioPartV2Schema,
  toolCallPartV3Schema,
  toolResultPartV3Schema,
  reasoningPartV4Schema,
  redactedReasoningPartV2Schema,
  compactionPartV4Schema,
]);
export type ChatContentPartV4 = z.infer<typeof chatContentPartV4Schema>;

/** Which part types each role may carry in V4: compaction is an assistant part. */
const ALLOWED_PARTS_V4: Readonly<Record<ChatMessageV4['role'], ReadonlySet<ChatContentPartV4['type']>>> = {
  user: new Set(['text', 'image', 'document', 'audio']),
  assistant: new Set(['text', 'tool-call', 'reasoning', 'redacted-reasoning', 'compaction']),
  tool: new Set(['tool-result']),
};

/** One turn of a V4 conversation (the V3 role rules, with `compaction` an assistant part). */
export const chatMessageV4Schema = z
  .strictObject({
    /** `user` (text and media), `assistant` (text, tool calls, reasoning, compaction) or `tool` (tool results). */
    role: z.enum(['user', 'assistant', 'tool']),
    /** The parts, in order; at least one. */
    content: z.array(chatContentPartV4Schema).min(1),
  })
  .superRefine((message, context) => {
    const allowed: ReadonlySet<string> = ALLOWED_PARTS_V4[message.role];
    message.content.forEach((part, index) => {
      if (!allowed.has(part.type)) {
        context.addIssue({ code: 'custom', path: ['content', index, 'type'], message: `a ${message.role} message cannot hold a ${part.type} part` });
      }
    });
  });
export type ChatMessageV4 = {
  /** `user` (text and media), `assistant` (text, tool calls, reasoning, compaction) or `tool` (tool results). */
  role: 'user' | 'assistant' | 'tool';
  /** The parts, in order; at least one. */
  content: ChatContentPartV4[];
};

/**
 * Server-side compaction the client asks the provider for (Anthropic `context_management` edit `compact_20260112`,
 * beta `compact-2026-01-12`; Responses `context_management: [{type: "compaction", compact_threshold}]`). A hint: the
 * provider answers with a `compaction` block or item bound to its own family, so a host forwards it only to a target
 * of the client dialect's family and leaves it out (naming it) for any other; a dialect without it ignores it.
 */
export const compactionControlV4Schema = z.strictObject({
  /** Input tokens past which the provider compacts (Anthropic `trigger: {type: "input_tokens", value}`, Responses `compact_threshold`). */
  triggerInputTokens: z.number().int().positive().max(100_000_000).optional(),
  /** Stop after the compaction block and return it alone (Anthropic `pause_after_compaction`; stop reason `compaction`). */
  pauseAfterCompaction: z.boolean().optional(),
  /** Instructions for the summary, replacing the provider's default prompt (Anthropic `instructions`). */
  instructions: z.string().min(1).max(100_000).optional(),
});
export type CompactionControlV4 = z.infer<typeof compactionControlV4Schema>;

/** A conversation turn to complete, V4 revision: the V3 chat task over V4 messages, with server-side compaction. */
export const chatTaskV4Schema = chatTaskV3Schema.extend({
  /** The conversation so far; at least one message. */
  messages: z.array(chatMessageV4Schema).min(1),
  /** Server-side compaction asked of the provider; a family-bound hint (see {@link compactionControlV4Schema}). */
  compaction: compactionControlV4Schema.optional(),
});
export type ChatTaskV4 = z.infer<typeof chatTaskV4Schema>;

/** Count the input tokens of a chat request, V4 revision: the V3 task over V4 messages. */
export const tokenCountTaskV4Schema = tokenCountTaskV3Schema.extend({
  /** The conversation to count; at least one message. */
  messages: z.array(chatMessageV4Schema).min(1),
});
export type TokenCountTaskV4 = z.infer<typeof tokenCountTaskV4Schema>;

/** The normalized unit of work of the V4 revision. Every {@link TaskEnvelopeV3} is one. */
export const taskEnvelopeV4Schema = z.discriminatedUnion('kind', [
  chatTaskV4Schema,
  embeddingTaskV2Schema,
  imageGenerationTaskV2Schema,
  imageEditTaskV2Schema,
  rerankTaskV2Schema,
  videoGenerationTaskV2Schema,
  tokenCountTaskV4Schema,
]);
export type TaskEnvelopeV4 = z.infer<typeof taskEnvelopeV4Schema>;
