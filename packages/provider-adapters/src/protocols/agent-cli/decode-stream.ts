import type { ProviderProcessExitV4 } from '@tokenforge/model-protocol';
import { decodeNdjsonLines, parseSafeJson, ProtocolViolationError } from '../../codec-kit/index.js';

/** One item the shared reader yields: a parsed document, or (last, once) how the process ended. */
export type CliDocument = { readonly kind: 'document'; readonly value: unknown } | { readonly kind: 'exit'; readonly exit: ProviderProcessExitV4 };

/** Options of {@link readCliDocuments}. */
export interface ReadCliDocumentsOptions {
  /** Longest accepted line in bytes. */
  readonly maxLineBytes: number;
  /** Lines a CLI documents as noise on stdout (not JSON, harmless). Anything else that is not JSON fails the run. */
  readonly isKnownNoise?: (line: string) => boolean;
}

/**
 * The one NDJSON reader of the family. Framing rules (the driver seed's): a trailing partial line is still a
 * line (flushed when stdout ends); a blank line is not a document (skipped). Decoding rules (ours): a non-JSON
 * line fails the run unless the mapping lists it as known noise. After stdout ends, the process exit is yielded
 * once, so the mapping decides what an end without the terminal frame means (never a success).
 */
export async function* readCliDocuments(
  stdout: AsyncIterable<Uint8Array>,
  exit: Promise<ProviderProcessExitV4>,
  options: ReadCliDocumentsOptions,
): AsyncGenerator<CliDocument, void, undefined> {
  for await (const line of decodeNdjsonLines(stdout, { maxLineBytes: options.maxLineBytes, invalidText: 'replace' })) {
    let value: unknown;
    try {
      value = parseSafeJson(line, { maxBytes: options.maxLineBytes });
    } catch (error) {
      if (options.isKnownNoise?.(line) === true) continue;
      throw new ProtocolViolationError('unexpected-event', 'a stdout line of the CLI is not JSON and not listed as known noise', { cause: error });
    }
    yield { kind: 'document', value };
  }
  yield { kind: 'exit', exit: await exit };
}
