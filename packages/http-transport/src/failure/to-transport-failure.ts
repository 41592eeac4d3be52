import {
  ProviderTransportFailureV1,
  isProviderTransportFailureV1,
  type ProviderTransportFailureReasonV1,
  type ProviderTransportFailureStageV1,
} from '@tokenforge/model-protocol';
import { loadUndici } from '../pool/load-undici.js';
import { ConnectStageError } from './connect-stage-error.js';
import type { SecretRedactor } from './secret-redactor.js';
import { HttpTransportDiagnostic, toDiagnostic } from './transport-diagnostic.js';

const REASON_BY_CODE: Readonly<Record<string, ProviderTransportFailureReasonV1>> = {
  UND_ERR_HEADERS_TIMEOUT: 'timeout',
  UND_ERR_BODY_TIMEOUT: 'timeout',
  UND_ERR_CONNECT_TIMEOUT: 'timeout',
  UND_ERR_SOCKET: 'connection-lost',
  ECONNRESET: 'connection-lost',
  EPIPE: 'connection-lost',
  UND_ERR_ABORTED: 'aborted',
  UND_ERR_DESTROYED: 'aborted',
  UND_ERR_RES_CONTENT_LENGTH_MISMATCH: 'protocol-error',
  UND_ERR_RES_EXCEEDED_MAX_SIZE: 'response-too-large',
};

/** Builds a failure whose cause is a redacted diagnostic. */
export function transportFailure(
  stage: ProviderTransportFailureStageV1,
  reason: ProviderTransportFailureReasonV1,
  cause: unknown,
  redact: SecretRedactor,
): ProviderTransportFailureV1 {
  return new ProviderTransportFailureV1(stage, reason, { cause: toDiagnostic(cause, redact) });
}

/**
 * Maps anything undici, the connector or a body source threw to a {@link ProviderTransportFailureV1}.
 * `stage` is what the caller knows: `before-send` only while undici has not yet started writing the request.
 */
export function toTransportFailure(
  error: unknown,
  stage: ProviderTransportFailureStageV1,
  redact: SecretRedactor,
): ProviderTransportFailureV1 {
  if (isProviderTransportFailureV1(error)) return error;
  if (error instanceof ConnectStageError) {
    const detail = error.detail === undefined ? undefined : toDiagnostic(error.detail, redact);
    const cause =
      detail === undefined
        ? new HttpTransportDiagnostic(redact(error.message))
        : new HttpTransportDiagnostic(`${redact(error.message)}: ${detail.message}`, detail.code);
    return new ProviderTransportFailureV1('before-send', error.reason, { cause });
  }
  // Undici's parser errors may carry no `HPE_*` code at all: the class (a brand check, not the name) decides.
  if (error instanceof loadUndici().errors.HTTPParserError) return transportFailure(stage, 'protocol-error', error, redact);
  const code = typeof (error as { code?: unknown } | null)?.code === 'string' ? (error as { code: string }).code : '';
  const reason = REASON_BY_CODE[code] ?? (code.startsWith('HPE_') ? 'protocol-error' : 'other');
  return transportFailure(stage, reason, error, redact);
}
