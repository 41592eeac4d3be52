import {
  protocolCapabilityFromV2,
  providerDispatchTargetV2Schema,
  providerDispatchTargetV3Schema,
  type ProviderDispatchTargetV2,
  type ProviderDispatchTargetV3,
  type ProviderTransport,
} from '@tokenforge/model-protocol';
import { PROTOCOL_ENGINE_ERROR_CODES_V1 as CODES, engineError } from '../../error/v1/protocol-engine-error-v1.js';

/** True for a non-null object that is not an array. */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Structural check so a signal from another realm (a `vm` context) is accepted too. */
export function isAbortSignalLike(value: unknown): value is AbortSignal {
  return (
    isRecord(value) &&
    typeof value.aborted === 'boolean' &&
    typeof (value as { addEventListener?: unknown }).addEventListener === 'function' &&
    typeof (value as { removeEventListener?: unknown }).removeEventListener === 'function'
  );
}

/** Reads `input.signal`, refusing anything that is not an abort signal. */
export function requireSignal(input: Record<string, unknown>): AbortSignal {
  const signal = input.signal;
  if (!isAbortSignalLike(signal)) throw engineError(CODES.INPUT_INVALID, 'the signal must be an AbortSignal');
  return signal;
}

/** Throws ABORTED when the signal has fired. */
export function throwIfAborted(signal: AbortSignal): void {
  if (signal.aborted) throw engineError(CODES.ABORTED, 'the operation was aborted by the host signal', signal.reason);
}

/** A validated host target: exactly as the host gave it (`V2` or `V3`), and its capability read as V3. */
export interface TargetSnapshot {
  /** The dispatch fields as the host declared them (V2 or V3 capability). */
  readonly declared: ProviderDispatchTargetV2 | ProviderDispatchTargetV3;
  /** The same target with its capability in V3 form: what the engine and adapters read. */
  readonly normalized: ProviderDispatchTargetV3;
}

/**
 * Copies exactly the dispatch fields out of a host target and validates them. Host-private extras (catalogue ids)
 * are dropped, never forwarded; the copy is what the engine reads from then on. A target that is a valid
 * `ProviderDispatchTargetV2` is read as V2 and its capability converted with `protocolCapabilityFromV2` (so a V2
 * target with `tools` keeps forcing tool calls as before); any other target must be a valid V3 one.
 */
export function snapshotTarget(target: unknown): TargetSnapshot {
  if (!isRecord(target)) throw engineError(CODES.INPUT_INVALID, 'the binding target must be an object');
  const picked = {
    provider: target.provider,
    providerModel: target.providerModel,
    connectionRef: target.connectionRef,
    capability: target.capability,
  };
  const v2 = providerDispatchTargetV2Schema.safeParse(picked);
  if (v2.success) return { declared: v2.data, normalized: { ...v2.data, capability: protocolCapabilityFromV2(v2.data.capability) } };
  const capability = picked.capability;
  // A boolean `structuredOutput` exists only in V2: explain the V2 schema's objection rather than the V3 one.
  if (isRecord(capability) && typeof capability.structuredOutput === 'boolean') {
    throw engineError(CODES.INPUT_INVALID, `the target is not a valid ProviderDispatchTargetV2${describePath(v2.error.issues)}`, v2.error);
  }
  const v3 = providerDispatchTargetV3Schema.safeParse(picked);
  if (!v3.success) {
    throw engineError(CODES.INPUT_INVALID, `the target is not a valid ProviderDispatchTargetV3${describePath(v3.error.issues)}`, v3.error);
  }
  return { declared: v3.data, normalized: v3.data };
}

/** A binding after validation: its frozen target snapshot and its bind function. */
export interface CheckedBinding {
  /** The target with its capability in V3 form. */
  readonly target: ProviderDispatchTargetV3;
  readonly bindTransport: (connectionRef: string, signal: AbortSignal) => unknown;
}

/** Bindings this copy of the engine built and validated itself: their frozen targets need no second parse. */
const validatedBindings = new WeakMap<object, CheckedBinding>();

/** Records a binding built by `createProtocolEngineTargetBindingV1` of this copy (frozen, target validated). */
export function rememberValidatedBinding(binding: object, checked: CheckedBinding): void {
  validatedBindings.set(binding, checked);
}

/** Validates the binding's shape and snapshots its target (hand-written bindings are parsed on every call). */
export function snapshotBinding(binding: unknown): CheckedBinding {
  if (typeof binding === 'object' && binding !== null) {
    const known = validatedBindings.get(binding);
    if (known !== undefined) return known;
  }
  if (!isRecord(binding) || typeof binding.bindTransport !== 'function') {
    throw engineError(CODES.INPUT_INVALID, 'the binding must be an object with a bindTransport function');
  }
  const bindTransport = binding.bindTransport as (connectionRef: string, signal: AbortSignal) => unknown;
  return { target: snapshotTarget(binding.target).normalized, bindTransport: (ref, signal) => bindTransport.call(binding, ref, signal) };
}

/** Checks that a value is a transport port. */
export function isTransport(value: unknown): value is ProviderTransport {
  return isRecord(value) && typeof (value as { send?: unknown }).send === 'function';
}

const SAFE_SEGMENT = /^(?:[A-Za-z][A-Za-z0-9]{0,31}|[0-9]{1,6})$/;

/** A ` at a.b.0` suffix from the first schema issue; segments that could be data (record keys) become `*`. */
export function describePath(issues: readonly { readonly path: readonly PropertyKey[] }[]): string {
  const path = issues[0]?.path;
  if (path === undefined || path.length === 0) return '';
  return ` at ${path.map((segment) => (SAFE_SEGMENT.test(String(segment)) ? String(segment) : '*')).join('.')}`;
}

/** True when `value` is an absolute https URL without userinfo. */
export function isSafeHttpsUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === 'https:' && url.username === '' && url.password === '' && url.hostname !== '';
  } catch {
    return false;
  }
}

/** Ends an exhaustive switch. */
export function assertNever(value: never): never {
  throw engineError(CODES.INPUT_INVALID, 'an unexpected variant reached an exhaustive switch', value);
}
