import { CodecErrorV1, type TaskEnvelopeV4 } from '@tokenforge/model-protocol';

/** Video synthesis (text or first-frame image to video). */
export const DASHSCOPE_VIDEO_SYNTHESIS_PATH = '/api/v1/services/aigc/video-generation/video-synthesis';
/** First-and-last-frame video synthesis (the `image2video` task segment, fact sheet §5). */
export const DASHSCOPE_KEYFRAME_VIDEO_SYNTHESIS_PATH = '/api/v1/services/aigc/image2video/video-synthesis';
/** Text to image synthesis. */
export const DASHSCOPE_IMAGE_SYNTHESIS_PATH = '/api/v1/services/aigc/text2image/image-synthesis';

/** The JSON body of a DashScope async create: `{model, input, parameters?}`. */
export interface DashScopeCreateRequestBody {
  readonly model: string;
  readonly input: Readonly<Record<string, string>>;
  readonly parameters?: Readonly<Record<string, string | number>>;
}

/** A create request, ready for the transport (without the signal). */
export interface DashScopeCreateRequest {
  readonly method: 'POST';
  readonly path: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: { readonly type: 'json'; readonly value: DashScopeCreateRequestBody };
}

const SIZE = /^([1-9][0-9]{1,4})x([1-9][0-9]{1,4})$/;
const RESOLUTION_TIER = /^(480|720|1080)p$/i;
const IMAGE_URL = /^(?:https?:\/\/|oss:\/\/|data:image\/)/i;

function unsupported(path: string, rule: string): CodecErrorV1 {
  return new CodecErrorV1('unsupported-feature', `dashscope-tasks/v1 cannot express ${rule}`, { path });
}

/** `1280x720` becomes `1280*720` (DashScope's separator, §5 edge case 6). */
function encodeSize(size: string, path: string): string {
  const match = SIZE.exec(size);
  if (match === null) throw unsupported(path, 'this size');
  return `${match[1]}*${match[2]}`;
}

function encodeImageUrl(image: string, path: string): string {
  if (!IMAGE_URL.test(image)) throw unsupported(path, 'an image that is not a URL (raw base64 has no field here)');
  return image;
}

function encodeVideo(task: Extract<TaskEnvelopeV4, { kind: 'video-generation' }>, model: string): DashScopeCreateRequest {
  if (task.guidance !== undefined) throw unsupported('guidance', 'a guidance scale');
  if (task.mode !== undefined) throw unsupported('mode', 'a quality mode');
  if (task.durationSeconds !== undefined && !Number.isInteger(task.durationSeconds)) throw unsupported('durationSeconds', 'a fractional duration');
  const keyframes = task.imageTail !== undefined;
  if (keyframes && task.image === undefined) throw unsupported('imageTail', 'a last frame without a first frame');
  const input: Record<string, string> = {};
  if (task.prompt !== undefined) input.prompt = task.prompt;
  if (task.negativePrompt !== undefined) input.negative_prompt = task.negativePrompt;
  if (task.image !== undefined) input[keyframes ? 'first_frame_url' : 'img_url'] = encodeImageUrl(task.image, 'image');
  if (task.imageTail !== undefined) input.last_frame_url = encodeImageUrl(task.imageTail, 'imageTail');
  const parameters: Record<string, string | number> = {};
  if (task.resolution !== undefined) {
    const tier = RESOLUTION_TIER.exec(task.resolution);
    if (tier !== null) parameters.resolution = `${tier[1]}P`;
    else parameters.size = encodeSize(task.resolution, 'resolution');
  }
  if (task.aspectRatio !== undefined) parameters.ratio = task.aspectRatio;
  if (task.durationSeconds !== undefined) parameters.duration = task.durationSeconds;
  if (task.seed !== undefined) parameters.seed = task.seed;
  return request(keyframes ? DASHSCOPE_KEYFRAME_VIDEO_SYNTHESIS_PATH : DASHSCOPE_VIDEO_SYNTHESIS_PATH, model, input, parameters);
}

function encodeImage(task: Extract<TaskEnvelopeV4, { kind: 'image-generation' }>, model: string): DashScopeCreateRequest {
  if (task.quality !== undefined) throw unsupported('quality', 'a quality tier');
  if (task.background !== undefined) throw unsupported('background', 'a background mode');
  if (task.outputFormat !== undefined) throw unsupported('outputFormat', 'an output format');
  if (task.delivery === 'base64') throw unsupported('delivery', 'inline base64 images (results are URLs)');
  const input: Record<string, string> = { prompt: task.prompt };
  if (task.negativePrompt !== undefined) input.negative_prompt = task.negativePrompt;
  const parameters: Record<string, string | number> = {};
  if (task.size !== undefined && task.size !== 'auto') parameters.size = encodeSize(task.size, 'size');
  if (task.count !== undefined) parameters.n = task.count;
  if (task.style !== undefined) parameters.style = task.style;
  return request(DASHSCOPE_IMAGE_SYNTHESIS_PATH, model, input, parameters);
}

function request(path: string, model: string, input: Record<string, string>, parameters: Record<string, string | number>): DashScopeCreateRequest {
  return {
    method: 'POST',
    path,
    headers: { accept: 'application/json', 'x-dashscope-async': 'enable' },
    body: { type: 'json', value: { model, input, ...(Object.keys(parameters).length === 0 ? {} : { parameters }) } },
  };
}

/**
 * Encodes a task as a DashScope async create (fact sheet §5). Pure. Always sends `X-DashScope-Async: enable`.
 *
 * - `video-generation`: `POST .../video-generation/video-synthesis` with `input.prompt`, `negative_prompt`,
 *   `img_url` (first-frame image); with a last frame, `POST .../image2video/video-synthesis` with `first_frame_url`
 *   and `last_frame_url`. `parameters`: `resolution` (`720p` becomes `720P`) or `size` (`1280x720` becomes
 *   `1280*720`), `ratio`, `duration` (whole seconds), `seed`.
 * - `image-generation`: `POST .../text2image/image-synthesis` with `input.prompt`, `negative_prompt`; `parameters`:
 *   `size` (`*` separator; `auto` is omitted, the provider default), `n`, `style`.
 * - Refused with `unsupported-feature` (nothing sent): other task kinds, video `guidance` and `mode`, a fractional
 *   duration, a last frame alone, images that are not URLs, image `quality` / `background` / `outputFormat`, and
 *   `delivery: 'base64'` (DashScope returns URLs).
 *
 * The host's idempotency key is not sent: DashScope documents none (§5); reconciliation of an `unknown` start goes
 * by submission window through `list`.
 */
export function encodeDashScopeCreateRequest(task: TaskEnvelopeV4, providerModel: string): DashScopeCreateRequest {
  switch (task.kind) {
    case 'video-generation':
      return encodeVideo(task, providerModel);
    case 'image-generation':
      return encodeImage(task, providerModel);
    case 'chat':
    case 'embedding':
    case 'image-edit':
    case 'rerank':
    case 'token-count':
      throw unsupported('kind', `the ${task.kind} task kind`);
    default: {
      const unknownTask: never = task;
      throw unsupported('kind', `the ${String((unknownTask as { kind?: unknown }).kind)} task kind`);
    }
  }
}
