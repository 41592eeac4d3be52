import type { ProtocolFamily } from '@tokenforge/model-protocol';
import { createGeminiGenerateContentEgressCodec, createOpenAiEmbeddingsEgressCodec, createOpenAiResponsesEgressCodec } from '@tokenforge/provider-adapters';
import { Hono, type Context } from 'hono';
import { clientAuthRefusal, type ErrorShape } from './http/client-auth-refusal.js';
import type { ClientKeyPlacement } from './http/authenticate-client.js';
import { ANTHROPIC_COUNT_TOKENS, GEMINI_COUNT_TOKENS, OPENAI_RESPONSES_INPUT_TOKENS } from './dialects/count-tokens-dialects.js';
import { decodeImageEdit } from './dialects/decode-image-edit.js';
import { anthropicModelList, geminiModelList, openAiModelList, type ModelFilter } from './dialects/list-models.js';
import type { DirectDialect } from './dialects/direct-dialect.js';
import { serveDirectRequest } from './dialects/serve-direct-request.js';
import { registerAdminRoutes } from './admin/admin-routes.js';
import { registerJobRoutes } from './jobs/job-routes.js';
import type { GatewayRuntime } from './runtime/gateway-runtime.js';
import { authenticateStage } from './stages/authenticate-stage.js';

const dialect = (family: string, keyPlacement: ClientKeyPlacement, errorShape: ErrorShape, extra: Partial<DirectDialect> = {}): DirectDialect => ({
  family: family as ProtocolFamily,
  keyPlacement,
  errorShape,
  ...extra,
});

const BASE64_EMBEDDINGS = createOpenAiEmbeddingsEgressCodec({ encodingFormat: 'base64' });

const OPENAI_CHAT = dialect('openai-chat/v1', 'bearer', 'openai');
/** The Responses dialect, served on `POST /v1/responses` and on its WebSocket (`GET /v1/responses`, upgraded). */
export const OPENAI_RESPONSES = dialect('openai-responses/v1', 'bearer', 'openai', {
  // Freeform (custom) tools travel as one-string functions; their calls go back to the client as custom tool calls.
  egressFor: (decoded) =>
    'clientFreeformToolNames' in decoded && Array.isArray(decoded.clientFreeformToolNames)
      ? createOpenAiResponsesEgressCodec({ freeformToolNames: decoded.clientFreeformToolNames as string[] })
      : undefined,
});
const ANTHROPIC = dialect('anthropic-messages/v1', 'anthropic', 'anthropic');
const GEMINI_JSON_ARRAY = createGeminiGenerateContentEgressCodec({ streamFraming: 'json-array' });
const GEMINI = dialect('gemini-generate-content/v1', 'gemini', 'gemini', {
  // `:streamGenerateContent` without `alt=sse`: the client reads one JSON array, written as the events come.
  egressFor: (decoded) => ('clientStreamFraming' in decoded && decoded.clientStreamFraming === 'json-array' ? GEMINI_JSON_ARRAY : undefined),
});
const EMBEDDINGS = dialect('openai-embeddings/v1', 'bearer', 'openai', {
  // The OpenAI SDKs ask for base64 by default; the ingress reports the client's choice.
  egressFor: (decoded) => ('clientEncodingFormat' in decoded && decoded.clientEncodingFormat === 'base64' ? BASE64_EMBEDDINGS : undefined),
});
const IMAGES = dialect('openai-images/v1', 'bearer', 'openai');
const IMAGE_EDITS = dialect('openai-images/v1', 'bearer', 'openai', {
  decode: (body, request) => decodeImageEdit(body, request.headers.get('content-type') ?? ''),
});
const RERANK = dialect('cohere-rerank/v1', 'bearer', 'cohere');

function unauthorized(_c: Context, shape: ErrorShape): Response {
  return clientAuthRefusal(shape, 'unauthenticated');
}

/** The models the caller may see, or `undefined` when its key is refused. */
async function visibleModels(c: Context, runtime: GatewayRuntime, placement: ClientKeyPlacement): Promise<ModelFilter | undefined> {
  const authenticated = await authenticateStage({ request: c.req.raw, placement, clientKeys: runtime.catalogue.clientKeys, governance: runtime.governance });
  if (authenticated.kind === 'refuse') return undefined;
  const principal = authenticated.value.principal;
  const governance = runtime.governance;
  return principal === undefined || governance === undefined ? () => true : (name) => governance.mayUseModel(principal, name);
}

