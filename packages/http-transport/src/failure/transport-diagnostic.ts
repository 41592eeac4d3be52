import type { SecretRedactor } from './secret-redactor.js';

/**
 * The `cause` of a transport failure: a fresh copy of the underlying error's name, code and message with the
 * connection's secrets removed. The original error object (which can hold sockets, requests and header
 * values) is never attached.
 */
export class HttpTransportDiagnostic extends Error {
  /** The underlying error's code, such as `ECONNREFUSED` or `UND_ERR_HEADERS_TIMEOUT`, when it had one. */
  readonly code: string | undefined;

  constructor(message: string, code?: string, name = 'HttpTransportDiagnostic') {
    super(message);
    this.name = name;
    this.code = code;
  }
}

/** Copies an error into a redacted {@link HttpTransportDiagnostic}. */
export function toDiagnostic(error: unknown, redact: SecretRedactor): HttpTransportDiagnostic {
  if (error instanceof HttpTransportDiagnostic) return error;
  if (typeof error === 'object' && error !== null) {
    const candidate = error as { name?: unknown; message?: unknown; code?: unknown };
    const message = typeof candidate.message === 'string' ? redact(candidate.message) : 'non-error value';
    const code = typeof candidate.code === 'string' ? redact(candidate.code) : undefined;
    const name = typeof candidate.name === 'string' ? redact(candidate.name) : undefined;
    return new HttpTransportDiagnostic(message, code, name);
  }
  return new HttpTransportDiagnostic('non-error value');
}
