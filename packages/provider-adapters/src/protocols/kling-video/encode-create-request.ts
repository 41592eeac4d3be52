import { CodecErrorV1, type TaskEnvelopeV4, type VideoGenerationTaskV2 } from '@tokenforge/model-protocol';
import { klingEndpointPath, type KlingVideoEndpoint } from './kling-endpoint.js';

/** The JSON body of a Kling create request (fact sheet §4, "Create request fields"): the fields this family sends. */
export interface KlingCreateRequestBody {
  readonly model_name: string;
  readonly prompt?: string;
  readonly negative_prompt?: string;
  readonly image?: string;
  readonly image_tail?: string;
  readonly cfg_scale?: number;
  readonly mode?: 'std' | 'pro';
  readonly aspect_ratio?: '16:9' | '9:16' | '1:1';
  readonly duration?: string;
  readonly callback_url?: string;
  readonly external_task_id?: string;
}

/** A create request, ready for the transport (without the signal). */
export interface KlingCreateRequest {
  /** The endpoint the task is created on (and later read from). */
  readonly endpoint: KlingVideoEndpoint;
  readonly method: 'POST';
  readonly path: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: { readonly type: 'json'; readonly value: KlingCreateRequestBody };
}

/** Input of {@link encodeKlingCreateRequest}. */
export interface KlingCreateRequestInput {
  /** The task (only `video-generation` is expressible). */
  readonly task: TaskEnvelopeV4;
  /** The wire model name (`model_name`; never the legacy `model` key, which Kling runs as `kling-v1`). */
  readonly providerModel: string;
  /** The host's callback URL (`callback_url`). */
  readonly providerCallbackUrl?: string;
}

const ASPECT_RATIOS: ReadonlySet<string> = new Set(['16:9', '9:16', '1:1']);
const DATA_URL = /^data:image\/(?:png|jpe?g);base64,/i;

function unsupported(path: string, rule: string): CodecErrorV1 {
  return new CodecErrorV1('unsupported-feature', `kling-video/v1 cannot express ${rule}`, { path });
}

/** Kling takes a URL or raw base64 without a `data:` prefix (§4 edge case 6): a base64 data URL loses its prefix. */
function encodeImage(image: string, path: string): string {
  const prefix = DATA_URL.exec(image);
  if (prefix !== null) return image.slice(prefix[0].length);
  if (image.startsWith('data:')) throw unsupported(path, 'a data URL other than base64 PNG or JPEG');
  return image;
}

function encodeDuration(seconds: number): string {
  if (!Number.isInteger(seconds)) throw unsupported('durationSeconds', 'a fractional duration (Kling takes whole seconds as a string)');
  return String(seconds);
}

/**
 * Encodes a video task as a Kling create request. Pure: no clock, no randomness.
 *
 * - The endpoint is `image2video` when the task has an `image`, else `text2video`.
 * - `prompt`, `negative_prompt`, `image` / `image_tail` (a base64 data URL loses its `data:` prefix), `mode`
 *   (`std` | `pro`), `aspect_ratio` (text2video only: `16:9`, `9:16`, `1:1`), `duration` (whole seconds, sent as a
 *   string), `cfg_scale` from `guidance` (sent only when the task asks: models that refuse it answer 1201, a
 *   `not-accepted` start), `callback_url` from the host's callback URL, and `external_task_id` from the task's
 *   idempotency key (Kling echoes it back and keeps it unique per account, which turns a repeated create into a
 *   refusal instead of a second paid job).
 * - Refused with `unsupported-feature` (nothing is sent): task kinds other than `video-generation`, `seed` and
 *   `resolution` (Kling has neither), an `imageTail` without an `image`, an aspect ratio on image2video (the
 *   image decides it) or outside Kling's three, a mode other than `std`/`pro`, a fractional duration.
 */
export function encodeKlingCreateRequest(input: KlingCreateRequestInput): KlingCreateRequest {
  const { task } = input;
  if (task.kind !== 'video-generation') throw unsupported('kind', `the ${task.kind} task kind`);
  const video: VideoGenerationTaskV2 = task;
  if (video.seed !== undefined) throw unsupported('seed', 'a seed');
  if (video.resolution !== undefined) throw unsupported('resolution', 'a resolution (the mode sets it)');
  const endpoint: KlingVideoEndpoint = video.image === undefined ? 'text2video' : 'image2video';
  if (video.imageTail !== undefined && video.image === undefined) throw unsupported('imageTail', 'a last frame without a first frame');
  if (video.aspectRatio !== undefined) {
    if (endpoint === 'image2video') throw unsupported('aspectRatio', 'an aspect ratio for image-to-video (the image sets it)');
    if (!ASPECT_RATIOS.has(video.aspectRatio)) throw unsupported('aspectRatio', 'this aspect ratio');
  }
  if (video.mode !== undefined && video.mode !== 'std' && video.mode !== 'pro') throw unsupported('mode', 'this mode');
  const body: KlingCreateRequestBody = {
    model_name: input.providerModel,
    ...(video.prompt === undefined ? {} : { prompt: video.prompt }),
    ...(video.negativePrompt === undefined ? {} : { negative_prompt: video.negativePrompt }),
    ...(video.image === undefined ? {} : { image: encodeImage(video.image, 'image') }),
    ...(video.imageTail === undefined ? {} : { image_tail: encodeImage(video.imageTail, 'imageTail') }),
    ...(video.guidance === undefined ? {} : { cfg_scale: video.guidance }),
    ...(video.mode === undefined ? {} : { mode: video.mode }),
    ...(video.aspectRatio === undefined ? {} : { aspect_ratio: video.aspectRatio as '16:9' | '9:16' | '1:1' }),
    ...(video.durationSeconds === undefined ? {} : { duration: encodeDuration(video.durationSeconds) }),
    ...(input.providerCallbackUrl === undefined ? {} : { callback_url: input.providerCallbackUrl }),
    ...(video.idempotencyKey === undefined ? {} : { external_task_id: video.idempotencyKey }),
  };
  return {
    endpoint,
    method: 'POST',
    path: klingEndpointPath(endpoint),
    headers: { accept: 'application/json' },
    body: { type: 'json', value: body },
  };
}
