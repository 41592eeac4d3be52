import type { UsageV1 } from '@tokenforge/model-protocol';
import type { OpenAiImagesWireUsage } from './wire-readers.js';

/**
 * Converts OpenAI images usage. Arithmetic: GPT image models report `input_tokens` (text plus image input; the
 * `input_tokens_details` split has no normalized field and is not kept), `output_tokens` (image tokens, plus text
 * tokens where `output_tokens_details` says so: all of it is output) and `total_tokens` (their sum). dall-e
 * models report no tokens. `images` is always the number of images returned, the unit dall-e bills by. A token
 * field the provider did not send stays absent.
 */
export function convertOpenAiImagesUsage(usage: OpenAiImagesWireUsage | undefined, images: number): UsageV1 {
  return {
    ...(usage?.input_tokens === undefined ? {} : { inputTokens: usage.input_tokens }),
    ...(usage?.output_tokens === undefined ? {} : { outputTokens: usage.output_tokens }),
    ...(usage?.total_tokens === undefined ? {} : { totalTokens: usage.total_tokens }),
    images,
  };
}
