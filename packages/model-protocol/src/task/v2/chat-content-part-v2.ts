import { z } from 'zod';
import { CONTRACT_BOUNDS_V1 as BOUNDS } from '../../bounds/v1/contract-bounds-v1.js';

/** A prompt-caching hint on a content part: a cache breakpoint after this part. */
export const cacheControlV2Schema = z.strictObject({
  /** Only `ephemeral` is defined: the provider may cache the prefix ending at this part. */
  type: z.literal('ephemeral'),
  /** Optional time to live the host asks for, in seconds (providers round to what they offer). */
  ttlSeconds: z.number().int().positive().max(BOUNDS.cacheTtlSecondsMax).optional(),
});
export type CacheControlV2 = z.infer<typeof cacheControlV2Schema>;

/** Where the bytes of an image, document or audio part come from. */
export const mediaSourceV2Schema = z.discriminatedUnion('type', [
  z.strictObject({
    /** The media is fetched by the provider from this https URL (or a `data:` URL). */
    type: z.literal('url'),
    /** Absolute URL; `https:` or `data:` only. */
    url: z.string().min(1).max(BOUNDS.mediaUrlMaxLength),
  }),
  z.strictObject({
    /** The media is inline, base64 encoded. */
    type: z.literal('base64'),
    /** IANA media type, for example `image/png` or `application/pdf`. */
    mediaType: z.string().min(BOUNDS.mediaTypeMinLength).max(BOUNDS.mediaTypeMaxLength),
    /** Standard base64 (RFC 4648 section 4) without a `data:` prefix. */
    data: z.string().min(1),
  }),
]);
export type MediaSourceV2 = z.infer<typeof mediaSourceV2Schema>;

/** Plain text. */
export const textPartV2Schema = z.strictObject({
  type: z.literal('text'),
  /** The text, possibly empty. */
  text: z.string(),
  /** Optional prompt-caching breakpoint after this part. */
  cacheControl: cacheControlV2Schema.optional(),
});

/** An image the model should look at (user messages and tool results). */
export const imagePartV2Schema = z.strictObject({
  type: z.literal('image'),
  /** Where the image bytes come from. */
  source: mediaSourceV2Schema,
  /** Optional detail hint (`low`, `high`, `auto`) for dialects that take one. */
  detail: z.enum(['low', 'high', 'auto']).optional(),
  /** Optional prompt-caching breakpoint after this part. */
  cacheControl: cacheControlV2Schema.optional(),
});

/** A document such as a PDF. */
export const documentPartV2Schema = z.strictObject({
  type: z.literal('document'),
  /** Where the document bytes come from. */
  source: mediaSourceV2Schema,
  /** Optional title or file name shown to the model. */
  title: z.string().max(BOUNDS.documentTitleMaxLength).optional(),
  /** Optional prompt-caching breakpoint after this part. */
  cacheControl: cacheControlV2Schema.optional(),
});

/** Audio input, inline only. */
export const audioPartV2Schema = z.strictObject({
  type: z.literal('audio'),
  /** Inline base64 audio; the media type says the format (`audio/wav`, `audio/mpeg`). */
  source: mediaSourceV2Schema,
});

/** A tool call the assistant made earlier in the conversation. */
export const toolCallPartV2Schema = z.strictObject({
  type: z.literal('tool-call'),
  /** The call id the provider assigned (or the host synthesized); tool results link to it. */
  toolCallId: z.string().min(1).max(BOUNDS.toolCallIdMaxLength),
  /** Name of the called tool. */
  toolName: z.string().min(1).max(BOUNDS.toolNameMaxLength),
  /** The arguments as JSON text, exactly as the model produced them. */
  argumentsText: z.string(),
  /**
   * Opaque provider state attached to the call (for example a Gemini thought signature) that must be
   * replayed unmodified to the same protocol family.
   */
  signature: z.string().min(1).optional(),
});

/** A thought the assistant produced earlier (reasoning replay). */
export const reasoningPartV2Schema = z.strictObject({
  type: z.literal('reasoning'),
  /** Reasoning text or summary; may be empty when only the signature matters. */
  text: z.string(),
  /** Opaque signature or encrypted content the provider requires unmodified on replay. */
  signature: z.string().min(1).optional(),
});

/** Reasoning the provider returned only in encrypted form; replayed unmodified. */
export const redactedReasoningPartV2Schema = z.strictObject({
  type: z.literal('redacted-reasoning'),
  /** Opaque provider data. */
  data: z.string().min(1),
});

/** Content allowed inside a tool result. */
export const toolResultContentPartV2Schema = z.discriminatedUnion('type', [textPartV2Schema, imagePartV2Schema]);
export type ToolResultContentPartV2 = z.infer<typeof toolResultContentPartV2Schema>;

/** The result of a tool call, sent back to the model. */
export const toolResultPartV2Schema = z.strictObject({
  type: z.literal('tool-result'),
  /** Id of the tool call this answers. */
  toolCallId: z.string().min(1).max(BOUNDS.toolCallIdMaxLength),
  /** Name of the tool (required by dialects that link results by name, such as Gemini). */
  toolName: z.string().min(1).max(BOUNDS.toolNameMaxLength),
  /** The result content: text and images. */
  content: z.array(toolResultContentPartV2Schema),
  /** True when the tool failed and the content describes the error. */
  isError: z.boolean().optional(),
});

/** Any part of a chat message. Which roles may hold which parts is checked by the task schema. */
export const chatContentPartV2Schema = z.discriminatedUnion('type', [
  textPartV2Schema,
  imagePartV2Schema,
  documentPartV2Schema,
  audioPartV2Schema,
  toolCallPartV2Schema,
  toolResultPartV2Schema,
  reasoningPartV2Schema,
  redactedReasoningPartV2Schema,
]);
export type ChatContentPartV2 = z.infer<typeof chatContentPartV2Schema>;
export type TextPartV2 = z.infer<typeof textPartV2Schema>;
export type ImagePartV2 = z.infer<typeof imagePartV2Schema>;
export type DocumentPartV2 = z.infer<typeof documentPartV2Schema>;
export type AudioPartV2 = z.infer<typeof audioPartV2Schema>;
export type ToolCallPartV2 = z.infer<typeof toolCallPartV2Schema>;
export type ToolResultPartV2 = z.infer<typeof toolResultPartV2Schema>;
export type ReasoningPartV2 = z.infer<typeof reasoningPartV2Schema>;
export type RedactedReasoningPartV2 = z.infer<typeof redactedReasoningPartV2Schema>;
