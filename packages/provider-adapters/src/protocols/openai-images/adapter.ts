import type { ProviderAdapterFactory } from '@tokenforge/model-protocol';
import { defineHttpFamily, type HttpFamilyOptionsV1 } from '../../codec-kit/index.js';
import { OPENAI_RATE_LIMIT_HEADERS } from '../openai-common/map-rate-limits.js';
import { decodeOpenAiImagesResponse } from './decode-response.js';
import { encodeOpenAiImagesRequest } from './encode-request.js';
import { mapOpenAiImagesHttpError } from './map-error.js';
import { OPENAI_IMAGES_PROTOCOL_FAMILY } from './protocol-family.js';
import { OPENAI_IMAGES_TRANSPORT_METADATA } from './transport-metadata.js';

/** Options of {@link createOpenAiImagesAdapterFactory}. */
export interface OpenAiImagesAdapterOptionsV1 extends HttpFamilyOptionsV1 {
  /**
   * Largest response body in bytes (default {@link DEFAULT_OPENAI_IMAGES_MAX_BODY_BYTES}); a larger body is a
   * failed `protocol-violation`.
   */
  readonly maxBodyBytes?: number;
}

/** Default body cap: 128 MiB, room for 10 large base64 images (a 3840x2160 PNG is about 11 MiB in base64). */
export const DEFAULT_OPENAI_IMAGES_MAX_BODY_BYTES = 128 * 1024 * 1024;

/** The `openai-images/v1` dialect, declared for the kit (which owns execute, acceptance, metadata and aborts). */
export const OPENAI_IMAGES_HTTP_FAMILY = defineHttpFamily<OpenAiImagesAdapterOptionsV1>({
  protocolFamily: OPENAI_IMAGES_PROTOCOL_FAMILY,
  transportMetadata: OPENAI_IMAGES_TRANSPORT_METADATA,
  requestIdHeaders: ['x-request-id'],
  rateLimitHeaders: OPENAI_RATE_LIMIT_HEADERS,
  encodeRequest: (input) => encodeOpenAiImagesRequest(input.task, input.target, input.preparedMedia),
  maxBodyBytes: (options) => options?.maxBodyBytes ?? DEFAULT_OPENAI_IMAGES_MAX_BODY_BYTES,
  decodeResponse: (body, { input }) => {
    const task = input.task as Extract<typeof input.task, { kind: 'image-generation' | 'image-edit' }>;
    const terminal = decodeOpenAiImagesResponse(body, {
      kind: task.kind,
      count: task.count ?? 1,
      ...(task.outputFormat === undefined ? {} : { outputFormat: task.outputFormat }),
    }, input.reportDiagnostic);
    return { terminal };
  },
  // A 5xx may have produced (and billed) images: the kit's `unknown` acceptance tells the host not to resend blindly.
  mapHttpError: (answer) => mapOpenAiImagesHttpError(answer),
});

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
  return OPENAI_IMAGES_HTTP_FAMILY.createAdapterFactory(options);
}
