import { isProviderTransportFailureV1, type ProviderTransport } from '@tokenforge/model-protocol';
import {
  PROTOCOL_ENGINE_ERROR_CODES_V1 as CODES,
  engineError,
  isProtocolEngineErrorV1,
  type ProtocolEngineErrorV1,
} from '../../error/v1/protocol-engine-error-v1.js';
import { isTransport, throwIfAborted, type CheckedBinding } from '../../validation/v1/input-guards.js';
import { isAbortedSafely, toEngineError } from './guard-public-call.js';

/**
 * Asks the binding for a transport for the target's own connection. Engine errors from the binding (connection
 * mismatch, abort) pass through; anything else the binder throws is TRANSPORT_BIND_FAILED.
 */
export async function bindTransport(binding: CheckedBinding, signal: AbortSignal): Promise<ProviderTransport> {
  let transport: unknown;
  try {
    transport = await binding.bindTransport(binding.target.connectionRef, signal);
  } catch (error) {
    if (isProtocolEngineErrorV1(error)) throw error;
    if (isAbortedSafely(signal)) throw engineError(CODES.ABORTED, 'the operation was aborted while binding the transport', error);
    throw engineError(CODES.TRANSPORT_BIND_FAILED, 'the transport binding failed', error);
  }
  const checked = requireTransport(transport, 'the transport binding did not return a transport');
  throwIfAborted(signal);
  return checked;
}

/** `value` as a transport, else TRANSPORT_BIND_FAILED with `message` (a raw throw while reading it becomes that code). */
export function requireTransport(value: unknown, message: string): ProviderTransport {
  let usable: boolean;
  try {
    usable = isTransport(value);
  } catch (error) {
    throw toEngineError(error, CODES.TRANSPORT_BIND_FAILED);
  }
  if (!usable) throw engineError(CODES.TRANSPORT_BIND_FAILED, message);
  return value as ProviderTransport;
}

/**
 * Classifies something an adapter threw: the host's abort wins, then a transport failure, else an adapter defect.
 * The thrown value stays in `cause` only.
 */
export function adapterCallFailed(error: unknown, signal: AbortSignal): ProtocolEngineErrorV1 {
  if (isAbortedSafely(signal)) return engineError(CODES.ABORTED, 'the operation was aborted by the host signal', error);
  if (isProviderTransportFailureV1(error)) {
    // Stage and reason are closed enums: safe to name; the cause keeps everything else.
    return engineError(CODES.TRANSPORT_FAILED, `the provider transport failed ${error.stage}: ${error.reason}`, error);
  }
  return engineError(CODES.ADAPTER_FAILED, 'the adapter failed', error);
}
