import { z } from 'zod';
import { CONTRACT_BOUNDS_V1 as BOUNDS } from '../../bounds/v1/contract-bounds-v1.js';

/**
 * The normalized vocabulary of provider failures. Each family maps its HTTP statuses, error types and
 * mid-stream errors onto it.
 */
export const PROVIDER_FAILURE_CODES_V1 = [
  'rate-limited',
  'quota-exceeded',
  'overloaded',
  'context-length-exceeded',
  'content-filtered',
  'invalid-request',
  'authentication',
  'permission-denied',
  'not-found',
  'unsupported',
  'conflict',
  'timeout',
  'network',
  'provider-error',
  'truncated-stream',
  'protocol-violation',
] as const;
export type ProviderFailureCodeV1 = (typeof PROVIDER_FAILURE_CODES_V1)[number];

/**
 * A provider failure in normalized form. Carries no provider message, body, HTTP status, prompt or
 * identifiers: only what a host needs to decide what to do next.
 */
export const normalizedProviderFailureV1Schema = z.strictObject({
  /** The normalized failure code. */
  code: z.enum(PROVIDER_FAILURE_CODES_V1),
  /** Whether sending the same request again may succeed. */
  retryable: z.boolean(),
  /** How long the provider asked the caller to wait, in milliseconds (from `Retry-After` or its own hint). */
  retryAfterMs: z.number().int().nonnegative().max(BOUNDS.retryAfterMsMax).optional(),
  /**
   * The provider's own error code or type, when it sent one, bounded to 64 characters of
   * `[A-Za-z0-9_.:-]` (for diagnosis; never a message).
   */
  providerCode: z
    .string()
    .min(1)
    .max(BOUNDS.providerCodeMaxLength)
    .regex(/^[A-Za-z0-9_.:-]+$/)
    .optional(),
});
export type NormalizedProviderFailureV1 = z.infer<typeof normalizedProviderFailureV1Schema>;
