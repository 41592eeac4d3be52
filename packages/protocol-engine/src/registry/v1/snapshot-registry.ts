import {
  ASYNC_JOB_OPERATIONS_V1,
  isProtocolFamily,
  type AsyncJobOperationV1,
  type ProtocolFamily,
  type ProviderAdapterV1,
  type ProviderAsyncJobAdapterV1,
} from '@tokenforge/model-protocol';
import type { ProtocolEngineAdapterRegistryPortV1 } from '../../contracts/v1/protocol-engine-contracts-v1.js';
import { PROTOCOL_ENGINE_ERROR_CODES_V1 as CODES, engineError } from '../../error/v1/protocol-engine-error-v1.js';
import { isRecord } from '../../validation/v1/input-guards.js';

const MAX_FAMILIES = 1024;

/** The registry as the engine sees it: a frozen family list and factory look-ups that check what they return. */
export interface RegistrySnapshot {
  readonly protocolFamilies: readonly ProtocolFamily[];
  /** Throws PROTOCOL_UNDECLARED when the family is not in the snapshot. */
  assertDeclared(protocolFamily: ProtocolFamily): void;
  /** A sync/stream adapter for a declared family, with the factory checked. */
  createSyncAdapter(protocolFamily: ProtocolFamily): ProviderAdapterV1;
  /** An async adapter for a declared family, with the factory and its declared operations checked. */
  createAsyncAdapter(protocolFamily: ProtocolFamily): { readonly adapter: ProviderAsyncJobAdapterV1; readonly operations: ReadonlySet<AsyncJobOperationV1> };
}

/** Reads `listProtocolFamilies()` once: validates every id, refuses duplicates, sorts and freezes. */
export function snapshotRegistry(registry: ProtocolEngineAdapterRegistryPortV1): RegistrySnapshot {
  if (!isRecord(registry) || typeof registry.listProtocolFamilies !== 'function' || typeof registry.require !== 'function') {
    throw engineError(CODES.REGISTRY_INVALID, 'the registry must provide listProtocolFamilies and require functions');
  }
  if (registry.requireAsync !== undefined && typeof registry.requireAsync !== 'function') {
    throw engineError(CODES.REGISTRY_INVALID, 'the registry requireAsync member must be a function when present');
  }
  let listed: unknown;
  try {
    listed = registry.listProtocolFamilies();
  } catch (error) {
    throw engineError(CODES.REGISTRY_INVALID, 'the registry failed to list its protocol families', error);
  }
  if (!Array.isArray(listed) || listed.length > MAX_FAMILIES) {
    throw engineError(CODES.REGISTRY_INVALID, 'the registry must list its protocol families as an array');
  }
  const families = new Set<ProtocolFamily>();
  for (const family of listed as unknown[]) {
    if (!isProtocolFamily(family)) throw engineError(CODES.REGISTRY_INVALID, 'the registry listed a malformed protocol family id');
    if (families.has(family)) throw engineError(CODES.REGISTRY_INVALID, 'the registry listed a protocol family twice');
    families.add(family);
  }
  const protocolFamilies = Object.freeze([...families].sort());

  function assertDeclared(protocolFamily: ProtocolFamily): void {
    if (!families.has(protocolFamily)) {
      throw engineError(CODES.PROTOCOL_UNDECLARED, 'the target protocol family is not declared by the registry');
    }
  }

  function createSyncAdapter(protocolFamily: ProtocolFamily): ProviderAdapterV1 {
    assertDeclared(protocolFamily);
    let factory: unknown;
    try {
      factory = registry.require(protocolFamily);
    } catch (error) {
      throw engineError(CODES.REGISTRY_INVALID, 'the registry failed to supply a factory for a declared family', error);
    }
    if (!isRecord(factory) || factory.protocolFamily !== protocolFamily || typeof factory.createAdapter !== 'function') {
      throw engineError(CODES.FACTORY_MISMATCH, 'the registry factory does not declare the requested protocol family');
    }
    const adapter = createAdapter(factory);
    if (!isRecord(adapter) || typeof adapter.execute !== 'function') {
      throw engineError(CODES.FACTORY_MISMATCH, 'the factory created an adapter without an execute function');
    }
    return adapter as unknown as ProviderAdapterV1;
  }

  function createAsyncAdapter(protocolFamily: ProtocolFamily): {
    readonly adapter: ProviderAsyncJobAdapterV1;
    readonly operations: ReadonlySet<AsyncJobOperationV1>;
  } {
    assertDeclared(protocolFamily);
    const requireAsync = registry.requireAsync;
    if (requireAsync === undefined) {
      throw engineError(CODES.REGISTRY_INVALID, 'the registry has no async factories but a target declares an async-job family');
    }
    let factory: unknown;
    try {
      factory = requireAsync.call(registry, protocolFamily);
    } catch (error) {
      throw engineError(CODES.REGISTRY_INVALID, 'the registry failed to supply an async factory for a declared family', error);
    }
    if (!isRecord(factory) || factory.protocolFamily !== protocolFamily || typeof factory.createAdapter !== 'function') {
      throw engineError(CODES.FACTORY_MISMATCH, 'the registry async factory does not declare the requested protocol family');
    }
    const operations = readJobOperations(factory.jobOperations);
    const adapter = createAdapter(factory);
    if (!isRecord(adapter) || typeof adapter.start !== 'function') {
      throw engineError(CODES.FACTORY_MISMATCH, 'the async factory created an adapter without a start function');
    }
    for (const operation of operations) {
      if (typeof adapter[operation] !== 'function') {
        throw engineError(CODES.FACTORY_MISMATCH, `the async adapter lacks the declared ${operation} operation`);
      }
    }
    return { adapter: adapter as unknown as ProviderAsyncJobAdapterV1, operations };
  }

  return { protocolFamilies, assertDeclared, createSyncAdapter, createAsyncAdapter };
}

function createAdapter(factory: Record<string, unknown>): unknown {
  try {
    return (factory.createAdapter as () => unknown).call(factory);
  } catch (error) {
    throw engineError(CODES.ADAPTER_FAILED, 'the factory failed to create an adapter', error);
  }
}

function readJobOperations(value: unknown): ReadonlySet<AsyncJobOperationV1> {
  if (!Array.isArray(value) || value.length > ASYNC_JOB_OPERATIONS_V1.length) {
    throw engineError(CODES.FACTORY_MISMATCH, 'the async factory jobOperations must be a subset of get, list and cancel');
  }
  const operations = new Set<AsyncJobOperationV1>();
  for (const operation of value as unknown[]) {
    if (!(ASYNC_JOB_OPERATIONS_V1 as readonly unknown[]).includes(operation) || operations.has(operation as AsyncJobOperationV1)) {
      throw engineError(CODES.FACTORY_MISMATCH, 'the async factory jobOperations must be a subset of get, list and cancel');
    }
    operations.add(operation as AsyncJobOperationV1);
  }
  return operations;
}
