import { isProtocolFamily, type ProtocolFamily } from '@tokenforge/model-protocol';

/**
 * Why a protocol suite refused its entries or a registry lookup. A closed set: branch on it, never on the message.
 * - `entries-invalid`: `entries` is not an array, or an entry is not an object;
 * - `family-invalid`: an entry's `protocolFamily` is not a well-formed family id;
 * - `family-duplicate`: two entries declare the same family;
 * - `execution-invalid`: `execution` is neither `sync` nor `async`;
 * - `adapter-factory-missing`: a sync entry without `adapterFactory`, or an async entry without
 *   `asyncAdapterFactory` (the registry could not answer `require` or `requireAsync`);
 * - `adapter-factory-invalid`: a factory without a `createAdapter` function;
 * - `execution-mismatch`: a sync entry with an async factory, or an async entry with a sync factory;
 * - `factory-family-mismatch`: a factory declares another family than its entry;
 * - `job-operations-invalid`: an async factory's `jobOperations` is not a list of distinct `get`, `list`, `cancel`;
 * - `direct-http-mismatch`: `directHttp` disagrees with the codec manifest (true without codecs, codecs without
 *   `directHttp`, an async family declaring direct HTTP, or a non-boolean declaration);
 * - `codecs-invalid`: codecs without an ingress `decodeRequest` or egress `encodeResponse`/`encodeError` function;
 * - `codec-family-mismatch`: an ingress or egress codec declares another family than its entry;
 * - `transport-metadata-invalid`: transport metadata is missing or does not satisfy its schema;
 * - `family-not-registered`: a lookup asked for a family the suite does not hold (or holds with the other
 *   execution style: `require` on an async family, `requireAsync` on a sync one).
 */
export const PROTOCOL_SUITE_ERROR_CODES_V1 = [
  'entries-invalid',
  'family-invalid',
  'family-duplicate',
  'execution-invalid',
  'adapter-factory-missing',
  'adapter-factory-invalid',
  'execution-mismatch',
  'factory-family-mismatch',
  'job-operations-invalid',
  'direct-http-mismatch',
  'codecs-invalid',
  'codec-family-mismatch',
  'transport-metadata-invalid',
  'family-not-registered',
] as const;
export type ProtocolSuiteErrorCodeV1 = (typeof PROTOCOL_SUITE_ERROR_CODES_V1)[number];

const PROTOCOL_SUITE_ERROR_MARKER = Symbol.for('tokenforge.protocol-suite-error.v1');

/** Where a suite error points. */
export interface ProtocolSuiteErrorLocationV1 {
  /** Index of the offending entry in `entries`, when the error is about an entry. */
  readonly entryIndex?: number;
  /** The family concerned, when it is a well-formed family id (a malformed id is never echoed). */
  readonly protocolFamily?: unknown;
}

/**
 * A suite construction or lookup failure. The message names the rule, the entry index and the family; it never
 * contains factory, codec or metadata values.
 */
export class ProtocolSuiteErrorV1 extends Error {
  /** The stable code. */
  readonly code: ProtocolSuiteErrorCodeV1;
  /** Index of the offending entry, when the error is about an entry. */
  readonly entryIndex: number | undefined;
  /** The family concerned, when known and well formed. */
  readonly protocolFamily: ProtocolFamily | undefined;

  constructor(code: ProtocolSuiteErrorCodeV1, rule: string, location: ProtocolSuiteErrorLocationV1 = {}) {
    const protocolFamily = isProtocolFamily(location.protocolFamily) ? location.protocolFamily : undefined;
    const where = [
      location.entryIndex === undefined ? undefined : `entry ${location.entryIndex}`,
      protocolFamily === undefined ? undefined : `family ${protocolFamily}`,
    ].filter((part) => part !== undefined);
    super(`protocol suite ${code}${where.length > 0 ? ` (${where.join(', ')})` : ''}: ${rule}`);
    this.name = 'ProtocolSuiteErrorV1';
    this.code = code;
    this.entryIndex = location.entryIndex;
    this.protocolFamily = protocolFamily;
    Object.defineProperty(this, PROTOCOL_SUITE_ERROR_MARKER, { value: true });
  }
}

/** Recognizes a suite error across realms and package copies. Never throws. */
export function isProtocolSuiteErrorV1(value: unknown): value is ProtocolSuiteErrorV1 {
  try {
    if (typeof value !== 'object' || value === null) return false;
    const candidate = value as Record<PropertyKey, unknown>;
    return (
      candidate[PROTOCOL_SUITE_ERROR_MARKER] === true &&
      typeof candidate.code === 'string' &&
      (PROTOCOL_SUITE_ERROR_CODES_V1 as readonly string[]).includes(candidate.code)
    );
  } catch {
    return false;
  }
}
