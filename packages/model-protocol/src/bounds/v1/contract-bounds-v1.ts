/**
 * The numeric bounds of the normalized contracts, written once. The zod schemas of model-protocol, the engine's
 * hand-written fast checks and the adapters' wire readers all import them, so a bound cannot drift between the
 * schema and a fast path (a fast path that accepts what the schema refuses is the unsafe direction). Changing a
 * value here changes a frozen contract: it needs a new version beside this one, not an edit.
 *
 * Lengths count UTF-16 code units (`String.prototype.length`, as zod's `min` / `max` do); ranges are inclusive.
 */
export const CONTRACT_BOUNDS_V1 = Object.freeze({
  /** Longest tool-call id (`toolCallId` of tool-call and tool-result parts and of `tool-call-start` events). */
  toolCallIdMaxLength: 512,
  /** Longest tool name on a call or result (`toolName` of parts, results and `tool-call-start` events). */
  toolNameMaxLength: 256,
  /** Longest declared tool name (`tools[].name` of a chat task, `toolChoice.toolName`). */
  declaredToolNameMaxLength: 128,
  /** Longest declared tool description (`tools[].description`). */
  toolDescriptionMaxLength: 16_384,
  /** Largest block index of a normalized stream event. */
  streamIndexMax: 1_000_000,
  /** Longest provider request id and provider model of response metadata and acceptance facts. */
  providerIdentifierMaxLength: 256,
  /** Longest idempotency key of a task. */
  idempotencyKeyMaxLength: 128,
  /** Largest cache-control time to live, in seconds. */
  cacheTtlSecondsMax: 86_400,
  /** Longest document title of a chat content part. */
  documentTitleMaxLength: 1024,
  /** Longest media URL of a chat content part. */
  mediaUrlMaxLength: 32_768_000,
  /** Shortest media type of a base64 media source (`a/b`). */
  mediaTypeMinLength: 3,
  /** Longest media type of a base64 media source or a generated image. */
  mediaTypeMaxLength: 255,
  /** Longest prompt cache key (`caching.promptCacheKey`). */
  promptCacheKeyMaxLength: 256,
  /** Longest JSON response format name (`responseFormat.name`). */
  responseFormatNameMaxLength: 64,
  /** Most stop sequences of a chat task. */
  stopSequencesMaxCount: 16,
  /** Largest retry-after hint of a failure, in milliseconds (one day). */
  retryAfterMsMax: 86_400_000,
  /** Longest provider error code of a failure and raw finish reason of a terminal. */
  providerCodeMaxLength: 64,
  /** Sampling `temperature` range. */
  temperatureMin: 0,
  temperatureMax: 2,
  /** Sampling `topP` range. */
  topPMin: 0,
  topPMax: 1,
  /** Sampling `frequencyPenalty` and `presencePenalty` range. */
  penaltyMin: -2,
  penaltyMax: 2,
});

/** The type of {@link CONTRACT_BOUNDS_V1}. */
export type ContractBoundsV1 = typeof CONTRACT_BOUNDS_V1;
