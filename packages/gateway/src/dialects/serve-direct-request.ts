import type { Context } from 'hono';
import { serveModelRequest } from '../pipeline/serve-model-request.js';
import type { GatewayRuntime } from '../runtime/gateway-runtime.js';
import type { DirectDialect } from './direct-dialect.js';

export type { DirectDialect } from './direct-dialect.js';
export { DROPPED_TOOLS_HEADER } from './dropped-hosted-tools.js';

/** Serves one model request of a direct-HTTP dialect from its Hono route (see `serveModelRequest`). */
export function serveDirectRequest(c: Context, runtime: GatewayRuntime, dialect: DirectDialect): Promise<Response> {
  return serveModelRequest(c.req.raw, runtime, dialect);
}
