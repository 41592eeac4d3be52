import { z } from 'zod';
import { protocolFamilySchema } from '../../protocol-family/protocol-family.js';
import { taskKindV2Schema } from '../../task/v2/task-envelope-v2.js';

/**
 * How a protocol family executes. This declaration, never the task kind, decides whether the engine
 * asks the registry for a sync adapter (`require`) or an async job adapter (`requireAsync`).
 * - `sync`: one request, one complete response;
 * - `stream-capable`: sync, and may also stream normalized events when the task asks;
 * - `async-job`: the provider accepts a job that is observed later (get, list, cancel).
 */
export const EXECUTION_MODES_V2 = ['sync', 'stream-capable', 'async-job'] as const;
export type ExecutionModeV2 = (typeof EXECUTION_MODES_V2)[number];

/** The embedding space a target produces vectors in. Vectors of different spaces must never be mixed. */
export const embeddingSpaceV2Schema = z.strictObject({
  /** Opaque identity of the encoder (host catalogue id); two targets with equal ids produce comparable vectors. */
  spaceId: z.string().min(1).max(256),
  /** The dimensions the target returns by default. */
  defaultDimensions: z.number().int().positive().max(65_536),
  /** Other dimensions the task may request (models that can shorten vectors). Absent: only the default. */
  allowedDimensions: z.array(z.number().int().positive().max(65_536)).optional(),
  /** Whether vectors come back unit-normalized. */
  normalized: z.boolean().optional(),
  /** Most inputs in one request. */
  maxInputs: z.number().int().positive().optional(),
});
export type EmbeddingSpaceV2 = z.infer<typeof embeddingSpaceV2Schema>;

/**
 * What a resolved target can do. The engine checks every task against it before any transport work.
 * Every boolean that is absent means "not supported".
 */
export const protocolCapabilityV2Schema = z.strictObject({
  /** The wire dialect the target speaks; the dispatch key. */
  protocolFamily: protocolFamilySchema,
  /** How the family executes (see {@link EXECUTION_MODES_V2}). */
  executionMode: z.enum(EXECUTION_MODES_V2),
  /** Task kinds the target accepts; at least one, no repeats. */
  taskKinds: z.array(taskKindV2Schema).min(1),
  /** Tool definitions and tool choice. */
  tools: z.boolean().optional(),
  /** Image parts in chat input. */
  imageInput: z.boolean().optional(),
  /** Document (PDF) parts in chat input. */
  documentInput: z.boolean().optional(),
  /** Audio parts in chat input. */
  audioInput: z.boolean().optional(),
  /** Reasoning controls and reasoning replay. */
  reasoning: z.boolean().optional(),
  /** JSON-schema response format. */
  structuredOutput: z.boolean().optional(),
  /** A provider callback URL for async jobs. */
  callbackUrl: z.boolean().optional(),
  /** The embedding space, required when `taskKinds` holds `embedding`. */
  embedding: embeddingSpaceV2Schema.optional(),
  /** Largest total bytes of prepared media the target accepts (image edits). */
  maxPreparedMediaBytes: z.number().int().positive().optional(),
});
export type ProtocolCapabilityV2 = z.infer<typeof protocolCapabilityV2Schema>;
