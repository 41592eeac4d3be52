import { z } from 'zod';
import { CONTRACT_BOUNDS_V3 as BOUNDS } from '../../bounds/v3/contract-bounds-v3.js';

const figure = z.number().int().nonnegative().max(BOUNDS.rateLimitFigureMax);

/** One rate-limit dimension as the provider reported it in its response head. */
export const rateLimitWindowV3Schema = z.strictObject({
  /** The most the window allows. */
  limit: figure.optional(),
  /** What is left in the window. */
  remaining: figure.optional(),
  /** Milliseconds until the window resets (relative to the response head). */
  resetMs: z.number().int().nonnegative().max(BOUNDS.rateLimitResetMsMax).optional(),
});
export type RateLimitWindowV3 = z.infer<typeof rateLimitWindowV3Schema>;

/**
 * The operator's provider quota as the response head reported it, normalized across dialects
 * (`x-ratelimit-*`, `anthropic-ratelimit-*` and the like). It describes the operator's account, not the client's.
 */
export const providerRateLimitsV3Schema = z.strictObject({
  /** Requests per window. */
  requests: rateLimitWindowV3Schema.optional(),
  /** Tokens per window (input and output together). */
  tokens: rateLimitWindowV3Schema.optional(),
  /** Input tokens per window. */
  inputTokens: rateLimitWindowV3Schema.optional(),
  /** Output tokens per window. */
  outputTokens: rateLimitWindowV3Schema.optional(),
  /** How long the provider asked callers to wait, in milliseconds (`retry-after`, `retry-after-ms`). */
  retryAfterMs: z.number().int().nonnegative().max(BOUNDS.retryAfterMsMax).optional(),
});
export type ProviderRateLimitsV3 = z.infer<typeof providerRateLimitsV3Schema>;

/**
 * Operator-facing facts about the provider response, V3 revision: the V1 members and the rate-limit facts.
 * No body, no raw headers, never credentials. Every V1 metadata value is a V3 one.
 */
export const providerResponseMetadataV3Schema = z.strictObject({
  /** The provider's request id (from its response headers), for support tickets. */
  providerRequestId: z.string().min(1).max(BOUNDS.providerIdentifierMaxLength).optional(),
  /** The model name the provider reported serving. */
  providerModel: z.string().min(1).max(BOUNDS.providerIdentifierMaxLength).optional(),
  /** Rate-limit facts from the response head, when the provider sent any. */
  rateLimits: providerRateLimitsV3Schema.optional(),
});
export type ProviderResponseMetadataV3 = z.infer<typeof providerResponseMetadataV3Schema>;
