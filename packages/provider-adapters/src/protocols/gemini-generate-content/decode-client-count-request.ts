import { CodecErrorV1, type ClientWireRequestV1, type IngressDecodedRequestV1 } from '@tokenforge/model-protocol';
import { parseSafeJsonBytes, tokenCountOfChatTask } from '../../codec-kit/index.js';
import { decodeGeminiClientRequest, type GeminiIngressOptionsV1 } from './ingress.js';

const COUNT_PATH = /^(\/(?:v1beta|v1|v1alpha)\/models\/[^/:]+):countTokens$/;

/**
 * Decodes a client's `POST /v1beta/models/{model}:countTokens` into a token-count task. The body is either
 * `{contents}` or `{generateContentRequest: {model?, contents, systemInstruction?, tools?, toolConfig?,
 * generationConfig?}}` (not both); either is read by the generateContent ingress, so the same refusals apply. The
 * model comes from the path.
 *
 * @throws {CodecErrorV1} `invalid-request` for another path, a body with both forms or neither; otherwise as
 * `decodeGeminiClientRequest` does.
 */
export function decodeGeminiClientCountRequest(request: ClientWireRequestV1, options?: GeminiIngressOptionsV1): IngressDecodedRequestV1 {
  const match = COUNT_PATH.exec(request.path.length > 1024 ? '' : request.path);
  if (match === null) throw new CodecErrorV1('invalid-request', 'path is not a Gemini countTokens path', { path: 'path' });
  const parsed = parseSafeJsonBytes(request.body, options?.jsonLimits);
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new CodecErrorV1('invalid-request', 'request body is not a JSON object', { path: '' });
  const body = parsed as Record<string, unknown>;
  const wrapped = body.generateContentRequest;
  if (wrapped !== undefined && body.contents !== undefined) {
    throw new CodecErrorV1('invalid-request', 'send contents or generateContentRequest, not both', { path: 'generateContentRequest' });
  }
  let generate: Record<string, unknown>;
  if (wrapped === undefined) {
    for (const key of Object.keys(body)) if (key !== 'contents') throw new CodecErrorV1('invalid-request', 'unknown request field', { path: key });
    generate = { contents: body.contents };
  } else {
    if (typeof wrapped !== 'object' || wrapped === null || Array.isArray(wrapped)) {
      throw new CodecErrorV1('invalid-request', 'generateContentRequest is not a JSON object', { path: 'generateContentRequest' });
    }
    const { model: _model, ...rest } = wrapped as Record<string, unknown>;
    generate = rest;
  }
  const decoded = decodeGeminiClientRequest(
    { ...request, path: `${match[1] as string}:generateContent`, query: {}, body: new TextEncoder().encode(JSON.stringify(generate)) },
    options,
  );
  return { task: tokenCountOfChatTask(decoded.task), modelLabel: decoded.modelLabel };
}
