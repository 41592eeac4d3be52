/** Stable codes of certification refusals and failures. */
export const CERTIFICATION_ERROR_CODES = [
  'USAGE_INVALID',
  'ACK_MISSING',
  'ACK_MISMATCH',
  'ENV_FILE_MISSING',
  'ENV_FILE_UNREADABLE',
  'ENV_FILE_INVALID',
  'ENV_VARIABLE_MISSING',
  'MANIFEST_UNREADABLE',
  'MANIFEST_INVALID',
  'ADDRESS_REFUSED',
  'EVIDENCE_UNREADABLE',
  'EVIDENCE_INVALID',
  'EVIDENCE_MISMATCH',
  'RECOVERY_REFUSED',
  'OUTPUT_EXISTS',
] as const;
export type CertificationErrorCode = (typeof CERTIFICATION_ERROR_CODES)[number];

const MARKER = Symbol.for('tokenforge.certification-error.v1');

/** A refusal or failure of a certification command. The message names a rule, never a secret, prompt, id or model. */
export class CertificationError extends Error {
  readonly code: CertificationErrorCode;
  constructor(code: CertificationErrorCode, message: string) {
    super(message);
    this.name = 'CertificationError';
    this.code = code;
    Object.defineProperty(this, MARKER, { value: true });
  }
}

/** Recognizes a {@link CertificationError} structurally (across package copies). */
export function isCertificationError(value: unknown): value is CertificationError {
  return typeof value === 'object' && value !== null && (value as Record<PropertyKey, unknown>)[MARKER] === true;
}
