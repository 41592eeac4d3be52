import { z } from 'zod';
import { CONTRACT_BOUNDS_V1 as BOUNDS } from '../../bounds/v1/contract-bounds-v1.js';
import { textPartV2Schema } from './chat-content-part-v2.js';
import { chatMessageV2Schema } from './chat-message-v2.js';

/** Every task kind the engine knows. */
export const TASK_KINDS_V2 = [
  'chat',
  'embedding',
  'image-generation',
  'image-edit',
  'rerank',
  'video-generation',
] as const;
/** One of {@link TASK_KINDS_V2}. */
export type TaskKindV2 = (typeof TASK_KINDS_V2)[number];
export const taskKindV2Schema = z.enum(TASK_KINDS_V2);

/** Host-supplied key that lets a provider (or the host) recognise a repeated submission. */
const idempotencyKeySchema = z
  .string()
  .min(1)
  .max(BOUNDS.idempotencyKeyMaxLength)
  .regex(/^[A-Za-z0-9._:-]+$/);

/** A tool the model may call. */
export const toolDefinitionV2Schema = z.strictObject({
  /** Tool name: letters, digits, `_` and `-`, at most 128 characters (the narrowest dialect's limit). */
  name: z
    .string()
    .min(1)
    .max(BOUNDS.declaredToolNameMaxLength)
    .regex(/^[A-Za-z_][A-Za-z0-9_.-]*$/),
  /** What the tool does, for the model. */
  description: z.string().max(BOUNDS.toolDescriptionMaxLength).optional(),
  /** JSON Schema (object) of the arguments. */
  inputSchema: z.record(z.string(), z.unknown()),
  /** Ask the provider to enforce the schema strictly where the dialect supports it. */
  strict: z.boolean().optional(),
  /** Optional prompt-caching breakpoint after this tool definition. */
  cacheControl: z.strictObject({ type: z.literal('ephemeral'), ttlSeconds: z.number().int().positive().max(BOUNDS.cacheTtlSecondsMax).optional() }).optional(),
});
export type ToolDefinitionV2 = z.infer<typeof toolDefinitionV2Schema>;

/** How the model may use tools. */
export const toolChoiceV2Schema = z.discriminatedUnion('type', [
  /** The model decides. */
  z.strictObject({ type: z.literal('auto') }),
  /** The model must not call tools. */
  z.strictObject({ type: z.literal('none') }),
  /** The model must call at least one tool. */
  z.strictObject({ type: z.literal('required') }),
  /** The model must call this tool. */
  z.strictObject({ type: z.literal('tool'), toolName: z.string().min(1).max(BOUNDS.declaredToolNameMaxLength) }),
]);
export type ToolChoiceV2 = z.infer<typeof toolChoiceV2Schema>;

/** The shape the answer must take. */
export const responseFormatV2Schema = z.discriminatedUnion('type', [
  /** Free text (the default). */
  z.strictObject({ type: z.literal('text') }),
  /** A JSON value; with `schema`, one that validates against it. */
  z.strictObject({
    type: z.literal('json'),
    /** JSON Schema the answer must satisfy. Absent: any JSON object. */
    schema: z.record(z.string(), z.unknown()).optional(),
    /** Schema name, for dialects that require one. */
    name: z.string().min(1).max(BOUNDS.responseFormatNameMaxLength).regex(/^[A-Za-z0-9_-]+$/).optional(),
    /** Ask the provider to enforce the schema strictly. */
    strict: z.boolean().optional(),
  }),
]);
export type ResponseFormatV2 = z.infer<typeof responseFormatV2Schema>;

/** Sampling controls; an absent field leaves the provider's default. */
export const samplingV2Schema = z.strictObject({
  /** Temperature, 0 to 2 (dialects with a narrower range are clamped by documented rule). */
  temperature: z.number().min(BOUNDS.temperatureMin).max(BOUNDS.temperatureMax).optional(),
  /** Nucleus sampling mass, 0 to 1. */
  topP: z.number().min(BOUNDS.topPMin).max(BOUNDS.topPMax).optional(),
  /** Top-k sampling, a positive integer. */
  topK: z.number().int().positive().optional(),
  /** Frequency penalty, -2 to 2. */
  frequencyPenalty: z.number().min(BOUNDS.penaltyMin).max(BOUNDS.penaltyMax).optional(),
  /** Presence penalty, -2 to 2. */
  presencePenalty: z.number().min(BOUNDS.penaltyMin).max(BOUNDS.penaltyMax).optional(),
  /** Seed for best-effort determinism. */
  seed: z.number().int().optional(),
});
export type SamplingV2 = z.infer<typeof samplingV2Schema>;

