import type { ServerResponse } from 'node:http';

/** The node response a stream is written to when the gateway runs on `node:http`. */
export type DirectStreamSocket = ServerResponse;

/**
 * Writes a committed stream's body straight to the node response (the head already written), with the same
 * endings as the web body: the terminal's bytes, an in-stream error, a cut, or a client that left (cancelled).
 */
export type DirectStreamWriter = (outgoing: DirectStreamSocket) => Promise<void>;

const DIRECT_STREAM_WRITER = Symbol('tokenforge.gateway.direct-stream-writer');

/** `response`, marked as one whose body can also be written straight to a node response by `writer`. */
export function withDirectStreamWriter(response: Response, writer: DirectStreamWriter): Response {
  Object.defineProperty(response, DIRECT_STREAM_WRITER, { value: writer });
  return response;
}

/**
 * Sends a marked stream response over `outgoing` directly, bypassing the web stream between the app and the
 * socket (one write per upstream read, no reader, no promise per chunk): writes the head from `response` (its
 * headers as the stages left them) and starts the body. Returns false, touching nothing, for any other response.
 */
export function sendDirectStream(response: Response, outgoing: DirectStreamSocket): boolean {
  const writer = (response as { [DIRECT_STREAM_WRITER]?: DirectStreamWriter })[DIRECT_STREAM_WRITER];
  if (writer === undefined || outgoing.headersSent) return false;
  const headers: Record<string, string> = {};
  response.headers.forEach((value, name) => {
    headers[name] = value;
  });
  outgoing.writeHead(response.status, headers);
  void writer(outgoing);
  return true;
}
