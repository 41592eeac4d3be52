import { IncomingMessage, ServerResponse } from 'node:http';
import type { Context } from 'hono';
import { sendDirectStream } from '../pipeline/direct-stream-writer.js';
import { serveModelRequest } from '../pipeline/serve-model-request.js';
import type { GatewayRuntime } from '../runtime/gateway-runtime.js';
import type { DirectDialect } from './direct-dialect.js';

export type { DirectDialect } from './direct-dialect.js';
export { DROPPED_TOOLS_HEADER } from './dropped-hosted-tools.js';

/**
 * What `@hono/node-server` reads as "the response is already written" (its `RESPONSE_ALREADY_SENT`): a platform
 * Response with its `x-hono-already-sent` header. It must be the platform's class: the listener's own Response
 * (installed over the global while it serves) takes a cached path that writes a head of its own.
 */
function alreadySent(): Response {
  const overridden: unknown = Object.getPrototypeOf(Response);
  const Platform = typeof overridden === 'function' && overridden !== Function.prototype ? (overridden as typeof Response) : Response;
  return new Platform(null, { headers: { 'x-hono-already-sent': 'true' } });
}

/**
 * Serves one model request of a direct-HTTP dialect from its Hono route (see `serveModelRequest`). On `node:http`
 * (the node request and response in the app's env), the body is read from the node request and a stream is written
 * straight to the socket.
 */
export async function serveDirectRequest(c: Context, runtime: GatewayRuntime, dialect: DirectDialect): Promise<Response> {
  const env = c.env as { incoming?: unknown; outgoing?: unknown } | undefined;
  const incoming = env?.incoming;
  const outgoing = env?.outgoing;
  const response = await serveModelRequest(c.req.raw, runtime, dialect, {
    ...(incoming instanceof IncomingMessage ? { incoming } : {}),
    ...(outgoing instanceof ServerResponse ? { outgoing } : {}),
  });
  if (outgoing instanceof ServerResponse && sendDirectStream(response, outgoing)) return alreadySent();
  return response;
}
