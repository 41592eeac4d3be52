import { z } from 'zod';
import { CONTRACT_BOUNDS_V1 as BOUNDS } from '../../bounds/v1/contract-bounds-v1.js';

/** Text the model produced. */
export const outputTextPartV1Schema = z.strictObject({
  type: z.literal('text'),
  /** The whole text of the block. */
  text: z.string(),
});
/** Reasoning the model produced. */
export const outputReasoningPartV1Schema = z.strictObject({
  type: z.literal('reasoning'),
  /** Reasoning text or summary (may be empty when the provider only returned a signature). */
  text: z.string(),
  /** Opaque signature or encrypted content, to replay unmodified. */
  signature: z.string().min(1).optional(),
});
/** Reasoning the provider returned only in encrypted form. */
export const outputRedactedReasoningPartV1Schema = z.strictObject({
  type: z.literal('redacted-reasoning'),
  /** Opaque provider data, to replay unmodified. */
  data: z.string().min(1),
});
/** A tool call the model made. */
export const outputToolCallPartV1Schema = z.strictObject({
  type: z.literal('tool-call'),
  /** The provider's call id (or one the adapter derived by its documented rule when the provider sent none). */
  toolCallId: z.string().min(1).max(BOUNDS.toolCallIdMaxLength),
  /** Name of the called tool. */
  toolName: z.string().min(1).max(BOUNDS.toolNameMaxLength),
  /** Complete argument JSON text. */
  argumentsText: z.string(),
  /** Opaque provider state attached to the call (Gemini thought signature). */
  signature: z.string().min(1).optional(),
});
/** A refusal the model gave instead of an answer. */
export const outputRefusalPartV1Schema = z.strictObject({
  type: z.literal('refusal'),
  /** The refusal text. */
  text: z.string(),
});

/** One block of a chat answer. */
export const chatOutputPartV1Schema = z.discriminatedUnion('type', [
  outputTextPartV1Schema,
  outputReasoningPartV1Schema,
  outputRedactedReasoningPartV1Schema,
  outputToolCallPartV1Schema,
  outputRefusalPartV1Schema,
]);
export type ChatOutputPartV1 = z.infer<typeof chatOutputPartV1Schema>;

/** The answer to a chat task: its blocks in block-index order. */
export const chatResultV1Schema = z.strictObject({
  kind: z.literal('chat'),
  /** The blocks, in the order of their stream `index`. */
  content: z.array(chatOutputPartV1Schema),
});
export type ChatResultV1 = z.infer<typeof chatResultV1Schema>;

/** The answer to an embedding task. */
export const embeddingResultV1Schema = z.strictObject({
  kind: z.literal('embedding'),
  /** One vector per input, in input order. */
  vectors: z.array(z.instanceof(Float32Array)),
  /** Length of every vector. */
  dimensions: z.number().int().positive().max(65_536),
  /** The embedding space the vectors belong to (from the target's capability). */
  spaceId: z.string().min(1).max(256).optional(),
});
export type EmbeddingResultV1 = z.infer<typeof embeddingResultV1Schema>;

/** One produced image: inline bytes or a provider URL. */
export const generatedImageV1Schema = z.strictObject({
  /** Base64 image bytes, when delivered inline. */
  base64: z.string().min(1).optional(),
  /** https URL of the image, when delivered by reference (no userinfo). */
  url: z.string().min(1).max(8192).optional(),
  /** IANA media type, when known. */
  mediaType: z.string().min(BOUNDS.mediaTypeMinLength).max(BOUNDS.mediaTypeMaxLength).optional(),
  /** The prompt the provider actually used, when it rewrote it. */
  revisedPrompt: z.string().optional(),
});
/** The answer to an image generation or edit task. */
export const imageResultV1Schema = z.strictObject({
  kind: z.enum(['image-generation', 'image-edit']),
  /** The images, at least one. */
  images: z.array(generatedImageV1Schema).min(1),
});
export type ImageResultV1 = z.infer<typeof imageResultV1Schema>;

/** One ranked document. */
export const rerankItemV1Schema = z.strictObject({
  /** Index into the task's `documents`. */
  index: z.number().int().nonnegative(),
  /** Relevance score, finite. Higher is more relevant. */
  relevanceScore: z.number().finite(),
});
/** The answer to a rerank task, most relevant first. */
export const rerankResultV1Schema = z.strictObject({
  kind: z.literal('rerank'),
  /** Ranked documents, descending score, each index at most once. */
  results: z.array(rerankItemV1Schema),
});
export type RerankResultV1 = z.infer<typeof rerankResultV1Schema>;

/** A media asset produced by an async job. */
export const jobMediaV2Schema = z.strictObject({
  /** What the asset is. */
  type: z.enum(['video', 'image']),
  /** https URL of the asset (no userinfo). */
  url: z.string().min(1).max(8192),
  /** Duration in seconds (videos). */
  durationSeconds: z.number().nonnegative().optional(),
});
export type JobMediaV2 = z.infer<typeof jobMediaV2Schema>;

/** The result of a sync or stream execution; its `kind` equals the task kind. */
export const taskResultV1Schema = z.discriminatedUnion('kind', [
  chatResultV1Schema,
  embeddingResultV1Schema,
  imageResultV1Schema,
  rerankResultV1Schema,
]);
export type TaskResultV1 = z.infer<typeof taskResultV1Schema>;
