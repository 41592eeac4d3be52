import { z } from 'zod';
import { CONTRACT_BOUNDS_V3 as BOUNDS } from '../../bounds/v3/contract-bounds-v3.js';
import { taskResultV3Schema } from '../../result/v3/task-result-v3.js';
import { usageV3Schema } from '../../usage/v3/usage-v3.js';
import { finishReasonV1Schema } from '../v1/adapter-terminal-outcome.js';
import { normalizedProviderFailureV1Schema, PROVIDER_FAILURE_CODES_V1 } from '../v1/provider-failure-v1.js';

/**
 * The failure vocabulary of the V3 revision: every V1 code, plus `output-schema-mismatch` (the final output does
 * not match the schema the task asked for; set by the engine's terminal check, never retried by the engine).
 */
export const PROVIDER_FAILURE_CODES_V3 = [...PROVIDER_FAILURE_CODES_V1, 'output-schema-mismatch'] as const;
export type ProviderFailureCodeV3 = (typeof PROVIDER_FAILURE_CODES_V3)[number];

/** A failure in normalized form, V3 vocabulary. The same members and rules as V1. */
export const normalizedProviderFailureV3Schema = normalizedProviderFailureV1Schema.extend({
  /** The normalized failure code. */
  code: z.enum(PROVIDER_FAILURE_CODES_V3),
});
export type NormalizedProviderFailureV3 = z.infer<typeof normalizedProviderFailureV3Schema>;

/** A cost the provider itself reported for the request: integer micro-units of an ISO 4217 currency. */
export const providerReportedCostV3Schema = z.strictObject({
  /** The amount in millionths of the currency unit. */
  amountMicros: z.number().int().nonnegative().max(BOUNDS.costMicrosMax),
  /** ISO 4217 code, upper case (for example `USD`). */
  currency: z.string().regex(/^[A-Z]{3}$/),
});
export type ProviderReportedCostV3 = z.infer<typeof providerReportedCostV3Schema>;

/**
 * How a sync or stream execution ended, V3 revision: V3 results, usage and failures, and the provider-reported
 * cost beside usage. Every V1 terminal is a V3 terminal.
 */
export const adapterTerminalOutcomeV3Schema = z.discriminatedUnion('status', [
  z.strictObject({
    status: z.literal('completed'),
    /** The result; its kind equals the task kind. */
    result: taskResultV3Schema,
    /** Why generation stopped (chat only). */
    finishReason: finishReasonV1Schema.optional(),
    /** Final usage, when reported. */
    usage: usageV3Schema.optional(),
    /** The cost the provider reported, when it reported one (never computed by the engine). */
    cost: providerReportedCostV3Schema.optional(),
  }),
  z.strictObject({
    status: z.literal('failed'),
    /** What went wrong. */
    failure: normalizedProviderFailureV3Schema,
    /** Usage the provider reported before failing, if any. */
    usage: usageV3Schema.optional(),
  }),
  z.strictObject({
    status: z.literal('cancelled'),
  }),
]);
export type AdapterTerminalOutcomeV3 = z.infer<typeof adapterTerminalOutcomeV3Schema>;

/**
 * Host-private detail of a codec failure: which rule refused, where (a JSON path or an SSE line number) and what
 * was expected, never the offending value. It is not a fact: it never enters a terminal, an event or evidence,
 * and reaches only the host's diagnostics callback and the non-enumerable cause of engine errors.
 */
export const providerDiagnosticV3Schema = z.strictObject({
  /** The failure code of the terminal or error this explains. */
  code: z.enum(PROVIDER_FAILURE_CODES_V3),
  /** The rule that refused, in words (for example `usage snapshot decreased`). */
  rule: z.string().min(1).max(BOUNDS.diagnosticTextMaxLength),
  /** Where: a JSON path (`choices[0].delta.tool_calls[1].id`) or `sse line 42`. */
  location: z.string().min(1).max(BOUNDS.diagnosticTextMaxLength).optional(),
  /** What was expected there (for example `a string of at most 512 characters`). */
  expected: z.string().min(1).max(BOUNDS.diagnosticTextMaxLength).optional(),
  /** The provider's request id, so an operator can quote it to the provider. */
  providerRequestId: z.string().min(1).max(BOUNDS.providerIdentifierMaxLength).optional(),
});
export type ProviderDiagnosticV3 = z.infer<typeof providerDiagnosticV3Schema>;
