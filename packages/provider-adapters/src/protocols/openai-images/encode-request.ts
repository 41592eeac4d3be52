import {
  CodecErrorV1,
  type ImageEditTaskV2,
  type ImageGenerationTaskV2,
  type PreparedMediaExecutionInputV2,
  type ProviderAdapterTargetV1,
  type ProviderMultipartPartV1,
  type TaskEnvelopeV4,
} from '@tokenforge/model-protocol';
import { isGptImageModel } from './model-rules.js';

/** The path of image generation, below the connection's base URL (for OpenAI, `https://api.openai.com/v1`). */
export const OPENAI_IMAGES_GENERATIONS_PATH = '/images/generations';
/** The path of image edits. */
export const OPENAI_IMAGES_EDITS_PATH = '/images/edits';
/** Most source images one edit may carry (GPT image models; dall-e-2 takes one). */
export const OPENAI_IMAGES_MAX_EDIT_IMAGES = 16;

/** The JSON body of a generation (only the fields this family ever sets). */
export interface OpenAiImagesGenerationBody {
  /** The target's wire model name. */
  readonly model: string;
  /** What to draw. */
  readonly prompt: string;
  /** Number of images (the task's `count`). */
  readonly n?: number;
  /** `WIDTHxHEIGHT` or `auto`. */
  readonly size?: string;
  /** Quality tier, as the task names it. */
  readonly quality?: string;
  /** `transparent`, `opaque` or `auto`. */
  readonly background?: string;
  /** `png`, `jpeg` or `webp`. */
  readonly output_format?: string;
  /** Only for models that take it (not GPT image models), and only when the task chose a delivery. */
  readonly response_format?: 'url' | 'b64_json';
  /** Only for models that take it (not GPT image models). */
  readonly style?: string;
}

/** A request ready for the transport, without the abort signal the adapter adds. */
export interface OpenAiImagesEncodedRequest {
  /** Always `POST`. */
  readonly method: 'POST';
  /** {@link OPENAI_IMAGES_GENERATIONS_PATH} or {@link OPENAI_IMAGES_EDITS_PATH}. */
  readonly path: string;
  /** `accept` only: content type (JSON or multipart with its boundary) and credentials belong to the transport. */
  readonly headers: Readonly<Record<string, string>>;
  /** JSON for generations, multipart for edits. */
  readonly body:
    | { readonly type: 'json'; readonly value: OpenAiImagesGenerationBody }
    | { readonly type: 'multipart'; readonly parts: readonly ProviderMultipartPartV1[] };
}

type ImageTask = ImageGenerationTaskV2 | ImageEditTaskV2;

/** The optional scalar fields both endpoints share, as `[wire name, value]` in wire order. */
function sharedFields(task: ImageTask, model: string): [string, string | number][] {
  if (task.background === 'transparent' && task.outputFormat === 'jpeg') {
    throw new CodecErrorV1('invalid-request', 'background transparent needs png or webp output', { path: 'background' });
  }
  const fields: [string, string | number][] = [];
  if (task.count !== undefined) fields.push(['n', task.count]);
  if (task.size !== undefined) fields.push(['size', task.size]);
  if (task.quality !== undefined) fields.push(['quality', task.quality]);
  if (task.background !== undefined) fields.push(['background', task.background]);
  if (task.outputFormat !== undefined) fields.push(['output_format', task.outputFormat]);
  // GPT image models always answer in base64 and refuse the field; the same image arrives either way.
  if (task.delivery !== undefined && !isGptImageModel(model)) fields.push(['response_format', task.delivery === 'url' ? 'url' : 'b64_json']);
  return fields;
}

function encodeGeneration(task: ImageGenerationTaskV2, model: string): OpenAiImagesEncodedRequest {
  if (task.negativePrompt !== undefined) {
    throw new CodecErrorV1('unsupported-feature', 'the OpenAI Images API has no negative prompt', { path: 'negativePrompt' });
  }
  if (task.style !== undefined && isGptImageModel(model)) {
    throw new CodecErrorV1('unsupported-feature', 'GPT image models take no style', { path: 'style' });
  }
  const value: Record<string, string | number> = { model, prompt: task.prompt };
  for (const [name, field] of sharedFields(task, model)) value[name] = field;
  if (task.style !== undefined) value.style = task.style;
  return {
    method: 'POST',
    path: OPENAI_IMAGES_GENERATIONS_PATH,
    headers: { accept: 'application/json' },
    body: { type: 'json', value: value as unknown as OpenAiImagesGenerationBody },
  };
}

