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
  isUnset,
  optionalClientNumber,
  optionalClientString,
  requiredClientString,
  unsupportedClientField,
} from '../openai-common/client-json.js';
import { OPENAI_EMBEDDINGS_MAX_INPUTS } from './protocol-options.js';
import { OPENAI_EMBEDDINGS_PROTOCOL_FAMILY } from './protocol-family.js';

/** Options of {@link createOpenAiEmbeddingsIngressCodec}. */
export interface OpenAiEmbeddingsIngressOptionsV1 {
  /** Limits of the body parser (defaults: 32 MiB, 64 levels). */
  readonly limits?: SafeJsonLimits;
}

/**
 * A decoded embeddings request. Besides the task and model label it says which `encoding_format` the client
 * asked for: the codec contract has no place to carry it to egress, so a host that wants to answer in the same
 * form reads it here and creates the egress codec with `createOpenAiEmbeddingsEgressCodec({ encodingFormat })`.
 */
export interface OpenAiEmbeddingsIngressDecodedRequestV1 extends IngressDecodedRequestV1 {
  /** The client's `encoding_format`; `float` when it sent none (the API's default). */
  readonly clientEncodingFormat: 'float' | 'base64';
}

function decodeInputs(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (!Array.isArray(value)) {
    if (isUnset(value)) throw invalidClientField('input', 'is required');
    throw invalidClientField('input', 'must be a string or an array of strings');
  }
  if (value.length === 0) throw invalidClientField('input', 'must not be empty');
  if (value.length > OPENAI_EMBEDDINGS_MAX_INPUTS) throw invalidClientField('input', `must hold at most ${OPENAI_EMBEDDINGS_MAX_INPUTS} items`);
  const inputs: string[] = new Array<string>(value.length);
  for (let index = 0; index < value.length; index += 1) {
    const item: unknown = value[index];
    if (typeof item === 'string') {
      inputs[index] = item;
      continue;
    }
    if (typeof item === 'number' || Array.isArray(item)) {
      throw unsupportedClientField('input', 'token arrays are not supported: send text');
    }
    throw invalidClientField(`input.${index}`, 'must be a string');
  }
  return inputs;
}

/**
 * Decodes an OpenAI `POST /embeddings` request body into an embedding task. Pure; the body is parsed with the
 * kit's safe JSON parser.
 *
 * Mapping: `model` is the model label; `input` (one string, or an array of 1 to 2,048 non-empty strings) the
 * inputs in order; `dimensions` the task's dimensions; `encoding_format` (`float` or `base64`) is returned as
 * `clientEncodingFormat`. Ignored on purpose: `user` (abuse-monitoring identity, a host concern) and unknown
 * fields. Refused as `unsupported-feature`: token-array inputs (`number[]`, `number[][]`), which the task cannot
 * carry.
 *
 * @throws {CodecErrorV1} the parser's codes for bad bytes or JSON; `invalid-request` with the JSON path for a
 * malformed request (empty input, empty string, too many inputs, a bad `encoding_format` or `dimensions`).
 */
export function decodeOpenAiEmbeddingsClientRequest(
  request: ClientWireRequestV1,
  options?: OpenAiEmbeddingsIngressOptionsV1,
): OpenAiEmbeddingsIngressDecodedRequestV1 {
  const body = parseSafeJsonBytes(request.body, options?.limits);
  if (!isClientObject(body)) throw invalidClientField('body', 'must be a JSON object');
  const modelLabel = requiredClientString(body, 'model', '');
  if (modelLabel.length === 0 || modelLabel.length > 256) throw invalidClientField('model', 'must be 1 to 256 characters');
  const inputs = decodeInputs(body.input);
  const format = optionalClientString(body, 'encoding_format', '') ?? 'float';
  if (format !== 'float' && format !== 'base64') throw invalidClientField('encoding_format', 'must be float or base64');
  const dimensions = optionalClientNumber(body, 'dimensions', '');
  const checked = taskEnvelopeV2Schema.safeParse({ kind: 'embedding', inputs, ...(dimensions === undefined ? {} : { dimensions }) });
  if (!checked.success) {
    const issue = checked.error.issues[0];
    const path = issue === undefined || issue.path.length === 0 ? 'body' : issue.path.map(String).join('.').replace(/^inputs/, 'input');
    throw invalidClientField(path, 'is out of range or malformed for an embedding task');
  }
  return { task: checked.data, modelLabel, clientEncodingFormat: format };
}

/** Creates the `openai-embeddings/v1` ingress codec (see {@link decodeOpenAiEmbeddingsClientRequest}). */
export function createOpenAiEmbeddingsIngressCodec(options?: OpenAiEmbeddingsIngressOptionsV1): IngressCodecV1 {
  return Object.freeze({
    protocolFamily: OPENAI_EMBEDDINGS_PROTOCOL_FAMILY,
    decodeRequest: (request: ClientWireRequestV1) => decodeOpenAiEmbeddingsClientRequest(request, options),
  });
}
