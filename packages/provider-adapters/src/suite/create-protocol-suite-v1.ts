import {
  ASYNC_JOB_OPERATIONS_V1,
  isProtocolFamily,
  providerTransportMetadataV1Schema,
  type ProtocolFamily,
  type ProviderAdapterFactory,
  type ProviderAsyncJobAdapterFactory,
  type ProviderTransportMetadataV1,
} from '@tokenforge/model-protocol';
import type { ProtocolSuiteCodecsV1, ProtocolSuiteEntryV1 } from './protocol-suite-entry-v1.js';
import { ProtocolSuiteErrorV1 } from './protocol-suite-error-v1.js';

/**
 * The adapter registry of a suite. Structurally the engine's `ProtocolEngineAdapterRegistryPortV1`, with
 * `requireAsync` always present: pass it to `createProtocolEngineV1({ registry })`.
 */
export interface ProtocolSuiteRegistryV1 {
  /** Every family of the suite, sorted. */
  listProtocolFamilies(): readonly ProtocolFamily[];
  /** The sync adapter factory of a sync family; throws `family-not-registered` for any other family. */
  require(protocolFamily: ProtocolFamily): ProviderAdapterFactory;
  /** The async adapter factory of an async family; throws `family-not-registered` for any other family. */
  requireAsync(protocolFamily: ProtocolFamily): ProviderAsyncJobAdapterFactory;
}

/** A validated, immutable set of protocol families: adapters, transport metadata and direct-HTTP codecs. */
export interface TokenForgeProtocolSuiteV1 {
  /** The registry an engine consumes. */
  readonly registry: ProtocolSuiteRegistryV1;
  /** The validated entries, in the order given, frozen. */
  readonly entries: readonly ProtocolSuiteEntryV1[];
  /** The transport metadata of a family (validated, frozen); throws `family-not-registered` for unknown families. */
  transportMetadataFor(protocolFamily: ProtocolFamily): ProviderTransportMetadataV1;
  /**
   * The ingress and egress codecs of a family that takes part in direct HTTP, `undefined` for a family that does
   * not; throws `family-not-registered` for unknown families.
   */
  codecsFor(protocolFamily: ProtocolFamily): ProtocolSuiteCodecsV1 | undefined;
}

/** Input of {@link createTokenForgeProtocolSuiteV1}. */
export interface CreateTokenForgeProtocolSuiteInputV1 {
  /** One entry per family. */
  readonly entries: readonly ProtocolSuiteEntryV1[];
}

type Location = { readonly entryIndex: number; readonly protocolFamily?: unknown };

/** Any non-null object (arrays included): enough to read named members of a host-supplied entry. */
function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

function checkFactory(factory: unknown, location: Location, entryFamily: ProtocolFamily): void {
  if (!isObject(factory) || typeof factory.createAdapter !== 'function') {
    throw new ProtocolSuiteErrorV1('adapter-factory-invalid', 'an adapter factory needs a createAdapter function', location);
  }
  if (factory.protocolFamily !== entryFamily) {
    throw new ProtocolSuiteErrorV1(
      'factory-family-mismatch',
      'the adapter factory declares another protocol family than its entry',
      location,
    );
  }
}

function checkJobOperations(jobOperations: unknown, location: Location): void {
  if (!Array.isArray(jobOperations)) {
    throw new ProtocolSuiteErrorV1('job-operations-invalid', 'jobOperations must be an array', location);
  }
  const seen = new Set<unknown>();
  for (const operation of jobOperations as unknown[]) {
    if (!(ASYNC_JOB_OPERATIONS_V1 as readonly unknown[]).includes(operation)) {
      throw new ProtocolSuiteErrorV1('job-operations-invalid', 'jobOperations may hold only get, list and cancel', location);
    }
    if (seen.has(operation)) {
      throw new ProtocolSuiteErrorV1('job-operations-invalid', 'jobOperations repeats an operation', location);
    }
    seen.add(operation);
  }
}

function checkCodecs(codecs: unknown, location: Location, entryFamily: ProtocolFamily): void {
  if (!isObject(codecs) || !isObject(codecs.ingress) || !isObject(codecs.egress)) {
    throw new ProtocolSuiteErrorV1('codecs-invalid', 'codecs need an ingress and an egress codec', location);
  }
  const { ingress, egress } = codecs;
  if (
    typeof ingress.decodeRequest !== 'function' ||
    typeof egress.encodeResponse !== 'function' ||
    typeof egress.encodeError !== 'function' ||
    (egress.createStreamEncoder !== undefined && typeof egress.createStreamEncoder !== 'function')
  ) {
    throw new ProtocolSuiteErrorV1(
      'codecs-invalid',
      'the ingress codec needs decodeRequest; the egress codec needs encodeResponse and encodeError',
      location,
    );
  }
  if (ingress.protocolFamily !== entryFamily || egress.protocolFamily !== entryFamily) {
    throw new ProtocolSuiteErrorV1('codec-family-mismatch', 'a codec declares another protocol family than its entry', location);
  }
}

function checkDirectHttp(entry: Record<string, unknown>, location: Location, entryFamily: ProtocolFamily): void {
  const { directHttp, codecs } = entry;
  if (typeof directHttp !== 'boolean') {
    throw new ProtocolSuiteErrorV1('direct-http-mismatch', 'directHttp must be declared as true or false', location);
  }
  if (entry.execution === 'async' && (directHttp || codecs !== undefined)) {
    throw new ProtocolSuiteErrorV1('direct-http-mismatch', 'an async family cannot take part in direct HTTP', location);
  }
  if (directHttp && codecs === undefined) {
    throw new ProtocolSuiteErrorV1('direct-http-mismatch', 'directHttp is true but the entry has no codecs', location);
  }
  if (!directHttp && codecs !== undefined) {
    throw new ProtocolSuiteErrorV1('direct-http-mismatch', 'the entry has codecs but directHttp is false', location);
  }
  if (codecs !== undefined) checkCodecs(codecs, location, entryFamily);
}

