/**
 * Why the fixture transport refused. These are test-setup faults, never provider behaviour: a fixture transport
 * simulates provider and network failures with {@link ProviderTransportFailureV1}, not with this error.
 * - `fixture-invalid`: a scripted response or chunks file is malformed;
 * - `fixture-exhausted`: a request arrived after every scripted response was served;
 * - `request-invalid`: the request cannot be sent as given (a JSON body that does not serialize, a file whose
 *   stream fails).
 */
export const FIXTURE_TRANSPORT_ERROR_CODES_V1 = ['fixture-invalid', 'fixture-exhausted', 'request-invalid'] as const;
export type FixtureTransportErrorCodeV1 = (typeof FIXTURE_TRANSPORT_ERROR_CODES_V1)[number];

const FIXTURE_TRANSPORT_ERROR_MARKER = Symbol.for('tokenforge.fixture-transport-error.v1');

/** A fixture transport set-up fault. */
export class FixtureTransportErrorV1 extends Error {
  /** The stable code. */
  readonly code: FixtureTransportErrorCodeV1;

  constructor(code: FixtureTransportErrorCodeV1, message: string, options?: { cause?: unknown }) {
    super(`fixture transport ${code}: ${message}`, options);
    this.name = 'FixtureTransportErrorV1';
    this.code = code;
    Object.defineProperty(this, FIXTURE_TRANSPORT_ERROR_MARKER, { value: true });
  }
}

/** Recognizes a fixture transport error across realms and package copies. Never throws. */
export function isFixtureTransportErrorV1(value: unknown): value is FixtureTransportErrorV1 {
  try {
    if (typeof value !== 'object' || value === null) return false;
    const candidate = value as Record<PropertyKey, unknown>;
    return (
      candidate[FIXTURE_TRANSPORT_ERROR_MARKER] === true &&
      typeof candidate.code === 'string' &&
      (FIXTURE_TRANSPORT_ERROR_CODES_V1 as readonly string[]).includes(candidate.code)
    );
  } catch {
    return false;
  }
}
