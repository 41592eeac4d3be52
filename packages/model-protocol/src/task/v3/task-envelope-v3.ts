import { z } from 'zod';
import { CONTRACT_BOUNDS_V3 as BOUNDS } from '../../bounds/v3/contract-bounds-v3.js';
import {
  audioPartV2Schema,
  cacheControlV2Schema,
  documentPartV2Schema,
  imagePartV2Schema,
  reasoningPartV2Schema,
  redactedReasoningPartV2Schema,
  textPartV2Schema,
  toolCallPartV2Schema,
  toolResultPartV2Schema,
} from '../v2/chat-content-part-v2.js';
import { checkRoleParts } from '../v2/chat-message-v2.js';
import {
  chatTaskV2Schema,
  embeddingTaskV2Schema,
  imageEditTaskV2Schema,
  imageGenerationTaskV2Schema,
  rerankTaskV2Schema,
  TASK_KINDS_V2,
  toolChoiceV2Schema,
  toolDefinitionV2Schema,
  videoGenerationTaskV2Schema,
} from '../v2/task-envelope-v2.js';

/*
 * The V3 revision of the task. Every V2 task is a V3 task (V3 only adds optional members, enum values and the
 * `token-count` kind), so a host written against V2 keeps working unchanged.
 */

/** Every task kind of the V3 revision: the V2 kinds and `token-count`. */
export const TASK_KINDS_V3 = [...TASK_KINDS_V2, 'token-count'] as const;
/** One of {@link TASK_KINDS_V3}. */
export type TaskKindV3 = (typeof TASK_KINDS_V3)[number];
export const taskKindV3Schema = z.enum(TASK_KINDS_V3);

/**
 * The reasoning-effort scale, least to most. A target declares the levels it takes natively
 * (`ProtocolCapabilityV3.reasoningEfforts`); a requested level it lacks is mapped by `mapReasoningEffortV3`.
 * `none` asks for no reasoning at all.
 */
export const REASONING_EFFORTS_V3 = ['none', 'minimal', 'low', 'medium', 'high', 'xhigh', 'max'] as const;
/** One of {@link REASONING_EFFORTS_V3}. */
export type ReasoningEffortV3 = (typeof REASONING_EFFORTS_V3)[number];
export const reasoningEffortV3Schema = z.enum(REASONING_EFFORTS_V3);

/** Reasoning controls of the V3 revision: the V2 members, the whole effort scale and the agent-era switches. */
export const reasoningControlV3Schema = z.strictObject({
  /** Qualitative effort on the V3 scale. */
  effort: reasoningEffortV3Schema.optional(),
  /** Token budget for reasoning. */
  budgetTokens: z.number().int().nonnegative().optional(),
  /** Whether the provider should return reasoning text or summaries where it can. */
  includeReasoning: z.boolean().optional(),
  /** Let the model decide how much to think (Anthropic adaptive thinking); `budgetTokens` is then ignored. */
  adaptive: z.boolean().optional(),
  /** How detailed returned reasoning summaries are, for dialects with summaries. */
  summary: z.enum(['auto', 'concise', 'detailed']).optional(),
  /**
   * How reasoning is shown: `summarized` text, `omitted` (only the replay signature comes back) or `updates`
   * (short progress notes between tool calls), for dialects that offer the choice.
   */
  display: z.enum(['summarized', 'omitted', 'updates']).optional(),
  /** Which earlier reasoning the model sees: the provider default, reasoning of all turns, or the current turn only. */
  context: z.enum(['auto', 'all-turns', 'current-turn']).optional(),
  /** Ask for reasoning in encrypted, replayable form so a stateless client can send it back. */
  includeEncrypted: z.boolean().optional(),
});
export type ReasoningControlV3 = z.infer<typeof reasoningControlV3Schema>;

