import type {
  AdapterTerminalOutcome,
  EgressCodecV1,
  EgressContextV1,
  EgressFailureV3,
  EgressHttpResponseV1,
  UsageV1,
} from '@tokenforge/model-protocol';
import { encodeOpenAiChatError } from '../openai-chat/encode-client-error.js';
import { OPENAI_IMAGES_PROTOCOL_FAMILY } from './protocol-family.js';

const encoder = new TextEncoder();
const CANCELLED_FAILURE: EgressFailureV3 = { source: 'engine', code: 'PROTOCOL_ENGINE_ABORTED' };
/** Not an engine code: the error table writes it as a 500 internal error. */
const INTERNAL_FAILURE: EgressFailureV3 = { source: 'engine', code: 'internal' };
const OUTPUT_FORMATS: Readonly<Record<string, string>> = { 'image/png': 'png', 'image/jpeg': 'jpeg', 'image/webp': 'webp' };

function encodeUsage(usage: UsageV1 | undefined): Record<string, number> | undefined {
  if (usage === undefined || (usage.inputTokens === undefined && usage.outputTokens === undefined)) return undefined;
  const tokens = {
    ...(usage.inputTokens === undefined ? {} : { input_tokens: usage.inputTokens }),
    ...(usage.outputTokens === undefined ? {} : { output_tokens: usage.outputTokens }),
  };
  const total = usage.totalTokens ?? (usage.inputTokens ?? 0) + (usage.outputTokens ?? 0);
  return { ...tokens, total_tokens: total };
}

function encodeResponse(outcome: AdapterTerminalOutcome, context: EgressContextV1): EgressHttpResponseV1 {
  switch (outcome.status) {
    case 'failed':
      return encodeOpenAiChatError({ source: 'provider', failure: outcome.failure });
    case 'cancelled':
      return encodeOpenAiChatError(CANCELLED_FAILURE);
    case 'completed':
      break;
    default: {
      const unknownOutcome: never = outcome;
      void unknownOutcome;
      return encodeOpenAiChatError(INTERNAL_FAILURE);
    }
  }
  const result = outcome.result;
  if (result.kind !== 'image-generation' && result.kind !== 'image-edit') return encodeOpenAiChatError(INTERNAL_FAILURE);
  const data = result.images.map((image) => ({
    ...(image.base64 === undefined ? { url: image.url } : { b64_json: image.base64 }),
    ...(image.revisedPrompt === undefined ? {} : { revised_prompt: image.revisedPrompt }),
  }));
  const formats = new Set(result.images.map((image) => (image.mediaType === undefined ? undefined : OUTPUT_FORMATS[image.mediaType])));
  const [format] = formats;
  const usage = encodeUsage(outcome.usage);
  const body = {
    created: Math.floor(context.createdAtMs / 1000),
    data,
    ...(formats.size === 1 && format !== undefined ? { output_format: format } : {}),
    ...(usage === undefined ? {} : { usage }),
  };
  return { status: 200, headers: { 'content-type': 'application/json' }, body: encoder.encode(JSON.stringify(body)) };
}

/**
 * Creates the `openai-images/v1` egress codec. A completed image terminal becomes an `ImagesResponse`:
 * `created` (epoch seconds of the context's time), `data[]` with `b64_json` or `url` and `revised_prompt` when
 * known, `output_format` when every image has the same known media type, and `usage` (`input_tokens`,
 * `output_tokens`, `total_tokens`) only when the provider reported tokens (dall-e answers carry none). Failed and
 * cancelled terminals, and every error, use OpenAI's error envelope (shared with `openai-chat/v1`). No stream
 * encoder: this family does not stream.
 */
export function createOpenAiImagesEgressCodec(): EgressCodecV1 {
  return Object.freeze({
    protocolFamily: OPENAI_IMAGES_PROTOCOL_FAMILY,
    encodeResponse,
    encodeError: (failure: EgressFailureV3) => encodeOpenAiChatError(failure),
  });
}