/** Registers, for every path the app serves, a 405 with `Allow` (the path's methods) for any other method. */
function answerOtherMethods(app: Hono): void {
  const methods = new Map<string, Set<string>>();
  // Middleware (method `ALL`, such as the admin API's key check) names no method of its own.
  for (const route of app.routes) if (route.method !== 'ALL') methods.set(route.path, (methods.get(route.path) ?? new Set()).add(route.method));
  for (const [path, allowed] of methods) {
    // Hono answers HEAD with the GET handler.
    const allow = [...allowed, ...(allowed.has('GET') ? ['HEAD'] : [])].join(', ');
    app.all(path, (c) =>
      c.json({ error: { message: `This path accepts ${allow} only.`, type: 'invalid_request_error', param: null, code: 'method_not_allowed' } }, 405, { allow }),
    );
  }
}

/**
 * The gateway as a Hono app over web-standard Request and Response: every dialect at its own paths, the jobs
 * API, health and readiness. A known path with another method is a 405 with `Allow`; anything else is a 404, both
 * in OpenAI's envelope.
 */
export function createGatewayApp(runtime: GatewayRuntime): Hono {
  const app = new Hono();
  app.post('/v1/chat/completions', (c) => serveDirectRequest(c, runtime, OPENAI_CHAT));
  app.post('/v1/responses', (c) => serveDirectRequest(c, runtime, OPENAI_RESPONSES));
  app.post('/v1/messages', (c) => serveDirectRequest(c, runtime, ANTHROPIC));
  app.post('/v1/embeddings', (c) => serveDirectRequest(c, runtime, EMBEDDINGS));
  app.post('/v1/images/generations', (c) => serveDirectRequest(c, runtime, IMAGES));
  app.post('/v1/images/edits', (c) => serveDirectRequest(c, runtime, IMAGE_EDITS));
  app.post('/v1/rerank', (c) => serveDirectRequest(c, runtime, RERANK));
  app.post('/v2/rerank', (c) => serveDirectRequest(c, runtime, RERANK));
  app.post('/v1beta/models/:target{[^/]+:(?:generateContent|streamGenerateContent)}', (c) => serveDirectRequest(c, runtime, GEMINI));
  app.post('/v1/messages/count_tokens', (c) => serveDirectRequest(c, runtime, ANTHROPIC_COUNT_TOKENS));
  app.post('/v1/responses/input_tokens', (c) => serveDirectRequest(c, runtime, OPENAI_RESPONSES_INPUT_TOKENS));
  app.post('/v1beta/models/:target{[^/]+:countTokens}', (c) => serveDirectRequest(c, runtime, GEMINI_COUNT_TOKENS));

  app.get('/v1/models', async (c) => {
    // Anthropic's SDK sends `anthropic-version` and `x-api-key`; OpenAI's sends a bearer key.
    const anthropic = c.req.header('anthropic-version') !== undefined || c.req.header('x-api-key') !== undefined;
    const visible = await visibleModels(c, runtime, anthropic ? 'anthropic' : 'bearer');
    if (visible === undefined) return unauthorized(c, anthropic ? 'anthropic' : 'openai');
    return c.json((anthropic ? anthropicModelList(runtime, visible) : openAiModelList(runtime, visible)) as object);
  });
  app.get('/v1beta/models', async (c) => {
    const visible = await visibleModels(c, runtime, 'gemini');
    return visible === undefined ? unauthorized(c, 'gemini') : c.json(geminiModelList(runtime, visible) as object);
  });

  registerJobRoutes(app, runtime);

  registerAdminRoutes(app, runtime);

  app.get('/healthz', (c) => c.json({ status: 'ok' }));
  app.get('/readyz', (c) => {
    const governance = runtime.governance === undefined ? {} : { governance: { appliedVersion: runtime.governance.appliedVersion } };
    return runtime.draining ? c.json({ status: 'draining', ...governance }, 503) : c.json({ status: 'ready', ...governance });
  });
  answerOtherMethods(app);
  app.notFound((c) => c.json({ error: { message: 'Unknown route.', type: 'invalid_request_error', param: null, code: 'unknown_route' } }, 404));
  app.onError((_error, c) => c.json({ error: { message: 'The gateway failed to serve this request.', type: 'server_error', param: null, code: 'gateway_error' } }, 500));
  return app;
}
