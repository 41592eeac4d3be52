import type { ProviderTransport } from '@tokenforge/model-protocol';
import type {
  CreateProtocolEngineTargetBindingInputV1,
  ProtocolEngineTargetBindingV1,
} from '../../contracts/v1/protocol-engine-contracts-v1.js';
import {
  PROTOCOL_ENGINE_ERROR_CODES_V1 as CODES,
  engineError,
  isProtocolEngineErrorV1,
} from '../../error/v1/protocol-engine-error-v1.js';
import { requireTransport } from '../../engine/v1/bind-and-call.js';
import { isAbortedSafely, readGuarded, toEngineError } from '../../engine/v1/guard-public-call.js';
import { deepFreeze } from '../../validation/v1/deep-freeze.js';
import {
  isAbortSignalLike,
  isRecord,
  rememberValidatedBinding,
  snapshotTarget,
  throwIfAborted,
} from '../../validation/v1/input-guards.js';

/**
 * Pairs one resolved target with the host's request-scoped transport factory. The returned binding's
 * `bindTransport(connectionRef, signal)` refuses any connection reference other than `target.connectionRef`
 * before the host factory runs, so no credential lookup or network work happens for a substituted connection.
 * The binding keeps only the dispatch fields of the target; host-private extras are dropped. Its `target` is
 * the host's as declared (a V2 capability stays V2); the engine reads the capability in V3 form.
 */
export function createProtocolEngineTargetBindingV1(input: CreateProtocolEngineTargetBindingInputV1): ProtocolEngineTargetBindingV1 {
  const { hostBindTransport, target, normalized } = readGuarded(CODES.INPUT_INVALID, () => {
    if (!isRecord(input) || typeof input.bindTransport !== 'function') {
      throw engineError(CODES.INPUT_INVALID, 'a binding needs a target and a bindTransport function');
    }
    const snapshot = snapshotTarget(input.target);
    return { hostBindTransport: input.bindTransport, target: deepFreeze(snapshot.declared), normalized: deepFreeze(snapshot.normalized) };
  });

  async function bindTransport(connectionRef: string, signal: AbortSignal): Promise<ProviderTransport> {
    if (connectionRef !== target.connectionRef) {
      throw engineError(CODES.CONNECTION_MISMATCH, 'the requested connection is not the connection of the bound target');
    }
    try {
      if (!isAbortSignalLike(signal)) throw engineError(CODES.INPUT_INVALID, 'the signal must be an AbortSignal');
      throwIfAborted(signal);
    } catch (error) {
      throw toEngineError(error, CODES.INPUT_INVALID);
    }
    let transport: unknown;
    try {
      transport = await hostBindTransport.call(input, signal);
    } catch (error) {
      if (isProtocolEngineErrorV1(error)) throw error;
      if (isAbortedSafely(signal)) throw engineError(CODES.ABORTED, 'the operation was aborted while binding the transport', error);
      throw engineError(CODES.TRANSPORT_BIND_FAILED, 'the host transport factory failed', error);
    }
    return requireTransport(transport, 'the host transport factory did not return a transport');
  }

  const binding = Object.freeze({ target, bindTransport });
  rememberValidatedBinding(binding, { target: normalized, bindTransport });
  return binding;
}