/** A tool call the assistant made earlier, with an optional caching breakpoint. */
export const toolCallPartV3Schema = toolCallPartV2Schema.extend({
  /** Optional prompt-caching breakpoint after this part. */
  cacheControl: cacheControlV2Schema.optional(),
});
/** A tool result, with an optional caching breakpoint. */
export const toolResultPartV3Schema = toolResultPartV2Schema.extend({
  /** Optional prompt-caching breakpoint after this part. */
  cacheControl: cacheControlV2Schema.optional(),
});
/** Any part of a V3 chat message. */
export const chatContentPartV3Schema = z.discriminatedUnion('type', [
  textPartV2Schema,
  imagePartV2Schema,
  documentPartV2Schema,
  audioPartV2Schema,
  toolCallPartV3Schema,
  toolResultPartV3Schema,
  reasoningPartV2Schema,
  redactedReasoningPartV2Schema,
]);
export type ChatContentPartV3 = z.infer<typeof chatContentPartV3Schema>;

/** One turn of a V3 conversation (the V2 role rules). */
export const chatMessageV3Schema = z
  .strictObject({
    /** `user` (text and media), `assistant` (text, tool calls, reasoning) or `tool` (tool results). */
    role: z.enum(['user', 'assistant', 'tool']),
    /** The parts, in order; at least one. */
    content: z.array(chatContentPartV3Schema).min(1),
  })
  .superRefine(checkRoleParts);
export type ChatMessageV3 = {
  /** `user` (text and media), `assistant` (text, tool calls, reasoning) or `tool` (tool results). */
  role: 'user' | 'assistant' | 'tool';
  /** The parts, in order; at least one. */
  content: ChatContentPartV3[];
};

/** A function tool of the V3 revision: the V2 members and two delivery hints. */
export const toolDefinitionV3Schema = toolDefinitionV2Schema.extend({
  /** Load the definition only when the model searches for it (Anthropic tool search), where the dialect can. */
  deferLoading: z.boolean().optional(),
  /** Stream the call's arguments without buffering them for validation, where the dialect can. */
  eagerInputStreaming: z.boolean().optional(),
});
export type ToolDefinitionV3 = z.infer<typeof toolDefinitionV3Schema>;

/** The hosted (provider-run) tool kinds the contracts normalize. */
export const HOSTED_TOOL_KINDS_V3 = ['web-search'] as const;
/** One of {@link HOSTED_TOOL_KINDS_V3}. */
export type HostedToolKindV3 = (typeof HOSTED_TOOL_KINDS_V3)[number];

const domain = z.string().min(1).max(BOUNDS.hostedToolDomainMaxLength).regex(/^[A-Za-z0-9.*-]+$/);

/**
 * A tool the provider runs itself. A target serves only the kinds its capability lists; the host decides what
 * to do with the others (the gateway drops them and names them in a response header).
 */
export const hostedToolV3Schema = z.discriminatedUnion('kind', [
  z.strictObject({
    /** Web search run by the provider. */
    kind: z.literal('web-search'),
    /** Most searches in one response. */
    maxUses: z.number().int().positive().max(1_000).optional(),
    /** Search only these domains. */
    allowedDomains: z.array(domain).max(BOUNDS.hostedToolDomainsMaxCount).optional(),
    /** Never search these domains. */
    blockedDomains: z.array(domain).max(BOUNDS.hostedToolDomainsMaxCount).optional(),
  }),
]);
export type HostedToolV3 = z.infer<typeof hostedToolV3Schema>;

/** Server-side pruning of the conversation, for dialects that offer it (Anthropic context management). */
export const contextManagementV3Schema = z.strictObject({
  /** Clear reasoning blocks of earlier turns: keep all of them, or only the last `keepTurns` turns' reasoning. */
  clearThinking: z
    .strictObject({
      /** `all` keeps every turn's reasoning; a number keeps that many most recent turns. */
      keep: z.union([z.literal('all'), z.number().int().positive().max(10_000)]).optional(),
    })
    .optional(),
  /** Clear old tool results once the input passes a size. */
  clearToolUses: z
    .strictObject({
      /** Input tokens past which clearing starts. */
      triggerInputTokens: z.number().int().positive().optional(),
      /** Most recent tool uses to keep. */
      keepToolUses: z.number().int().nonnegative().optional(),
      /** Clear at least this many input tokens once triggered. */
      clearAtLeastInputTokens: z.number().int().positive().optional(),
      /** Tools whose results are never cleared. */
      excludeTools: z
        .array(z.string().min(1).max(BOUNDS.declaredToolNameMaxLength))
        .max(BOUNDS.contextManagementExcludedToolsMaxCount)
        .optional(),
      /** Clear the calls' inputs too, not only their results. */
      clearToolInputs: z.boolean().optional(),
    })
    .optional(),
});
export type ContextManagementV3 = z.infer<typeof contextManagementV3Schema>;

