import { z } from 'zod';
import { CONTRACT_BOUNDS_V1 as BOUNDS } from '../../bounds/v1/contract-bounds-v1.js';
import { taskResultV1Schema } from '../../result/v1/task-result-v1.js';
import { usageV1Schema } from '../../usage/v1/usage-v1.js';
import { normalizedProviderFailureV1Schema } from './provider-failure-v1.js';

/** Why generation stopped, unified across dialects, with the provider's raw value kept. */
export const FINISH_REASONS_V1 = ['stop', 'length', 'tool-calls', 'content-filter', 'refusal', 'other'] as const;
export type UnifiedFinishReasonV1 = (typeof FINISH_REASONS_V1)[number];

export const finishReasonV1Schema = z.strictObject({
  /** The unified reason. An unknown provider value is `other`, never a guess. */
  unified: z.enum(FINISH_REASONS_V1),
  /** The provider's own value (bounded, for diagnosis and same-dialect egress). */
  raw: z
    .string()
    .max(BOUNDS.providerCodeMaxLength)
    .regex(/^[A-Za-z0-9_.:-]*$/)
    .optional(),
});
export type FinishReasonV1 = z.infer<typeof finishReasonV1Schema>;

/**
 * How a sync or stream execution ended.
 * - `completed`: a result of the task's kind; chat results carry a finish reason.
 * - `failed`: a normalized provider failure (a fact, not an exception).
 * - `cancelled`: the host aborted.
 */
export const adapterTerminalOutcomeSchema = z.discriminatedUnion('status', [
  z.strictObject({
    status: z.literal('completed'),
    /** The result; its kind equals the task kind. */
    result: taskResultV1Schema,
    /** Why generation stopped (chat only). */
    finishReason: finishReasonV1Schema.optional(),
    /** Final usage, when reported. */
    usage: usageV1Schema.optional(),
  }),
  z.strictObject({
    status: z.literal('failed'),
    /** What went wrong. */
    failure: normalizedProviderFailureV1Schema,
    /** Usage the provider reported before failing, if any. */
    usage: usageV1Schema.optional(),
  }),
  z.strictObject({
    status: z.literal('cancelled'),
  }),
]);
export type AdapterTerminalOutcome = z.infer<typeof adapterTerminalOutcomeSchema>;
