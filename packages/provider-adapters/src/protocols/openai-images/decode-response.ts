import { diagnosticForError, reportDiagnostic, type DiagnosticReport } from '../../codec-kit/diagnostic-for-error.js';
import {
  describeUsageInconsistency,
  isCodecErrorV1,
  type AdapterTerminalOutcome,
  type ImageResultV1,
  type NormalizedProviderFailureV1,
} from '@tokenforge/model-protocol';
import { isProtocolViolationError, ProtocolViolationError } from '../../codec-kit/index.js';
import { convertOpenAiImagesUsage } from './convert-usage.js';
import { readOpenAiImagesResponse } from './wire-readers.js';

/** What the decoder checks the body against (from the task). */
export interface OpenAiImagesExpectation {
  /** The task kind, copied into the result. */
  readonly kind: 'image-generation' | 'image-edit';
  /** How many images the task asked for (default 1): the body may hold at most this many. */
  readonly count: number;
  /** The output format the task asked for, used for the media type when the body does not echo one. */
  readonly outputFormat?: 'png' | 'jpeg' | 'webp';
}

const PROTOCOL_VIOLATION_FAILURE: NormalizedProviderFailureV1 = Object.freeze({ code: 'protocol-violation', retryable: false });
const MEDIA_TYPES = { png: 'image/png', jpeg: 'image/jpeg', webp: 'image/webp' } as const;

function decode(body: unknown, expectation: OpenAiImagesExpectation): AdapterTerminalOutcome {
  const response = readOpenAiImagesResponse(body);
  if (response.data.length > expectation.count) {
    throw new ProtocolViolationError('invalid-event', `openai-images data holds more images than the ${expectation.count} asked for`);
  }
  const format = response.output_format ?? expectation.outputFormat;
  const mediaType = format === undefined ? undefined : MEDIA_TYPES[format];
  const images: ImageResultV1['images'] = response.data.map((image) => ({
    ...('b64_json' in image ? { base64: image.b64_json, ...(mediaType === undefined ? {} : { mediaType }) } : { url: image.url }),
    ...(image.revised_prompt === undefined ? {} : { revisedPrompt: image.revised_prompt }),
  }));
  const usage = convertOpenAiImagesUsage(response.usage, images.length);
  if (describeUsageInconsistency(usage) !== undefined) {
    throw new ProtocolViolationError('usage-inconsistent', 'openai-images usage figures contradict each other');
  }
  return { status: 'completed', result: { kind: expectation.kind, images }, usage };
}

/**
 * Decodes a parsed `ImagesResponse` into a completed image terminal: one image per `data[]` item in order, inline
 * base64 (with the media type of the echoed `output_format`, else of the task's) or an https URL (which expires
 * after about an hour: hosts that keep images fetch them promptly), the revised prompt when the provider rewrote
 * it, and usage by `convertOpenAiImagesUsage`. More images than asked for, an unsafe URL, bad base64, a missing
 * image or contradictory usage is a failed `protocol-violation` terminal, never a throw.
 */
export function decodeOpenAiImagesResponse(body: unknown, expectation: OpenAiImagesExpectation, report?: DiagnosticReport): AdapterTerminalOutcome {
  try {
    return decode(body, expectation);
  } catch (error) {
    if (isProtocolViolationError(error) || isCodecErrorV1(error)) {
      reportDiagnostic(report, diagnosticForError(error, 'protocol-violation'));
      return { status: 'failed', failure: PROTOCOL_VIOLATION_FAILURE };
    }
    throw error;
  }
}
