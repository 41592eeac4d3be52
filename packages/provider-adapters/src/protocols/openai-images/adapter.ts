import {
  isCodecErrorV1,
  type AdapterTerminalOutcome,
  type ProviderAcceptanceFacts,
  type ProviderAdapterExecuteInputV1,
  type ProviderAdapterExecutionV1,
  type ProviderAdapterFactory,
  type ProviderResponseMetadata,
  type ProviderTransportResponse,
} from '@tokenforge/model-protocol';
import { readJsonResponse, terminalForError } from '../../codec-kit/index.js';
import { decodeOpenAiImagesResponse } from './decode-response.js';
import { encodeOpenAiImagesRequest, type OpenAiImagesEncodedRequest } from './encode-request.js';
import { mapOpenAiImagesHttpError } from './map-error.js';
import { OPENAI_IMAGES_PROTOCOL_FAMILY } from './protocol-family.js';

/** Options of {@link createOpenAiImagesAdapterFactory}. */
export interface OpenAiImagesAdapterOptionsV1 {
  /** Clock for HTTP-date `Retry-After` hints, in epoch milliseconds (default `Date.now`). */
  readonly now?: () => number;
  /**
   * Largest response body in bytes (default {@link DEFAULT_OPENAI_IMAGES_MAX_BODY_BYTES}); a larger body is a
   * failed `protocol-violation`.
   */
  readonly maxBodyBytes?: number;
}

/** Default body cap: 128 MiB, room for 10 large base64 images (a 3840x2160 PNG is about 11 MiB in base64). */
export const DEFAULT_OPENAI_IMAGES_MAX_BODY_BYTES = 128 * 1024 * 1024;

/** Response header that carries the provider's request id. */
const REQUEST_ID_HEADER = 'x-request-id';

function responseMetadata(response: ProviderTransportResponse): ProviderResponseMetadata {
  const requestId = response.headers[REQUEST_ID_HEADER];
  return requestId !== undefined && requestId.length > 0 ? { providerRequestId: requestId.slice(0, 256) } : {};
}

function finished(acceptance: ProviderAcceptanceFacts, metadata: ProviderResponseMetadata, terminal: AdapterTerminalOutcome): ProviderAdapterExecutionV1 {
  return { kind: 'response', acceptance, responseMetadata: metadata, terminal };
}

async function execute(input: ProviderAdapterExecuteInputV1, options: OpenAiImagesAdapterOptionsV1 | undefined): Promise<ProviderAdapterExecutionV1> {
  let request: OpenAiImagesEncodedRequest;
  try {
    request = encodeOpenAiImagesRequest(input.task, input.target, input.preparedMedia);
  } catch (error) {
    if (!isCodecErrorV1(error)) throw error;
    // Nothing was sent: the task asks for something this dialect cannot express faithfully.
    const code = error.code === 'unsupported-feature' ? 'unsupported' : 'invalid-request';
    return finished({ state: 'not-accepted' }, {}, { status: 'failed', failure: { code, retryable: false } });
  }
  const response = await input.transport.send({ ...request, signal: input.signal });
  const nowMs = (options?.now ?? Date.now)();
  let outcome: Awaited<ReturnType<typeof readJsonResponse>>;
  try {
    outcome = await readJsonResponse(response, { nowMs, maxBytes: options?.maxBodyBytes ?? DEFAULT_OPENAI_IMAGES_MAX_BODY_BYTES });
  } catch (error) {
    const terminal = terminalForError(error, { signal: input.signal });
    if (terminal === undefined) throw error;
    return finished({ state: 'unknown' }, responseMetadata(response), terminal);
  }
  if (outcome.ok) {
    const task = input.task as Extract<typeof input.task, { kind: 'image-generation' | 'image-edit' }>;
    const terminal = decodeOpenAiImagesResponse(outcome.value, {
      kind: task.kind,
      count: task.count ?? 1,
      ...(task.outputFormat === undefined ? {} : { outputFormat: task.outputFormat }),
    });
    return finished({ state: 'accepted' }, responseMetadata(response), terminal);
  }
  const failure = mapOpenAiImagesHttpError({ status: outcome.status, headers: response.headers, errorBody: outcome.errorBody, nowMs });
  // A 5xx may have produced (and billed) images before the server failed; any other refusal was definitive.
  return finished({ state: outcome.status >= 500 ? 'unknown' : 'not-accepted' }, responseMetadata(response), { status: 'failed', failure });
}

/**
 * Creates the `openai-images/v1` adapter factory: generations as JSON and edits as multipart (source images and
 * mask streamed from the prepared media), encoded by `encodeOpenAiImagesRequest`, bodies decoded by
 * `decodeOpenAiImagesResponse`, HTTP errors mapped by `mapOpenAiImagesHttpError`.
 *
 * Outcomes: a task the dialect cannot express is a failed `unsupported` (or `invalid-request`) terminal with
 * acceptance `not-accepted` and no request sent; a non-2xx status is a failed terminal, acceptance `unknown` for
 * 5xx (image calls are not idempotent: a host must not blindly resend) and `not-accepted` otherwise; an unreadable
 * 2xx body is a failed `protocol-violation` with acceptance `unknown`. A transport failure before a response head
 * rejects, as the contract asks. This family does not stream (`stream` is never sent).
 */
export function createOpenAiImagesAdapterFactory(options?: OpenAiImagesAdapterOptionsV1): ProviderAdapterFactory {
  return Object.freeze({
    protocolFamily: OPENAI_IMAGES_PROTOCOL_FAMILY,
    createAdapter: () => Object.freeze({ execute: (input: ProviderAdapterExecuteInputV1) => execute(input, options) }),
  });
}
