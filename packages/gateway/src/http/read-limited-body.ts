/**
 * Reads a request body up to `maxBytes`; `undefined` when it is larger (refused before anything is forwarded).
 * A declared `content-length` over the limit is refused without reading. A declared one within the limit is read
 * in one go (`arrayBuffer()`: on `@hono/node-server` straight from the socket, without a web stream or a full
 * `Request`; the HTTP parser delivers no more than the declared length); a body without one (chunked) goes
 * through a reader that stops at the limit.
 */
export async function readLimitedBody(request: Request, maxBytes: number): Promise<Uint8Array | undefined> {
  const header = request.headers.get('content-length');
  const declared = header === null ? Number.NaN : Number(header);
  if (Number.isFinite(declared) && declared > maxBytes) return undefined;
  if (Number.isInteger(declared) && declared >= 0) {
    const body = new Uint8Array(await request.arrayBuffer());
    // A `Request` built in-process may declare less than it carries; the limit holds regardless.
    return body.byteLength > maxBytes ? undefined : body;
  }
  if (request.body === null) return new Uint8Array(0);
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel().catch(() => {});
      return undefined;
    }
    chunks.push(value);
  }
  const body = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    body.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return body;
}
