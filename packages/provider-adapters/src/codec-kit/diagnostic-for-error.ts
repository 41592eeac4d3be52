import {
  CONTRACT_BOUNDS_V3,
  isCodecErrorV1,
  isProviderTransportFailureV1,
  type ProviderDiagnosticV3,
  type ProviderFailureCodeV3,
} from '@tokenforge/model-protocol';
import { isProtocolViolationError } from './protocol-violation-error.js';

const MAX = CONTRACT_BOUNDS_V3.diagnosticTextMaxLength;
const clip = (text: string): string => (text.length <= MAX ? text : `${text.slice(0, MAX - 1)}…`);

/**
 * The host-private detail of an error a family turned into a failed terminal with `code`: the rule (the error's
 * stable reason and its message, which names a rule and a path, never a value) and, for codec errors, the JSON path.
 * `undefined` for anything else (a defect is not described here; it propagates).
 */
export function diagnosticForError(error: unknown, code: ProviderFailureCodeV3): ProviderDiagnosticV3 | undefined {
  if (isProtocolViolationError(error)) return { code, rule: clip(`${error.reason}: ${error.message}`) };
  if (isCodecErrorV1(error)) {
    return { code, rule: clip(`${error.code}: ${error.message}`), ...(error.path === undefined || error.path.length === 0 ? {} : { location: clip(error.path) }) };
  }
  if (isProviderTransportFailureV1(error)) return { code, rule: clip(`transport ${error.stage}: ${error.reason}`) };
  return undefined;
}

/** Reports `diagnostic` through the execution's callback, if the host listens. Never throws. */
export function reportDiagnostic(report: DiagnosticReport | undefined, diagnostic: ProviderDiagnosticV3 | undefined): void {
  if (report === undefined || diagnostic === undefined) return;
  try {
    report(diagnostic);
  } catch {
    // The engine's sink does not throw; a host-written one must not break decoding either.
  }
}

/** The execution's diagnostics callback, as the kit and the family decoders pass it on. */
export type DiagnosticReport = (diagnostic: ProviderDiagnosticV3) => void;
