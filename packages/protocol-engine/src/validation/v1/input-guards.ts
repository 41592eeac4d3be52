import { providerDispatchTargetV2Schema, type ProviderDispatchTargetV2, type ProviderTransport } from '@tokenforge/model-protocol';
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

/**
 * Copies exactly the dispatch fields out of a host target and validates them. Host-private extras (catalogue ids)
 * are dropped, never forwarded; the copy is what the engine reads from then on.
 */
export function snapshotTarget(target: unknown): ProviderDispatchTargetV2 {
  if (!isRecord(target)) throw engineError(CODES.INPUT_INVALID, 'the binding target must be an object');
  const picked = {
    provider: target.provider,
    providerModel: target.providerModel,
    connectionRef: target.connectionRef,
    capability: target.capability,
  };
  const parsed = providerDispatchTargetV2Schema.safeParse(picked);
  if (!parsed.success) {
    throw engineError(CODES.INPUT_INVALID, `the target is not a valid ProviderDispatchTargetV2${describePath(parsed.error.issues)}`, parsed.error);
  }
  return parsed.data;
}

/** A binding after validation: its frozen target snapshot and its bind function. */
export interface CheckedBinding {
  readonly target: ProviderDispatchTargetV2;
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
  return { target: snapshotTarget(binding.target), bindTransport: (ref, signal) => bindTransport.call(binding, ref, signal) };
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
