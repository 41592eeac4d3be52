import {
  isCodecErrorV1,
  type ProviderAcceptanceFacts,
  type ProviderAdapterExecuteInputV1,
  type ProviderAdapterExecutionV1,
  type ProviderAdapterFactory,
} from '@tokenforge/model-protocol';
import {
  createAdapterStreamParts,
  decodeSseStream,
  finishedExecution,
  readJsonResponse,
  terminalForError,
} from '../../codec-kit/index.js';
import { decodeGeminiResponse } from './decode-response.js';
import { createGeminiStreamMachine, GEMINI_SSE_DECODER_OPTIONS } from './decode-stream.js';
import { encodeGeminiRequest, type GeminiEncodedRequest, type GeminiEncodeOptions } from './encode-request.js';
import { mapGeminiHttpError } from './map-error.js';
import { GEMINI_GENERATE_CONTENT_PROTOCOL_FAMILY } from './protocol-family.js';

/** Options of {@link createGeminiGenerateContentAdapterFactory}: protocol options plus a clock. */
export interface GeminiGenerateContentAdapterOptionsV1 extends GeminiEncodeOptions {
  /** Clock for HTTP-date `retry-after` hints, in epoch milliseconds (default `Date.now`). */
  readonly now?: () => number;
}

async function execute(
  input: ProviderAdapterExecuteInputV1,
  options: GeminiGenerateContentAdapterOptionsV1 | undefined,
): Promise<ProviderAdapterExecutionV1> {
  const stream = input.task.kind === 'chat' && input.task.stream;
  let request: GeminiEncodedRequest;
  try {
    request = encodeGeminiRequest(input.task, input.target.providerModel, options);
  } catch (error) {
    if (!isCodecErrorV1(error)) throw error;
    // Nothing was sent: the task (or the model name) cannot be expressed faithfully in this dialect.
    const code = error.code === 'unsupported-feature' ? 'unsupported' : 'invalid-request';
    return finishedExecution(stream, { state: 'not-accepted' }, {}, { status: 'failed', failure: { code, retryable: false } });
  }
  const response = await input.transport.send({ ...request, signal: input.signal });
  const nowMs = (options?.now ?? Date.now)();
  if (stream && response.status >= 200 && response.status <= 299) {
    return {
      kind: 'stream',
      acceptance: { state: 'accepted' },
      responseMetadata: {},
      parts: createAdapterStreamParts({
        body: response.body,
        decodeFrames: (body) => decodeSseStream(body, GEMINI_SSE_DECODER_OPTIONS),
        machine: createGeminiStreamMachine(),
        signal: input.signal,
      }),
    };
  }
  let outcome: Awaited<ReturnType<typeof readJsonResponse>>;
  try {
    outcome = await readJsonResponse(response, { nowMs });
  } catch (error) {
    const terminal = terminalForError(error, { signal: input.signal });
    if (terminal === undefined) throw error;
    return finishedExecution(stream, { state: 'unknown' }, {}, terminal);
  }
  if (outcome.ok) {
    try {
      const decoded = decodeGeminiResponse(outcome.value);
      const metadata = decoded.providerModel === undefined ? {} : { providerModel: decoded.providerModel };
      return finishedExecution(stream, { state: 'accepted' }, metadata, decoded.terminal);
    } catch (error) {
      const terminal = terminalForError(error, { signal: input.signal });
      if (terminal === undefined) throw error;
      return finishedExecution(stream, { state: 'unknown' }, {}, terminal);
    }
  }
  const failure = mapGeminiHttpError({ status: outcome.status, headers: response.headers, body: outcome.errorBody, nowMs });
  // A 5xx may have been processed (and billed) before the server failed; any other refusal was definitive.
  const acceptance: ProviderAcceptanceFacts = { state: outcome.status >= 500 ? 'unknown' : 'not-accepted' };
  return finishedExecution(stream, acceptance, {}, { status: 'failed', failure });
}

/**
 * Creates the `gemini-generate-content/v1` adapter factory: `POST /v1beta/models/{model}:generateContent` (or
 * `:streamGenerateContent?alt=sse` for stream tasks) with the task encoded by `encodeGeminiRequest`, a whole
 * body decoded by `decodeGeminiResponse`, a stream driven through the kit by `createGeminiStreamMachine`, and
 * HTTP errors mapped by `mapGeminiHttpError`.
 *
 * Outcomes: a task the dialect cannot express (or an unsafe model name) is a failed `unsupported` or
 * `invalid-request` terminal with acceptance `not-accepted`, and nothing is sent; a non-2xx status is a failed
 * terminal, acceptance `unknown` for 5xx and `not-accepted` otherwise; an unreadable or protocol-breaking 2xx
 * body is a failed `protocol-violation` with acceptance `unknown`. A stream task always gets a `stream`
 * execution. A transport failure before a response head rejects, as the contract asks.
 */
export function createGeminiGenerateContentAdapterFactory(options?: GeminiGenerateContentAdapterOptionsV1): ProviderAdapterFactory {
  return Object.freeze({
    protocolFamily: GEMINI_GENERATE_CONTENT_PROTOCOL_FAMILY,
    createAdapter: () => Object.freeze({ execute: (input: ProviderAdapterExecuteInputV1) => execute(input, options) }),
  });
}
