import { CodecErrorV1, type ProviderAdapterTargetV1, type TaskEnvelopeV4 } from '@tokenforge/model-protocol';
import {
  OPENAI_EMBEDDINGS_MAX_INPUTS,
  resolveOpenAiEmbeddingsProtocolOptions,
  type OpenAiEmbeddingsProtocolOptionsV1,
} from './protocol-options.js';

/** The path of the endpoint, below the connection's base URL (for OpenAI, `https://api.openai.com/v1`). */
export const OPENAI_EMBEDDINGS_PATH = '/embeddings';

/** The request body this family sends (only the fields it ever sets). */
export interface OpenAiEmbeddingsRequestBody {
  /** The target's wire model name. */
  readonly model: string;
  /** The texts, in task order (always an array, even for one input). */
  readonly input: readonly string[];
  /** How vectors come back (see `OpenAiEmbeddingsProtocolOptionsV1.encodingFormat`). */
  readonly encoding_format: 'base64' | 'float';
  /** Present only when the task asks for dimensions other than the space's default. */
  readonly dimensions?: number;
}

/** A request ready for the transport, without the abort signal the adapter adds. */
export interface OpenAiEmbeddingsEncodedRequest {
  /** Always `POST`. */
  readonly method: 'POST';
  /** {@link OPENAI_EMBEDDINGS_PATH}. */
  readonly path: string;
  /** `accept` only: content type and credentials belong to the transport. */
  readonly headers: Readonly<Record<string, string>>;
  /** The JSON body. */
  readonly body: { readonly type: 'json'; readonly value: OpenAiEmbeddingsRequestBody };
}

function invalid(path: string, rule: string): CodecErrorV1 {
  return new CodecErrorV1('invalid-request', `${path} ${rule}`, { path });
}

/**
 * Encodes an embedding task as `POST /embeddings`. Pure.
 *
 * Limits are checked here, before anything is sent: at least one input and at most 2,048 (OpenAI's limit) and at
 * most the space's `maxInputs`; no empty input; no input longer than the `maxInputCharacters` option.
 * `dimensions` is sent only when the task asks for a size other than the space's `defaultDimensions`: models
 * that cannot shorten vectors (`text-embedding-ada-002`) refuse the field even when it names their own size.
 *
 * @throws {CodecErrorV1} `unsupported-feature` for a task that is not an embedding task or has more inputs than
 * the target's `maxInputs`; `invalid-request` for the other limits (with the offending input's index as path).
 */
export function encodeOpenAiEmbeddingsRequest(
  task: TaskEnvelopeV4,
  target: ProviderAdapterTargetV1,
  options?: OpenAiEmbeddingsProtocolOptionsV1,
): OpenAiEmbeddingsEncodedRequest {
  if (task.kind !== 'embedding') {
    throw new CodecErrorV1('unsupported-feature', `openai-embeddings cannot run ${task.kind} tasks`, { path: 'kind' });
  }
  const resolved = resolveOpenAiEmbeddingsProtocolOptions(options);
  const inputs = task.inputs;
  if (inputs.length === 0) throw invalid('inputs', 'must hold at least one input');
  if (inputs.length > OPENAI_EMBEDDINGS_MAX_INPUTS) throw invalid('inputs', `must hold at most ${OPENAI_EMBEDDINGS_MAX_INPUTS} inputs`);
  const space = target.capability.embedding;
  if (space?.maxInputs !== undefined && inputs.length > space.maxInputs) {
    throw new CodecErrorV1('unsupported-feature', 'inputs exceed the target maxInputs', { path: 'inputs' });
  }
  for (let index = 0; index < inputs.length; index += 1) {
    const input = inputs[index] as string;
    if (input.length === 0) throw invalid(`inputs.${index}`, 'must not be empty');
    if (input.length > resolved.maxInputCharacters) {
      throw invalid(`inputs.${index}`, `must be at most ${resolved.maxInputCharacters} characters`);
    }
  }
  const dimensions = task.dimensions !== undefined && task.dimensions !== space?.defaultDimensions ? task.dimensions : undefined;
  return {
    method: 'POST',
    path: OPENAI_EMBEDDINGS_PATH,
    headers: { accept: 'application/json' },
    body: {
      type: 'json',
      value: {
        model: target.providerModel,
        input: [...inputs],
        encoding_format: resolved.encodingFormat,
        ...(dimensions === undefined ? {} : { dimensions }),
      },
    },
  };
}
