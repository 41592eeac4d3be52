import { PROTOCOL_ENGINE_API_VERSION, type ProtocolEngineApiVersion } from '../../contracts/v1/api-version.js';

/**
 * Every stable V1 error code, keyed by its short name. Frozen: hosts branch on these values, never on messages.
 * Each code belongs to exactly one phase (see {@link ProtocolEngineErrorPhaseV1}).
 */
export const PROTOCOL_ENGINE_ERROR_CODES_V1 = Object.freeze({
  /** The registry is malformed: missing functions, a bad or repeated family id, or it failed to answer. */
  REGISTRY_INVALID: 'PROTOCOL_ENGINE_REGISTRY_INVALID',
  /** The target's protocol family is not in the engine's registry snapshot. */
  PROTOCOL_UNDECLARED: 'PROTOCOL_ENGINE_PROTOCOL_UNDECLARED',
  /** The registry returned a factory for another family, or one that breaks the factory contract. */
  FACTORY_MISMATCH: 'PROTOCOL_ENGINE_FACTORY_MISMATCH',
  /** The task, target, binding, signal or another input field is malformed. */
  INPUT_INVALID: 'PROTOCOL_ENGINE_INPUT_INVALID',
  /** The target does not accept the task's kind. */
  TARGET_TASK_MISMATCH: 'PROTOCOL_ENGINE_TARGET_TASK_MISMATCH',
  /** The task (or job operation) needs something the target's capability does not declare. */
  CAPABILITY_UNSUPPORTED: 'PROTOCOL_ENGINE_CAPABILITY_UNSUPPORTED',
  /** The task forces a tool call (`toolChoice` `required` or a named tool) and the target lacks `forcedToolChoice`. */
  FORCED_TOOL_CHOICE_UNSUPPORTED: 'PROTOCOL_ENGINE_FORCED_TOOL_CHOICE_UNSUPPORTED',
  /** The task sets `parallelToolCalls` and the target does not declare `parallelToolCalls`. */
  PARALLEL_TOOL_CALLS_UNSUPPORTED: 'PROTOCOL_ENGINE_PARALLEL_TOOL_CALLS_UNSUPPORTED',
  /** The task asks for a hosted tool kind the target's `hostedTools` does not list. */
  HOSTED_TOOL_UNSUPPORTED: 'PROTOCOL_ENGINE_HOSTED_TOOL_UNSUPPORTED',
  /** The task asks for `contextManagement` and the target does not declare `contextManagement`. */
  CONTEXT_MANAGEMENT_UNSUPPORTED: 'PROTOCOL_ENGINE_CONTEXT_MANAGEMENT_UNSUPPORTED',
  /**
   * The task's JSON-schema request cannot be carried to the target beside the rest of the task: the target's
   * `forced-tool` strategy would replace the task's own tools or tool choice, or force a tool call while reasoning
   * is on and the target lacks `forcedToolChoiceWithReasoning` (see `planStructuredOutputV3`).
   */
  STRUCTURED_OUTPUT_CONFLICT: 'PROTOCOL_ENGINE_STRUCTURED_OUTPUT_CONFLICT',
  /** The engine asked a binding for a connection other than the one its target names. */
  CONNECTION_MISMATCH: 'PROTOCOL_ENGINE_CONNECTION_MISMATCH',
  /** The host's transport factory failed or returned something that is not a transport. */
  TRANSPORT_BIND_FAILED: 'PROTOCOL_ENGINE_TRANSPORT_BIND_FAILED',
  /** The transport failed before the adapter could produce an outcome. */
  TRANSPORT_FAILED: 'PROTOCOL_ENGINE_TRANSPORT_FAILED',
  /** The adapter returned something that breaks the normalized contract. */
  ADAPTER_OUTPUT_INVALID: 'PROTOCOL_ENGINE_ADAPTER_OUTPUT_INVALID',
  /** The adapter threw (a defect in the adapter, not a provider answer). */
  ADAPTER_FAILED: 'PROTOCOL_ENGINE_ADAPTER_FAILED',
  /** The provider answered a job get, list or cancel with a failure (normalized failure in `cause`). */
  PROVIDER_FAILED: 'PROTOCOL_ENGINE_PROVIDER_FAILED',
  /** The host's signal aborted the operation. */
  ABORTED: 'PROTOCOL_ENGINE_ABORTED',
  /** A stream was used against its lifecycle (for example iterated twice). */
  STREAM_MISUSE: 'PROTOCOL_ENGINE_STREAM_MISUSE',
} as const);

/** One of the values of {@link PROTOCOL_ENGINE_ERROR_CODES_V1}. */
export type ProtocolEngineErrorCodeV1 = (typeof PROTOCOL_ENGINE_ERROR_CODES_V1)[keyof typeof PROTOCOL_ENGINE_ERROR_CODES_V1];

/**
 * Where an operation failed:
 * - `configuration`: the registry or a factory (a deployment defect, not the request's fault);
 * - `input`: what the host passed (task, target, binding, media, callback URL);
 * - `transport`: binding or using the host's transport;
 * - `adapter`: what the adapter did or said, or a provider failure during a job operation;
 * - `lifecycle`: abort and stream misuse.
 */
export type ProtocolEngineErrorPhaseV1 = 'configuration' | 'input' | 'transport' | 'adapter' | 'lifecycle';

/** Options of {@link ProtocolEngineErrorV1}. */
export interface ProtocolEngineErrorOptionsV1 {
  /**
   * The underlying error or fact, for diagnosis only (logs a host keeps private). It may hold transport or
   * adapter details: never serialize it to a client. Stored as the non-enumerable standard `cause`.
   */
  readonly cause?: unknown;
}

