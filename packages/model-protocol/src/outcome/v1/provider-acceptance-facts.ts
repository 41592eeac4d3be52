import { z } from 'zod';
import { CONTRACT_BOUNDS_V1 as BOUNDS } from '../../bounds/v1/contract-bounds-v1.js';

/**
 * Whether the provider took the request on.
 * - `accepted`: the provider answered and took the request (a sync answer, or a job id);
 * - `not-accepted`: provably never reached the provider, or the provider definitively refused it;
 * - `unknown`: it may have been accepted (timeout or connection loss after send, 5xx, unreadable 2xx body).
 *   A host must not blindly resend an `unknown` async start: it could create a duplicate paid job.
 */
export const providerAcceptanceFactsSchema = z.strictObject({
  /** The acceptance state. */
  state: z.enum(['accepted', 'not-accepted', 'unknown']),
});
export type ProviderAcceptanceFacts = z.infer<typeof providerAcceptanceFactsSchema>;

/**
 * Facts about the provider response a host may log or show its operators. No body, no headers beyond
 * these, never credentials.
 */
export const providerResponseMetadataSchema = z.strictObject({
  /** The provider's request id (from its response headers), for support tickets. */
  providerRequestId: z.string().min(1).max(BOUNDS.providerIdentifierMaxLength).optional(),
  /** The model name the provider reported serving, when it reported one in the response head or body. */
  providerModel: z.string().min(1).max(BOUNDS.providerIdentifierMaxLength).optional(),
});
export type ProviderResponseMetadata = z.infer<typeof providerResponseMetadataSchema>;
