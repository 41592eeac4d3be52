/** Why a transport could not be created (a closed set; messages never contain the offending value). */
export const HTTP_TRANSPORT_CONFIGURATION_ERROR_CODES = [
  'HTTP_TRANSPORT_BASE_URL_INVALID',
  'HTTP_TRANSPORT_BASE_URL_REFUSED',
  'HTTP_TRANSPORT_CREDENTIALS_INVALID',
  'HTTP_TRANSPORT_METADATA_INVALID',
  'HTTP_TRANSPORT_POLICY_INVALID',
] as const;

/** A stable code of {@link HttpTransportConfigurationError}. */
export type HttpTransportConfigurationErrorCode = (typeof HTTP_TRANSPORT_CONFIGURATION_ERROR_CODES)[number];

const CONFIGURATION_ERROR_MARKER = Symbol.for('tokenforge.http-transport-configuration-error.v1');

/**
 * Thrown by `createHttpProviderTransport` when its options are unusable. The message names the rule that was
 * broken, never the value (a base URL or a credential could be secret).
 */
export class HttpTransportConfigurationError extends Error {
  /** Stable code to branch on. */
  readonly code: HttpTransportConfigurationErrorCode;

  constructor(code: HttpTransportConfigurationErrorCode, message: string) {
    super(message);
    this.name = 'HttpTransportConfigurationError';
    this.code = code;
    Object.defineProperty(this, CONFIGURATION_ERROR_MARKER, { value: true });
  }
}

/** Recognizes a configuration error structurally, across realms and package copies. Never throws. */
export function isHttpTransportConfigurationError(value: unknown): value is HttpTransportConfigurationError {
  try {
    if (typeof value !== 'object' || value === null) return false;
    const candidate = value as Record<PropertyKey, unknown>;
    return (
      candidate[CONFIGURATION_ERROR_MARKER] === true &&
      (HTTP_TRANSPORT_CONFIGURATION_ERROR_CODES as readonly unknown[]).includes(candidate.code)
    );
  } catch {
    return false;
  }
}