function encodeEdit(task: ImageEditTaskV2, model: string, preparedMedia: PreparedMediaExecutionInputV2 | undefined): OpenAiImagesEncodedRequest {
  const items = preparedMedia?.items ?? [];
  const images = items.filter((item) => item.role === 'image');
  const masks = items.filter((item) => item.role === 'mask');
  if (images.length === 0) throw new CodecErrorV1('invalid-request', 'an image edit needs at least one source image', { path: 'preparedMedia' });
  if (images.length > OPENAI_IMAGES_MAX_EDIT_IMAGES) {
    throw new CodecErrorV1('invalid-request', `an image edit takes at most ${OPENAI_IMAGES_MAX_EDIT_IMAGES} images`, { path: 'preparedMedia' });
  }
  if (masks.length > 1) throw new CodecErrorV1('invalid-request', 'an image edit takes at most one mask', { path: 'preparedMedia' });
  // One image goes as `image` (the only form dall-e-2 documents); several as repeated `image[]`, in order (fact sheet §2b).
  const imageField = images.length === 1 ? 'image' : 'image[]';
  const parts: ProviderMultipartPartV1[] = images.map((item) => ({
    kind: 'file',
    name: imageField,
    fileName: item.fileName,
    mediaType: item.mediaType,
    sizeBytes: item.sizeBytes,
    // Streamed by the transport straight from the host's source: never buffered here.
    open: () => item.open(),
  }));
  const mask = masks[0];
  if (mask !== undefined) {
    parts.push({ kind: 'file', name: 'mask', fileName: mask.fileName, mediaType: mask.mediaType, sizeBytes: mask.sizeBytes, open: () => mask.open() });
  }
  parts.push({ kind: 'field', name: 'prompt', value: task.prompt }, { kind: 'field', name: 'model', value: model });
  for (const [name, value] of sharedFields(task, model)) parts.push({ kind: 'field', name, value: String(value) });
  return { method: 'POST', path: OPENAI_IMAGES_EDITS_PATH, headers: { accept: 'application/json' }, body: { type: 'multipart', parts } };
}

/**
 * Encodes an image task. Pure (file parts only wrap the prepared media's `open()`).
 *
 * - `image-generation`: `POST /images/generations`, JSON `{model, prompt, n, size, quality, background,
 *   output_format, style, response_format}` with each optional field present only when the task sets it.
 * - `image-edit`: `POST /images/edits`, multipart: the source images as file parts (`image` for one, repeated
 *   `image[]` for several, in prepared-media order), the mask as a `mask` file part, then `prompt`, `model` and
 *   the optional fields as text parts (numbers in decimal).
 *
 * Rules (fact sheet §2): `response_format` (`url` / `b64_json` from `delivery`) is sent only to models that take
 * it; GPT image models always answer in base64, so their `delivery` is dropped (the image is the same). A
 * transparent background with jpeg output is refused as `invalid-request`; a negative prompt, and a style for a
 * GPT image model, are refused as `unsupported-feature` (dropping them would change the image).
 *
 * @throws {CodecErrorV1} `unsupported-feature` or `invalid-request` as above, or for a task of another kind.
 */
export function encodeOpenAiImagesRequest(
  task: TaskEnvelopeV4,
  target: ProviderAdapterTargetV1,
  preparedMedia?: PreparedMediaExecutionInputV2,
): OpenAiImagesEncodedRequest {
  switch (task.kind) {
    case 'image-generation':
      return encodeGeneration(task, target.providerModel);
    case 'image-edit':
      return encodeEdit(task, target.providerModel, preparedMedia);
    case 'chat':
    case 'embedding':
    case 'rerank':
    case 'video-generation':
    case 'token-count':
      throw new CodecErrorV1('unsupported-feature', `openai-images cannot run ${task.kind} tasks`, { path: 'kind' });
    default: {
      const unknownTask: never = task;
      throw new CodecErrorV1('unsupported-feature', 'unknown task kind', { cause: unknownTask });
    }
  }
}