/** Function tools of a V3 task. */
const toolsV3 = z.array(toolDefinitionV3Schema);
/** Hosted tools of a V3 task. */
const hostedToolsV3 = z.array(hostedToolV3Schema).max(BOUNDS.hostedToolsMaxCount);

/** A conversation turn to complete: the V2 chat task and the members agent clients need. */
export const chatTaskV3Schema = chatTaskV2Schema.extend({
  /** The conversation so far; at least one message. */
  messages: z.array(chatMessageV3Schema).min(1),
  /** Function tools the model may call. */
  tools: toolsV3.optional(),
  /** Tools the provider runs itself; needs the kinds in the target's `hostedTools`. */
  hostedTools: hostedToolsV3.optional(),
  /** Whether the model may call several tools in one turn; needs `parallelToolCalls` on the target. */
  parallelToolCalls: z.boolean().optional(),
  /** Reasoning controls. */
  reasoning: reasoningControlV3Schema.optional(),
  /** How long the answer should be, for dialects that take a verbosity. */
  verbosity: z.enum(['low', 'medium', 'high']).optional(),
  /** Server-side pruning of the conversation; needs `contextManagement` on the target. */
  contextManagement: contextManagementV3Schema.optional(),
  /**
   * An opaque identifier of the end user the client acts for (abuse monitoring at the provider), passed to
   * dialects with a place for it. Printable characters only.
   */
  endUserId: z
    .string()
    .min(1)
    .max(BOUNDS.endUserIdMaxLength)
    .regex(/^[\x20-\x7E]+$/)
    .optional(),
  /** Whether the provider may store the response for later retrieval, for dialects that store by default. */
  store: z.boolean().optional(),
});
export type ChatTaskV3 = z.infer<typeof chatTaskV3Schema>;

/**
 * Count the input tokens a chat request would use, with the provider's own counting endpoint. Never estimated:
 * a target without `token-count` in its task kinds refuses it.
 */
export const tokenCountTaskV3Schema = z.strictObject({
  kind: z.literal('token-count'),
  /** Optional host-supplied idempotency key. */
  idempotencyKey: chatTaskV2Schema.shape.idempotencyKey,
  /** System instructions, as text parts (in order). */
  system: chatTaskV2Schema.shape.system,
  /** The conversation to count; at least one message. */
  messages: z.array(chatMessageV3Schema).min(1),
  /** Function tools whose definitions count as input. */
  tools: toolsV3.optional(),
  /** Hosted tools whose definitions count as input. */
  hostedTools: hostedToolsV3.optional(),
  /** Tool choice, where it changes the count. */
  toolChoice: toolChoiceV2Schema.optional(),
  /** Reasoning controls, where they change the count. */
  reasoning: reasoningControlV3Schema.optional(),
});
export type TokenCountTaskV3 = z.infer<typeof tokenCountTaskV3Schema>;

/** The normalized unit of work of the V3 revision. Every {@link TaskEnvelopeV2} is one. */
export const taskEnvelopeV3Schema = z.discriminatedUnion('kind', [
  chatTaskV3Schema,
  embeddingTaskV2Schema,
  imageGenerationTaskV2Schema,
  imageEditTaskV2Schema,
  rerankTaskV2Schema,
  videoGenerationTaskV2Schema,
  tokenCountTaskV3Schema,
]);
export type TaskEnvelopeV3 = z.infer<typeof taskEnvelopeV3Schema>;
