import {
  PROTOCOL_ENGINE_ERROR_CODES_V1 as CODES,
  engineError,
  isProtocolEngineErrorV1,
  type ProtocolEngineErrorCodeV1,
  type ProtocolEngineErrorV1,
} from '../../error/v1/protocol-engine-error-v1.js';

/**
 * Where a public call is while it reads what others handed it: the code a raw throw (a getter, a Proxy trap,
 * a `toJSON`) becomes. `input` for the execute input and binding, `configuration` for the registry and
 * factories, `transport` for the binder's answer, `adapter` for adapter calls and their output.
 */
export interface CallStage {
  code: ProtocolEngineErrorCodeV1;
}

const STAGE_MESSAGES: Readonly<Partial<Record<ProtocolEngineErrorCodeV1, string>>> = {
  [CODES.INPUT_INVALID]: 'an input value could not be read',
  [CODES.REGISTRY_INVALID]: 'the registry could not be read',
  [CODES.FACTORY_MISMATCH]: 'a registry factory or its adapter could not be read',
  [CODES.TRANSPORT_BIND_FAILED]: 'the bound transport could not be read',
  [CODES.ADAPTER_OUTPUT_INVALID]: 'the adapter output could not be read',
};

/**
 * The engine error for anything thrown at `code`'s stage: an engine error passes through unchanged, anything
 * else becomes an engine error of that code with the original as its (non-enumerable) `cause`.
 */
export function toEngineError(error: unknown, code: ProtocolEngineErrorCodeV1): ProtocolEngineErrorV1 {
  if (isProtocolEngineErrorV1(error)) return error;
  return engineError(code, STAGE_MESSAGES[code] ?? 'a value could not be read', error);
}

/** Runs `read` and turns anything but an engine error it throws into an engine error of `code`. */
export function readGuarded<T>(code: ProtocolEngineErrorCodeV1, read: () => T): T {
  try {
    return read();
  } catch (error) {
    throw toEngineError(error, code);
  }
}

/**
 * Runs one public engine operation so that it fails only with a ProtocolEngineErrorV1: a raw throw becomes
 * an engine error of the stage the operation had reached (see {@link CallStage}).
 */
export async function guardPublicCall<T>(run: (stage: CallStage) => Promise<T>): Promise<T> {
  const stage: CallStage = { code: CODES.INPUT_INVALID };
  try {
    return await run(stage);
  } catch (error) {
    throw toEngineError(error, stage.code);
  }
}

/** Reads `signal.aborted` without letting a hostile signal throw; a signal that cannot be read is not aborted. */
export function isAbortedSafely(signal: AbortSignal): boolean {
  try {
    return signal.aborted === true;
  } catch {
    return false;
  }
}
