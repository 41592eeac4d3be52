import { CONTRACT_BOUNDS_V1 } from '../v1/contract-bounds-v1.js';

/**
 * The bounds of the V3 revision: every V1 bound unchanged, plus the bounds of the members this revision adds.
 * The same rules as {@link CONTRACT_BOUNDS_V1} apply: one place, imported by schemas, fast paths and readers.
 */
export const CONTRACT_BOUNDS_V3 = Object.freeze({
  ...CONTRACT_BOUNDS_V1,
  /** Longest end-user identifier of a chat task (`endUserId`). */
  endUserIdMaxLength: 1024,
  /** Most hosted tools a chat task may offer. */
  hostedToolsMaxCount: 16,
  /** Most domains in a hosted web-search tool's allow or block list. */
  hostedToolDomainsMaxCount: 256,
  /** Longest domain of a hosted web-search tool's allow or block list. */
  hostedToolDomainMaxLength: 253,
  /** Most tool names a context-management edit may exclude. */
  contextManagementExcludedToolsMaxCount: 256,
  /** Longest service tier name of usage. */
  serviceTierMaxLength: 64,
  /** Largest rate-limit figure (limit or remaining). */
  rateLimitFigureMax: Number.MAX_SAFE_INTEGER,
  /** Largest rate-limit reset delay, in milliseconds (one week). */
  rateLimitResetMsMax: 604_800_000,
  /** Largest provider-reported cost, in micro-units of its currency. */
  costMicrosMax: Number.MAX_SAFE_INTEGER,
  /** Longest host-private diagnostic rule, path or expectation text. */
  diagnosticTextMaxLength: 512,
  /** Deepest nesting the output-schema validator follows (schema and value together). */
  outputSchemaMaxDepth: 128,
  /** Most single checks the output-schema validator makes for one output (bounds `anyOf` and `$ref` blow-ups). */
  outputSchemaMaxSteps: 200_000,
});

/** The type of {@link CONTRACT_BOUNDS_V3}. */
export type ContractBoundsV3 = typeof CONTRACT_BOUNDS_V3;
