import type { AdapterTerminalOutcomeV3, ProviderDiagnosticV3, UsageV1 } from '@tokenforge/model-protocol';
import { isCodecErrorV1, isProviderTransportFailureV1 } from '@tokenforge/model-protocol';
import { diagnosticForError, reportDiagnostic } from './diagnostic-for-error.js';
import { isProtocolViolationError } from './protocol-violation-error.js';

/** Context of {@link terminalForError}. */
export interface TerminalForErrorOptions {
  /** The execution's signal: once aborted, every error ends as `cancelled`. */
  readonly signal?: AbortSignal;
  /** Usage the provider reported before the failure, kept on the failed terminal. */
  readonly usage?: UsageV1;
  /** The execution's diagnostics callback: told which rule refused, for the failed terminals below. */
  readonly reportDiagnostic?: ((diagnostic: ProviderDiagnosticV3) => void) | undefined;
}

/**
 * The terminal an error thrown while reading or decoding a provider response stands for, or `undefined` when
 * the error is none of the kinds below (a defect, which the caller should let propagate):
 * - any error after the signal aborted: `cancelled`;
 * - a {@link CodecErrorV1} or {@link ProtocolViolationError}: failed `protocol-violation`, not retryable;
 * - a {@link ProviderTransportFailureV1} while reading the body: `connection-lost` is a failed
 *   `truncated-stream`, `timeout` a failed `timeout`, anything else a failed `network`, all retryable.
 */
export function terminalForError(error: unknown, options?: TerminalForErrorOptions): AdapterTerminalOutcomeV3 | undefined {
  if (options?.signal?.aborted === true) return { status: 'cancelled' };
  const usage = options?.usage === undefined ? {} : { usage: options.usage };
  if (isCodecErrorV1(error) || isProtocolViolationError(error)) {
    reportDiagnostic(options?.reportDiagnostic, diagnosticForError(error, 'protocol-violation'));
    return { status: 'failed', failure: { code: 'protocol-violation', retryable: false }, ...usage };
  }
  if (isProviderTransportFailureV1(error)) {
    const code = error.reason === 'connection-lost' ? 'truncated-stream' : error.reason === 'timeout' ? 'timeout' : 'network';
    reportDiagnostic(options?.reportDiagnostic, diagnosticForError(error, code));
    return { status: 'failed', failure: { code, retryable: true }, ...usage };
  }
  return undefined;
}
