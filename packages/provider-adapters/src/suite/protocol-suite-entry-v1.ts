import type {
  EgressCodecV1,
  IngressCodecV1,
  ProtocolFamily,
  ProviderAdapterFactory,
  ProviderAsyncJobAdapterFactory,
  ProviderTransportMetadataV1,
} from '@tokenforge/model-protocol';
import type { RateLimitHeaderDialectV1 } from '../codec-kit/rate-limit-headers.js';

/** The ingress and egress codecs of a family that takes part in direct HTTP. */
export interface ProtocolSuiteCodecsV1 {
  /** Client requests in this dialect -> tasks. */
  readonly ingress: IngressCodecV1;
  /** Normalized outcomes -> this dialect's responses. */
  readonly egress: EgressCodecV1;
}

interface ProtocolSuiteEntryBaseV1 {
  /** The family this entry provides. */
  readonly protocolFamily: ProtocolFamily;
  /** How a host transport authenticates and which headers it always sends. */
  readonly transportMetadata: ProviderTransportMetadataV1;
}

/** A sync (or stream-capable) family. */
export interface SyncProtocolSuiteEntryV1 extends ProtocolSuiteEntryBaseV1 {
  readonly execution: 'sync';
  /** The adapter factory the registry's `require` returns. */
  readonly adapterFactory: ProviderAdapterFactory;
  /** Whether the family takes part in direct HTTP; must agree with `codecs`. */
  readonly directHttp: boolean;
  /** Present exactly when `directHttp` is true. */
  readonly codecs?: ProtocolSuiteCodecsV1;
  /**
   * Where the family's response heads put the provider's rate-limit facts, when its provider documents such
   * headers. A host that passes rate limits back to clients writes them in the client dialect's names from this.
   */
  readonly rateLimitHeaders?: RateLimitHeaderDialectV1;
}

/** An async job family. Async families do not take part in direct HTTP. */
export interface AsyncProtocolSuiteEntryV1 extends ProtocolSuiteEntryBaseV1 {
  readonly execution: 'async';
  /** The async adapter factory the registry's `requireAsync` returns. */
  readonly asyncAdapterFactory: ProviderAsyncJobAdapterFactory;
  /** Always false for async families. */
  readonly directHttp: boolean;
  /** Must be absent. */
  readonly codecs?: ProtocolSuiteCodecsV1;
}

/** One family of a protocol suite. */
export type ProtocolSuiteEntryV1 = SyncProtocolSuiteEntryV1 | AsyncProtocolSuiteEntryV1;