/** Reasoning controls. Effort and budget are mapped between dialects by a documented rule. */
export const reasoningControlV2Schema = z.strictObject({
  /** Qualitative effort. */
  effort: z.enum(['minimal', 'low', 'medium', 'high']).optional(),
  /** Token budget for reasoning. */
  budgetTokens: z.number().int().nonnegative().optional(),
  /** Whether the provider should return reasoning text or summaries where it can. */
  includeReasoning: z.boolean().optional(),
});
export type ReasoningControlV2 = z.infer<typeof reasoningControlV2Schema>;

/** Prompt-caching controls at task level (part-level breakpoints live on the parts). */
export const cachingV2Schema = z.strictObject({
  /** Cache routing key for dialects that take one (OpenAI `prompt_cache_key`). */
  promptCacheKey: z.string().min(1).max(BOUNDS.promptCacheKeyMaxLength).optional(),
});

/** A conversation turn to complete. */
export const chatTaskV2Schema = z.strictObject({
  kind: z.literal('chat'),
  /** Optional host-supplied idempotency key. */
  idempotencyKey: idempotencyKeySchema.optional(),
  /** System instructions, as text parts (in order). */
  system: z.array(textPartV2Schema).optional(),
  /** The conversation so far; at least one message. */
  messages: z.array(chatMessageV2Schema).min(1),
  /** Tools the model may call. */
  tools: z.array(toolDefinitionV2Schema).optional(),
  /** How the model may use the tools. */
  toolChoice: toolChoiceV2Schema.optional(),
  /** Required shape of the answer. */
  responseFormat: responseFormatV2Schema.optional(),
  /** Sampling controls. */
  sampling: samplingV2Schema.optional(),
  /** Upper bound on output tokens (including reasoning where the provider counts it so). */
  maxOutputTokens: z.number().int().positive().optional(),
  /** Sequences that stop generation (at most 16). */
  stopSequences: z.array(z.string().min(1)).max(BOUNDS.stopSequencesMaxCount).optional(),
  /** Reasoning controls. */
  reasoning: reasoningControlV2Schema.optional(),
  /** Prompt-caching controls. */
  caching: cachingV2Schema.optional(),
  /** Stream the answer as normalized events. Requires a stream-capable target. */
  stream: z.boolean(),
});

/** Turn texts into vectors. */
export const embeddingTaskV2Schema = z.strictObject({
  kind: z.literal('embedding'),
  /** Optional host-supplied idempotency key. */
  idempotencyKey: idempotencyKeySchema.optional(),
  /** The texts to embed, in order; at least one, at most 2,048. */
  inputs: z.array(z.string().min(1)).min(1).max(2048),
  /** Requested output dimensions (models that can shorten vectors). */
  dimensions: z.number().int().positive().max(65_536).optional(),
});

/** Create images from a prompt. */
export const imageGenerationTaskV2Schema = z.strictObject({
  kind: z.literal('image-generation'),
  /** Optional host-supplied idempotency key. */
  idempotencyKey: idempotencyKeySchema.optional(),
  /** What to draw. */
  prompt: z.string().min(1).max(32_000),
  /** Text describing what to avoid, for dialects that take one. */
  negativePrompt: z.string().min(1).max(32_000).optional(),
  /** Number of images, 1 to 10. */
  count: z.number().int().min(1).max(10).optional(),
  /** Size as `WIDTHxHEIGHT` or `auto`. */
  size: z.string().regex(/^(?:auto|[1-9][0-9]{1,4}x[1-9][0-9]{1,4})$/).optional(),
  /** Quality tier (`low`, `medium`, `high`, `standard`, `hd`, `auto`). */
  quality: z.enum(['low', 'medium', 'high', 'standard', 'hd', 'auto']).optional(),
  /** Background handling. */
  background: z.enum(['transparent', 'opaque', 'auto']).optional(),
  /** Encoded image format. */
  outputFormat: z.enum(['png', 'jpeg', 'webp']).optional(),
  /** Whether images come back inline (`base64`) or as provider URLs (`url`). */
  delivery: z.enum(['base64', 'url']).optional(),
  /** Style hint, for dialects that take one. */
  style: z.string().min(1).max(64).optional(),
});

