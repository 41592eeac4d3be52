/*
 * Per-model rules of the OpenAI Images API (fact sheet §2a, §2b). The wire model name is the only per-target fact
 * that tells them apart, so the rules read it here, inside this family, and nowhere else.
 */

const GPT_IMAGE_MODEL = /^(?:gpt|chatgpt)-image(?:-|$)/;

/**
 * Whether the model is a GPT image model (`gpt-image-1`, `gpt-image-1-mini`, `gpt-image-1.5`, `gpt-image-2`,
 * dated snapshots, `chatgpt-image-*`). GPT image models always answer in base64 and refuse `response_format`
 * (the recorded `unknown_parameter` error) and `style`.
 */
export function isGptImageModel(model: string): boolean {
  return GPT_IMAGE_MODEL.test(model);
}
