import {
  taskEnvelopeV2Schema,
  type ClientWireRequestV1,
  type IngressCodecV1,
  type IngressDecodedRequestV1,
} from '@tokenforge/model-protocol';
import { parseSafeJsonBytes, type SafeJsonLimits } from '../../codec-kit/index.js';
import {
  invalidClientField,
  isClientObject,
  optionalClientBoolean,
  optionalClientNumber,
  optionalClientString,
  requiredClientString,
  unsupportedClientField,
} from '../openai-common/client-json.js';
import { OPENAI_IMAGES_PROTOCOL_FAMILY } from './protocol-family.js';

/** Options of {@link createOpenAiImagesIngressCodec}. */
export interface OpenAiImagesIngressOptionsV1 {
  /** Limits of the body parser (defaults: 32 MiB, 64 levels). */
  readonly limits?: SafeJsonLimits;
}

const GENERATIONS_PATH = /(?:^|\/)images\/generations\/?$/;
const EDITS_PATH = /(?:^|\/)images\/(?:edits|variations)\/?$/;

function decodeDelivery(value: string | undefined): 'url' | 'base64' | undefined {
  if (value === undefined) return undefined;
  if (value === 'url') return 'url';
  if (value === 'b64_json') return 'base64';
  throw invalidClientField('response_format', 'must be url or b64_json');
}

/**
 * Decodes an OpenAI `POST /images/generations` request body into an image-generation task. Pure; the body is
 * parsed with the kit's safe JSON parser.
 *
 * Mapping: `model` is the model label (required: the host resolves it, so the API's implicit `dall-e-2` default
 * is not guessed); `prompt`; `n` the count; `size`, `quality`, `background`, `output_format` and `style` as they
 * are; `response_format` (`url` / `b64_json`) the delivery. Ignored on purpose: `user` (a host concern),
 * `moderation` and `output_compression` (they tune filtering strictness and file size, not what is drawn; the
 * target's defaults apply) and unknown fields. Refused as `unsupported-feature`: `stream: true` and
 * `partial_images` above 0 (this family does not stream), and requests to `/images/edits` or
 * `/images/variations`: multipart client bodies are not decoded here (a host that accepts edits uploads the
 * files itself, prepares them as media and builds the image-edit task).
 *
 * @throws {CodecErrorV1} the parser's codes for bad bytes or JSON; `invalid-request` with the JSON path for a
 * malformed request; `unsupported-feature` as listed.
 */
export function decodeOpenAiImagesClientRequest(request: ClientWireRequestV1, options?: OpenAiImagesIngressOptionsV1): IngressDecodedRequestV1 {
  if (EDITS_PATH.test(request.path)) throw unsupportedClientField('path', 'image edits and variations are not accepted as client requests');
  if (!GENERATIONS_PATH.test(request.path)) throw invalidClientField('path', 'must be /images/generations');
  const body = parseSafeJsonBytes(request.body, options?.limits);
  if (!isClientObject(body)) throw invalidClientField('body', 'must be a JSON object');
  const modelLabel = requiredClientString(body, 'model', '');
  if (modelLabel.length === 0 || modelLabel.length > 256) throw invalidClientField('model', 'must be 1 to 256 characters');
  if (optionalClientBoolean(body, 'stream', '') === true) throw unsupportedClientField('stream', 'streamed images are not supported');
  const partialImages = optionalClientNumber(body, 'partial_images', '');
  if (partialImages !== undefined && partialImages !== 0) throw unsupportedClientField('partial_images', 'partial images are not supported');
  const fields = {
    prompt: requiredClientString(body, 'prompt', ''),
    count: optionalClientNumber(body, 'n', ''),
    size: optionalClientString(body, 'size', ''),
    quality: optionalClientString(body, 'quality', ''),
    background: optionalClientString(body, 'background', ''),
    outputFormat: optionalClientString(body, 'output_format', ''),
    delivery: decodeDelivery(optionalClientString(body, 'response_format', '')),
    style: optionalClientString(body, 'style', ''),
  };
  const defined = Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined));
  const checked = taskEnvelopeV2Schema.safeParse({ kind: 'image-generation', ...defined });
  if (!checked.success) {
    const wireNames: Readonly<Record<string, string>> = { count: 'n', outputFormat: 'output_format', delivery: 'response_format' };
    const issue = checked.error.issues[0];
    const field = issue === undefined || issue.path.length === 0 ? 'body' : String(issue.path[0]);
    throw invalidClientField(wireNames[field] ?? field, 'is out of range or malformed for an image request');
  }
  return { task: checked.data, modelLabel };
}

/** Creates the `openai-images/v1` ingress codec (see {@link decodeOpenAiImagesClientRequest}). */
export function createOpenAiImagesIngressCodec(options?: OpenAiImagesIngressOptionsV1): IngressCodecV1 {
  return Object.freeze({
    protocolFamily: OPENAI_IMAGES_PROTOCOL_FAMILY,
    decodeRequest: (request: ClientWireRequestV1) => decodeOpenAiImagesClientRequest(request, options),
  });
}
