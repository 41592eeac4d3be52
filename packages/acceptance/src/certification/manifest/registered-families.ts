import type { ProtocolFamily, ProviderAuthSchemeV1 } from '@tokenforge/model-protocol';
import type { ProtocolEngineV1 } from '@tokenforge/protocol-engine';
import type { TokenForgeProtocolSuiteV1 } from '@tokenforge/provider-adapters';

/** What certification needs to know about one family the engine registers. */
export interface RegisteredFamilyV1 {
  readonly protocolFamily: ProtocolFamily;
  /** `sync` (sync and stream targets) or `async` (job targets). */
  readonly execution: 'sync' | 'async';
  /** The job operations an async family declares (empty for sync families). */
  readonly jobOperations: readonly string[];
  /** The family's auth scheme, which decides the credential shape. */
  readonly authScheme: ProviderAuthSchemeV1['scheme'];
}

/**
 * The families of `engine.protocolFamilies` (the dispatch authority), with facts from the suite the engine was built
 * from. A family the engine lists but the suite lacks is reported with execution `sync` and no operations, so
 * validation flags its cases instead of crashing.
 */
export function registeredFamiliesOf(engine: Pick<ProtocolEngineV1, 'protocolFamilies'>, suite: TokenForgeProtocolSuiteV1): readonly RegisteredFamilyV1[] {
  return engine.protocolFamilies.map((protocolFamily) => {
    const entry = suite.entries.find((candidate) => candidate.protocolFamily === protocolFamily);
    if (entry === undefined) return { protocolFamily, execution: 'sync', jobOperations: [], authScheme: 'bearer' };
    return {
      protocolFamily,
      execution: entry.execution,
      jobOperations: entry.execution === 'async' ? [...entry.asyncAdapterFactory.jobOperations] : [],
      authScheme: entry.transportMetadata.auth.scheme,
    };
  });
}
