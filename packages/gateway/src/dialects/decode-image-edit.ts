import { createHash } from 'node:crypto';
import { CodecErrorV1, taskEnvelopeV2Schema, type IngressDecodedRequestV1, type PreparedMediaExecutionInputV2, type PreparedMediaItemV2 } from '@tokenforge/model-protocol';

/** What an `images/edits` request becomes: the task, and the uploaded files as prepared media. */
export interface DecodedImageEdit {
  readonly decoded: IngressDecodedRequestV1;
  readonly preparedMedia: PreparedMediaExecutionInputV2;
}

const MEDIA_TYPE = /^image\/(?:png|jpeg|webp)$/;

async function prepared(role: 'image' | 'mask', file: File): Promise<PreparedMediaItemV2> {
  const bytes = new Uint8Array(await file.arrayBuffer());
  const mediaType = file.type.length > 0 ? file.type : 'image/png';
  if (!MEDIA_TYPE.test(mediaType)) throw new CodecErrorV1('invalid-request', `${role} must be a PNG, JPEG or WebP image`, { path: role });
  const fileName = (file.name.split(/[/\\]/).pop() ?? '').replace(/[\u0000-\u001f]/g, '') || `${role}.png`;
  return {
    role,
    fileName: fileName.slice(0, 255),
    mediaType,
    sizeBytes: bytes.byteLength,
    sha256: createHash('sha256').update(bytes).digest('hex'),
    open: async function* open() {
      yield bytes;
    },
  };
}

function field(form: FormData, name: string): string | undefined {
  const value = form.get(name);
  return typeof value === 'string' && value.length > 0 ? value : undefined;
}

/**
 * Decodes OpenAI's multipart `POST /v1/images/edits` (the `image` or `image[]` files, an optional `mask`,
 * `model`, `prompt`, `n`, `size`, `quality`, `background`, `output_format`, `response_format`) into an
 * `image-edit` task with the files as prepared media. The builtin images ingress takes JSON generations only,
 * so the gateway reads this one form itself; the bytes were already bounded by the body limit.
 *
 * @throws {CodecErrorV1} `invalid-request` for a form that is not one, a missing model, prompt or image, or a
 * field out of range.
 */
export async function decodeImageEdit(body: Uint8Array, contentType: string): Promise<DecodedImageEdit> {
  let form: FormData;
  try {
    form = await new Response(body.slice(), { headers: { 'content-type': contentType } }).formData();
  } catch {
    throw new CodecErrorV1('invalid-request', 'the body is not a multipart form', { path: 'body' });
  }
  const modelLabel = field(form, 'model');
  if (modelLabel === undefined) throw new CodecErrorV1('invalid-request', 'model is required', { path: 'model' });
  const images = [...form.getAll('image'), ...form.getAll('image[]')].filter((value): value is File => typeof value !== 'string');
  if (images.length === 0) throw new CodecErrorV1('invalid-request', 'image is required', { path: 'image' });
  const mask = form.get('mask');
  const items = await Promise.all([...images.map((image) => prepared('image', image)), ...(mask instanceof File ? [prepared('mask', mask)] : [])]);
  const count = field(form, 'n');
  const responseFormat = field(form, 'response_format');
  const checked = taskEnvelopeV2Schema.safeParse({
    kind: 'image-edit',
    prompt: field(form, 'prompt'),
    ...(count === undefined ? {} : { count: Number(count) }),
    ...(field(form, 'size') === undefined ? {} : { size: field(form, 'size') }),
    ...(field(form, 'quality') === undefined ? {} : { quality: field(form, 'quality') }),
    ...(field(form, 'background') === undefined ? {} : { background: field(form, 'background') }),
    ...(field(form, 'output_format') === undefined ? {} : { outputFormat: field(form, 'output_format') }),
    ...(responseFormat === undefined ? {} : { delivery: responseFormat === 'url' ? 'url' : 'base64' }),
  });
  if (!checked.success) {
    const path = checked.error.issues[0]?.path.map(String).join('.') ?? 'body';
    throw new CodecErrorV1('invalid-request', `the form does not make a valid image edit at ${path}`, { path });
  }
  return { decoded: { task: checked.data, modelLabel }, preparedMedia: { items, totalBytes: items.reduce((sum, item) => sum + item.sizeBytes, 0) } };
}