const PHASE_BY_CODE: ReadonlyMap<string, ProtocolEngineErrorPhaseV1> = new Map<ProtocolEngineErrorCodeV1, ProtocolEngineErrorPhaseV1>([
  [PROTOCOL_ENGINE_ERROR_CODES_V1.REGISTRY_INVALID, 'configuration'],
  [PROTOCOL_ENGINE_ERROR_CODES_V1.PROTOCOL_UNDECLARED, 'configuration'],
  [PROTOCOL_ENGINE_ERROR_CODES_V1.FACTORY_MISMATCH, 'configuration'],
  [PROTOCOL_ENGINE_ERROR_CODES_V1.INPUT_INVALID, 'input'],
  [PROTOCOL_ENGINE_ERROR_CODES_V1.TARGET_TASK_MISMATCH, 'input'],
  [PROTOCOL_ENGINE_ERROR_CODES_V1.CAPABILITY_UNSUPPORTED, 'input'],
  [PROTOCOL_ENGINE_ERROR_CODES_V1.FORCED_TOOL_CHOICE_UNSUPPORTED, 'input'],
  [PROTOCOL_ENGINE_ERROR_CODES_V1.PARALLEL_TOOL_CALLS_UNSUPPORTED, 'input'],
  [PROTOCOL_ENGINE_ERROR_CODES_V1.HOSTED_TOOL_UNSUPPORTED, 'input'],
  [PROTOCOL_ENGINE_ERROR_CODES_V1.CONTEXT_MANAGEMENT_UNSUPPORTED, 'input'],
  [PROTOCOL_ENGINE_ERROR_CODES_V1.STRUCTURED_OUTPUT_CONFLICT, 'input'],
  [PROTOCOL_ENGINE_ERROR_CODES_V1.CONNECTION_MISMATCH, 'transport'],
  [PROTOCOL_ENGINE_ERROR_CODES_V1.TRANSPORT_BIND_FAILED, 'transport'],
  [PROTOCOL_ENGINE_ERROR_CODES_V1.TRANSPORT_FAILED, 'transport'],
  [PROTOCOL_ENGINE_ERROR_CODES_V1.ADAPTER_OUTPUT_INVALID, 'adapter'],
  [PROTOCOL_ENGINE_ERROR_CODES_V1.ADAPTER_FAILED, 'adapter'],
  [PROTOCOL_ENGINE_ERROR_CODES_V1.PROVIDER_FAILED, 'adapter'],
  [PROTOCOL_ENGINE_ERROR_CODES_V1.ABORTED, 'lifecycle'],
  [PROTOCOL_ENGINE_ERROR_CODES_V1.STREAM_MISUSE, 'lifecycle'],
]);

/** Shared across realms and package copies: `Symbol.for` reads one global registry. */
const ERROR_MARKER = Symbol.for('tokenforge.protocol-engine-error.v1');

/**
 * The one error type every engine operation fails with. `code` and `phase` are the stable, enumerable facts;
 * `message` is a short fixed English sentence for humans (never branch on it); `cause` is diagnostic only.
 * Neither carries provider payloads, HTTP statuses, retry policy, credentials or tenant facts.
 */
export class ProtocolEngineErrorV1 extends Error {
  /** Always `tokenforge-protocol-engine/v1`. */
  readonly apiVersion: ProtocolEngineApiVersion;
  /** The stable code. */
  readonly code: ProtocolEngineErrorCodeV1;
  /** The phase the code belongs to (fixed per code). */
  readonly phase: ProtocolEngineErrorPhaseV1;

  constructor(code: ProtocolEngineErrorCodeV1, message: string, options?: ProtocolEngineErrorOptionsV1) {
    const phase = typeof code === 'string' ? PHASE_BY_CODE.get(code) : undefined;
    if (phase === undefined) throw new TypeError('unknown protocol engine error code');
    super(message, options !== undefined && 'cause' in options ? { cause: options.cause } : undefined);
    this.apiVersion = PROTOCOL_ENGINE_API_VERSION;
    this.code = code;
    this.phase = phase;
    Object.defineProperty(this, ERROR_MARKER, { value: true });
  }
}
Object.defineProperty(ProtocolEngineErrorV1.prototype, 'name', {
  value: 'ProtocolEngineErrorV1',
  writable: true,
  configurable: true,
});

/**
 * Recognizes a V1 engine error structurally: the shared marker, the API version, a known code and the phase
 * that code belongs to. Works across `node:vm` realms and separately loaded copies of this package.
 * Never throws, whatever it is given (null, revoked or throwing proxies, huge strings).
 */
export function isProtocolEngineErrorV1(value: unknown): value is ProtocolEngineErrorV1 {
  try {
    if ((typeof value !== 'object' && typeof value !== 'function') || value === null) return false;
    const candidate = value as Record<PropertyKey, unknown>;
    if (candidate[ERROR_MARKER] !== true) return false;
    if (candidate.apiVersion !== PROTOCOL_ENGINE_API_VERSION) return false;
    const code = candidate.code;
    if (typeof code !== 'string' || code.length > 64) return false;
    const phase = PHASE_BY_CODE.get(code);
    return phase !== undefined && candidate.phase === phase;
  } catch {
    return false;
  }
}

/** Builds an engine error (internal shorthand). */
export function engineError(code: ProtocolEngineErrorCodeV1, message: string, cause?: unknown): ProtocolEngineErrorV1 {
  return new ProtocolEngineErrorV1(code, message, cause === undefined ? undefined : { cause });
}
