import { parseMultipart } from '../multipart.js';
import type { SimulatorScenario } from '../scenario.js';
import { headerValue, parseJsonObject, type SimExchange } from '../sim-exchange.js';
import { openAiErrorBody, openAiRecordedStatus } from './openai-errors.js';
import { serveJson, type JsonWire } from './serve-json.js';

const wire: JsonWire = { fixtureFolder: 'openai-images', errorBody: openAiErrorBody, recordedStatus: openAiRecordedStatus };

/** A 1x1 transparent PNG. */
const PNG_BASE64 = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';

interface ImageRequest {
  readonly model: string;
  readonly prompt: unknown;
  readonly n: unknown;
  readonly responseFormat: unknown;
}

function answer(request: ImageRequest, imageCount: number): { status: number; body: unknown } {
  if (typeof request.prompt !== 'string' || request.prompt.length === 0) {
    return { status: 400, body: openAiErrorBody(400, "Missing required parameter: 'prompt'.") };
  }
  const gptImage = request.model.startsWith('gpt-image');
  if (gptImage && request.responseFormat !== undefined) {
    return { status: 400, body: { error: { message: "Unknown parameter: 'response_format'.", type: 'invalid_request_error', param: 'response_format', code: 'unknown_parameter' } } };
  }
  const count = request.n === undefined ? 1 : Number(request.n);
  if (!Number.isInteger(count) || count < 1 || count > 10) return { status: 400, body: openAiErrorBody(400, "Invalid 'n'.") };
  const asUrl = !gptImage && request.responseFormat !== 'b64_json';
  const data = Array.from({ length: count }, (_, index) =>
    asUrl ? { url: `https://images.simulator.example/generated/${index}.png`, revised_prompt: request.prompt } : { b64_json: PNG_BASE64 },
  );
  const usage = gptImage
    ? { input_tokens: 10 + imageCount * 65, input_tokens_details: { text_tokens: 10, image_tokens: imageCount * 65 }, output_tokens: 272 * count, total_tokens: 10 + imageCount * 65 + 272 * count }
    : undefined;
  return { status: 200, body: { created: 1_770_000_000, data, ...(usage === undefined ? {} : { usage }) } };
}

/** `POST /v1/images/generations` (fact sheet §2a, §2c): JSON in, `{created, data[], usage?}` out. */
export function serveOpenAiImageGenerations(exchange: SimExchange, scenario: SimulatorScenario): Promise<void> {
  return serveJson(wire, exchange, scenario, () => {
    const body = parseJsonObject(exchange.request.body);
    if (body === undefined) return { status: 400, body: openAiErrorBody(400, 'We could not parse the JSON body of your request.') };
    return answer({ model: typeof body.model === 'string' ? body.model : 'dall-e-2', prompt: body.prompt, n: body.n, responseFormat: body.response_format }, 0);
  });
}

/** `POST /v1/images/edits` (fact sheet §2b): multipart with `image` or repeated `image[]` files, optional `mask`. */
export function serveOpenAiImageEdits(exchange: SimExchange, scenario: SimulatorScenario): Promise<void> {
  return serveJson(wire, exchange, scenario, () => {
    const parts = parseMultipart(headerValue(exchange.request.headers, 'content-type'), exchange.request.body);
    if (parts === undefined) return { status: 400, body: openAiErrorBody(400, 'Expected a multipart/form-data body.') };
    const field = (name: string): string | undefined => parts.find((part) => part.name === name && part.fileName === undefined)?.data.toString('utf8');
    const images = parts.filter((part) => (part.name === 'image' || part.name === 'image[]') && part.fileName !== undefined && part.data.length > 0);
    if (images.length === 0) return { status: 400, body: openAiErrorBody(400, "Missing required parameter: 'image'.") };
    return answer({ model: field('model') ?? 'dall-e-2', prompt: field('prompt'), n: field('n'), responseFormat: field('response_format') }, images.length);
  });
}

/** The model a multipart edit names (for scenario selection). */
export function imageEditModel(exchange: SimExchange): string | undefined {
  const parts = parseMultipart(headerValue(exchange.request.headers, 'content-type'), exchange.request.body);
  return parts?.find((part) => part.name === 'model' && part.fileName === undefined)?.data.toString('utf8');
}
