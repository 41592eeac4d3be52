import type { AdapterTerminalOutcomeV3 } from '@tokenforge/model-protocol';
import { ProtocolViolationError } from '../../codec-kit/protocol-violation-error.js';
import { GeminiResponseAssembler } from './response-assembler.js';
import { readGeminiResponse } from './wire-readers.js';

/** A decoded whole response. */
export interface GeminiDecodedResponse {
  /** The terminal outcome. */
  readonly terminal: AdapterTerminalOutcomeV3;
  /** `modelVersion`, the model the provider says it served, when reported. */
  readonly providerModel: string | undefined;
}

/**
 * Decodes a whole `GenerateContentResponse` body (already parsed with the safe JSON parser) with the same
 * state machine as the stream decoder. A body with an `error` object is a failed terminal; a body with
 * neither a finish reason nor a block reason did not finish and is a protocol violation.
 *
 * @throws {ProtocolViolationError} for a body that breaks the protocol (the adapter maps it).
 */
export function decodeGeminiResponse(body: unknown): GeminiDecodedResponse {
  const response = readGeminiResponse(body);
  const assembler = new GeminiResponseAssembler();
  assembler.push(response);
  const terminal = assembler.finish();
  if (terminal === undefined) throw new ProtocolViolationError('invalid-event', 'response has no finish reason');
  return { terminal, providerModel: assembler.modelVersion };
}
