import { STATUS_CODES, type IncomingMessage, type Server } from 'node:http';
import type { Duplex } from 'node:stream';
import type { WebSocketServer } from 'ws';
import type { DirectDialect } from '../dialects/direct-dialect.js';
import { clientAuthRefusal } from '../http/client-auth-refusal.js';
import { createRequestScope } from '../pipeline/request-scope.js';
import type { GatewayRuntime } from '../runtime/gateway-runtime.js';
import { authenticateStage } from '../stages/authenticate-stage.js';
import { logStage } from '../stages/log-stage.js';
import { requestTelemetryFor } from '../telemetry/request-telemetry-for.js';
import type { ResponseHistoryLimits } from './response-history.js';
import { RESPONSES_WEBSOCKET_ROUTE, ResponsesWebSocketSession } from './responses-websocket-session.js';

/** The path the Responses WebSocket is served on (`GET` with `Upgrade: websocket`). */
export const RESPONSES_WEBSOCKET_PATH = '/v1/responses';

/**
 * How long a connection keeps its last response for `previous_response_id`: 15 minutes after it completed. The
 * byte cap is the gateway's `limits.maxBodyBytes` (an expanded follow-up must fit in it anyway).
 */
export const RESPONSE_HISTORY_TTL_MS = 15 * 60_000;

/** Headers of the upgrade that are about the connection, not the request each `response.create` stands for. */
const CONNECTION_HEADERS = new Set(['host', 'connection', 'upgrade', 'content-length', 'transfer-encoding', 'keep-alive', 'te', 'trailer', 'proxy-connection']);

/** The Responses WebSocket endpoint of a running gateway. */
export interface ResponsesWebSocketEndpoint {
  /** Responses running on WebSocket connections. */
  readonly active: number;
  /** Resolves when no response is running (at once when none is). */
  idle(): Promise<void>;
  /** Closes every connection (`1001 going away`). */
  closeAll(): void;
}

function requestHeaders(message: IncomingMessage): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(message.headers)) {
    if (value === undefined || CONNECTION_HEADERS.has(name) || name.startsWith('sec-websocket-')) continue;
    for (const item of Array.isArray(value) ? value : [value]) headers.append(name, item);
  }
  headers.set('content-type', 'application/json');
  return headers;
}

async function writeRefusal(socket: Duplex, response: Response): Promise<void> {
  const body = Buffer.from(await response.arrayBuffer());
  const head = [`HTTP/1.1 ${response.status} ${STATUS_CODES[response.status] ?? ''}`];
  response.headers.forEach((value, name) => head.push(`${name}: ${value}`));
  head.push(`content-length: ${body.byteLength}`, 'connection: close', '', '');
  socket.end(Buffer.concat([Buffer.from(head.join('\r\n')), body]));
}

const unknownRoute = (): Response =>
  new Response(JSON.stringify({ error: { message: 'Unknown route.', type: 'invalid_request_error', param: null, code: 'unknown_route' } }), {
    status: 404,
    headers: { 'content-type': 'application/json' },
  });

/**
 * Serves the Responses API over WebSocket on `server`'s `upgrade` event, with `ws`: the client key is checked before
 * the `101` (a wrong key gets the dialect's 401 and no socket), then each connection is a
 * {@link ResponsesWebSocketSession}. Messages up to twice `maxBodyBytes` are read and refused in-band when over
 * `maxBodyBytes`; a larger frame closes the connection (`1009`), as `ws` must stop reading it.
 */
export function attachResponsesWebSocket(server: Server, runtime: GatewayRuntime, dialect: DirectDialect): ResponsesWebSocketEndpoint {
  // `ws` is loaded with the first upgrade: a gateway nobody opens a WebSocket to never loads it.
  let sockets: WebSocketServer | undefined;
  let closed = false;
  const socketServer = async (): Promise<WebSocketServer> => {
    if (sockets === undefined) {
      const { WebSocketServer } = await import('ws');
      sockets ??= new WebSocketServer({ noServer: true, maxPayload: runtime.limits.maxBodyBytes * 2, perMessageDeflate: false });
    }
    return sockets;
  };
  const history: ResponseHistoryLimits = { maxBytes: runtime.limits.maxBodyBytes, ttlMs: RESPONSE_HISTORY_TTL_MS };
  let active = 0;
  let onIdle: (() => void) | undefined;
  const onActivity = (delta: 1 | -1): void => {
    active += delta;
    if (active === 0) onIdle?.();
  };

  server.on('upgrade', (message: IncomingMessage, socket: Duplex, head: Buffer) => {
    void (async () => {
      const url = new URL(message.url ?? '/', 'http://gateway.invalid');
      if (url.pathname !== RESPONSES_WEBSOCKET_PATH || message.method !== 'GET' || (message.headers.upgrade ?? '').toLowerCase() !== 'websocket') {
        return writeRefusal(socket, unknownRoute());
      }
      const headers = requestHeaders(message);
      const request = new Request(url, { headers });
      const authenticated = await authenticateStage({ request, placement: dialect.keyPlacement, clientKeys: runtime.catalogue.clientKeys, governance: runtime.governance });
      if (authenticated.kind === 'refuse') {
        const scope = createRequestScope(request, (route) => requestTelemetryFor(runtime, route), RESPONSES_WEBSOCKET_ROUTE);
        logStage(runtime.logger, scope, 401, authenticated.refusal.outcome);
        return writeRefusal(socket, clientAuthRefusal(dialect.errorShape, scope.requestId));
      }
      const server = await socketServer();
      if (closed) return socket.destroy();
      server.handleUpgrade(message, socket, head, (webSocket) => {
        new ResponsesWebSocketSession({ socket: webSocket, runtime, dialect, headers, clientId: authenticated.value.clientId, history, onActivity });
      });
    })().catch(() => socket.destroy());
  });

  return {
    get active() {
      return active;
    },
    idle: () => (active === 0 ? Promise.resolve() : new Promise((resolve) => (onIdle = resolve))),
    closeAll: () => {
      closed = true;
      if (sockets === undefined) return;
      for (const client of sockets.clients) client.close(1001, 'going away');
      sockets.close();
    },
  };
}