function validateEntry(entry: unknown, entryIndex: number, seen: ReadonlySet<ProtocolFamily>): ProtocolSuiteEntryV1 {
  if (!isObject(entry)) {
    throw new ProtocolSuiteErrorV1('entries-invalid', 'an entry must be an object', { entryIndex });
  }
  const family = entry.protocolFamily;
  if (!isProtocolFamily(family)) {
    throw new ProtocolSuiteErrorV1('family-invalid', 'protocolFamily must look like <name>/v<major>', { entryIndex });
  }
  const location: Location = { entryIndex, protocolFamily: family };
  if (seen.has(family)) {
    throw new ProtocolSuiteErrorV1('family-duplicate', 'another entry already declares this family', location);
  }
  if (entry.execution === 'sync') {
    if (entry.asyncAdapterFactory !== undefined) {
      throw new ProtocolSuiteErrorV1('execution-mismatch', 'a sync entry cannot carry an async adapter factory', location);
    }
    if (entry.adapterFactory === undefined) {
      throw new ProtocolSuiteErrorV1('adapter-factory-missing', 'a sync entry needs adapterFactory', location);
    }
    if (isObject(entry.adapterFactory) && 'jobOperations' in entry.adapterFactory) {
      throw new ProtocolSuiteErrorV1('execution-mismatch', 'a sync entry cannot use an async adapter factory', location);
    }
    checkFactory(entry.adapterFactory, location, family);
  } else if (entry.execution === 'async') {
    if (entry.adapterFactory !== undefined) {
      throw new ProtocolSuiteErrorV1('execution-mismatch', 'an async entry cannot carry a sync adapter factory', location);
    }
    if (entry.asyncAdapterFactory === undefined) {
      throw new ProtocolSuiteErrorV1(
        'adapter-factory-missing',
        'an async entry needs asyncAdapterFactory (requireAsync could not answer)',
        location,
      );
    }
    checkFactory(entry.asyncAdapterFactory, location, family);
    checkJobOperations((entry.asyncAdapterFactory as Record<string, unknown>).jobOperations, location);
  } else {
    throw new ProtocolSuiteErrorV1('execution-invalid', 'execution must be sync or async', location);
  }
  checkDirectHttp(entry, location, family);
  const metadata = providerTransportMetadataV1Schema.safeParse(entry.transportMetadata);
  if (!metadata.success) {
    throw new ProtocolSuiteErrorV1(
      'transport-metadata-invalid',
      'transportMetadata is missing or does not satisfy the transport metadata schema',
      location,
    );
  }
  const transportMetadata = Object.freeze({
    auth: Object.freeze(metadata.data.auth),
    fixedHeaders: Object.freeze(metadata.data.fixedHeaders),
  });
  return Object.freeze({ ...(entry as unknown as ProtocolSuiteEntryV1), transportMetadata });
}

/**
 * Builds a protocol suite from one entry per family. Everything is validated here, before an engine consumes
 * `suite.registry`: a bad entry throws a {@link ProtocolSuiteErrorV1} naming its index and family.
 */
export function createTokenForgeProtocolSuiteV1(input: CreateTokenForgeProtocolSuiteInputV1): TokenForgeProtocolSuiteV1 {
  const rawEntries: unknown = isObject(input) ? input.entries : undefined;
  if (!Array.isArray(rawEntries)) {
    throw new ProtocolSuiteErrorV1('entries-invalid', 'entries must be an array');
  }
  const byFamily = new Map<ProtocolFamily, ProtocolSuiteEntryV1>();
  const entries = (rawEntries as unknown[]).map((entry, entryIndex) => {
    const validated = validateEntry(entry, entryIndex, new Set(byFamily.keys()));
    byFamily.set(validated.protocolFamily, validated);
    return validated;
  });
  const families = Object.freeze([...byFamily.keys()].sort());

  function lookup(protocolFamily: ProtocolFamily): ProtocolSuiteEntryV1 {
    const entry = byFamily.get(protocolFamily);
    if (entry === undefined) {
      throw new ProtocolSuiteErrorV1('family-not-registered', 'the suite holds no such family', { protocolFamily });
    }
    return entry;
  }

  const registry: ProtocolSuiteRegistryV1 = Object.freeze({
    listProtocolFamilies: () => families,
    require(protocolFamily: ProtocolFamily): ProviderAdapterFactory {
      const entry = lookup(protocolFamily);
      if (entry.execution !== 'sync') {
        throw new ProtocolSuiteErrorV1('family-not-registered', 'the family is async: use requireAsync', { protocolFamily });
      }
      return entry.adapterFactory;
    },
    requireAsync(protocolFamily: ProtocolFamily): ProviderAsyncJobAdapterFactory {
      const entry = lookup(protocolFamily);
      if (entry.execution !== 'async') {
        throw new ProtocolSuiteErrorV1('family-not-registered', 'the family is not async: use require', { protocolFamily });
      }
      return entry.asyncAdapterFactory;
    },
  });

  return Object.freeze({
    registry,
    entries: Object.freeze(entries),
    transportMetadataFor: (protocolFamily: ProtocolFamily) => lookup(protocolFamily).transportMetadata,
    codecsFor: (protocolFamily: ProtocolFamily) => lookup(protocolFamily).codecs,
  });
}