/** Edit images (the source images and optional mask arrive as prepared media). */
export const imageEditTaskV2Schema = z.strictObject({
  kind: z.literal('image-edit'),
  /** Optional host-supplied idempotency key. */
  idempotencyKey: idempotencyKeySchema.optional(),
  /** What to change. */
  prompt: z.string().min(1).max(32_000),
  /** Number of images, 1 to 10. */
  count: z.number().int().min(1).max(10).optional(),
  /** Size as `WIDTHxHEIGHT` or `auto`. */
  size: z.string().regex(/^(?:auto|[1-9][0-9]{1,4}x[1-9][0-9]{1,4})$/).optional(),
  /** Quality tier. */
  quality: z.enum(['low', 'medium', 'high', 'standard', 'hd', 'auto']).optional(),
  /** Background handling. */
  background: z.enum(['transparent', 'opaque', 'auto']).optional(),
  /** Encoded image format. */
  outputFormat: z.enum(['png', 'jpeg', 'webp']).optional(),
  /** Whether images come back inline (`base64`) or as provider URLs (`url`). */
  delivery: z.enum(['base64', 'url']).optional(),
});

/** Order documents by relevance to a query. */
export const rerankTaskV2Schema = z.strictObject({
  kind: z.literal('rerank'),
  /** Optional host-supplied idempotency key. */
  idempotencyKey: idempotencyKeySchema.optional(),
  /** The query. */
  query: z.string().min(1),
  /** The documents, in order; at least one, at most 10,000. */
  documents: z.array(z.string()).min(1).max(10_000),
  /** Return only the best `topN` results. */
  topN: z.number().int().positive().optional(),
});

/** Create a video (always an async job). */
export const videoGenerationTaskV2Schema = z.strictObject({
  kind: z.literal('video-generation'),
  /** Optional host-supplied idempotency key; async families pass it to the provider where it can. */
  idempotencyKey: idempotencyKeySchema.optional(),
  /** What the video shows; optional when an image drives it. */
  prompt: z.string().min(1).max(10_000).optional(),
  /** What to avoid. */
  negativePrompt: z.string().min(1).max(10_000).optional(),
  /** First-frame image (https URL or base64 without prefix) for image-to-video. */
  image: z.string().min(1).optional(),
  /** Last-frame image for dialects that take one. */
  imageTail: z.string().min(1).optional(),
  /** Length in seconds. */
  durationSeconds: z.number().positive().max(600).optional(),
  /** Aspect ratio such as `16:9`. */
  aspectRatio: z.string().regex(/^[1-9][0-9]?:[1-9][0-9]?$/).optional(),
  /** Resolution such as `1280x720` or `720p`. */
  resolution: z.string().min(2).max(16).optional(),
  /** Quality mode for dialects with tiers (`std`, `pro`). */
  mode: z.string().min(1).max(16).optional(),
  /** Creativity versus prompt adherence, 0 to 1, for dialects that take it. */
  guidance: z.number().min(0).max(1).optional(),
  /** Seed, for dialects that take one. */
  seed: z.number().int().nonnegative().optional(),
}).refine((task) => task.prompt !== undefined || task.image !== undefined, {
  message: 'a video task needs a prompt or an image',
});

/**
 * The normalized unit of work a host hands the engine. The raw client request never enters the engine.
 * Sync versus async is a property of the target's protocol family, not of the task kind.
 */
export const taskEnvelopeV2Schema = z.discriminatedUnion('kind', [
  chatTaskV2Schema,
  embeddingTaskV2Schema,
  imageGenerationTaskV2Schema,
  imageEditTaskV2Schema,
  rerankTaskV2Schema,
  videoGenerationTaskV2Schema,
]);
export type ChatTaskV2 = z.infer<typeof chatTaskV2Schema>;
export type EmbeddingTaskV2 = z.infer<typeof embeddingTaskV2Schema>;
export type ImageGenerationTaskV2 = z.infer<typeof imageGenerationTaskV2Schema>;
export type ImageEditTaskV2 = z.infer<typeof imageEditTaskV2Schema>;
export type RerankTaskV2 = z.infer<typeof rerankTaskV2Schema>;
export type VideoGenerationTaskV2 = z.infer<typeof videoGenerationTaskV2Schema>;
export type TaskEnvelopeV2 = z.infer<typeof taskEnvelopeV2Schema>;
