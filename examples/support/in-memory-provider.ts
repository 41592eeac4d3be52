/**
 * EXAMPLE ONLY: an in-memory "provider" and the transport that reaches it. Nothing here touches the network.
 *
 * The provider speaks a made-up wire dialect so the example can show a whole round trip: the adapter encodes a
 * request, the transport delivers it, the provider answers with bytes, the adapter decodes them.
 *   POST /v1/echo             {"text": "..."}               -> {"id": "...", "reply": "...", "tokensIn": n, "tokensOut": n}
 *   POST /v1/echo?stream=1    {"text": "..."}               -> NDJSON lines {"piece": "..."} then {"done": true, "tokensIn": n, "tokensOut": n}
 *   POST /v1/clips            {"prompt": "..."}             -> {"clipId": "..."}
 *   GET  /v1/clips/<id>                                     -> {"clipId": "...", "status": "ready", "url": "https://..."}
 */
import type { ProviderTransport, ProviderTransportRequest, ProviderTransportResponse } from '@tokenforge/model-protocol';

const encoder = new TextEncoder();

function bytes(text: string): AsyncIterable<Uint8Array> {
  return (async function* body() {
    const all = encoder.encode(text);
    // Deliver in small chunks, as a network would.
    for (let offset = 0; offset < all.length; offset += 16) yield all.subarray(offset, offset + 16);
  })();
}

function answer(status: number, text: string, requestId: string): ProviderTransportResponse {
  return { status, headers: { 'content-type': 'application/json', 'x-request-id': requestId }, body: bytes(text) };
}

/** The example's in-memory provider behind a transport port. Records what it was sent. */
export function createInMemoryExampleTransport(): ProviderTransport & { readonly requests: ProviderTransportRequest[] } {
  const requests: ProviderTransportRequest[] = [];
  const clips = new Map<string, string>();
  let counter = 0;
  return {
    requests,
    async send(request) {
      requests.push(request);
      counter += 1;
      const requestId = `example-req-${counter}`;
      const body = request.body.type === 'json' ? (request.body.value as Record<string, unknown>) : {};
      if (request.method === 'POST' && request.path === '/v1/echo') {
        const text = String(body.text ?? '');
        const reply = `You said: ${text}`;
        const tokensIn = text.split(/\s+/).length;
        const tokensOut = reply.split(/\s+/).length;
        if (request.query?.stream === '1') {
          const lines = reply.split(/(?<= )/).map((piece) => JSON.stringify({ piece }));
          lines.push(JSON.stringify({ done: true, tokensIn, tokensOut }));
          return answer(200, `${lines.join('\n')}\n`, requestId);
        }
        return answer(200, JSON.stringify({ id: requestId, reply, tokensIn, tokensOut }), requestId);
      }
      if (request.method === 'POST' && request.path === '/v1/clips') {
        const clipId = `clip-${counter}`;
        clips.set(clipId, String(body.prompt ?? ''));
        return answer(202, JSON.stringify({ clipId }), requestId);
      }
      const clip = /^\/v1\/clips\/([\w-]+)$/.exec(request.path);
      if (request.method === 'GET' && clip !== null && clips.has(clip[1] as string)) {
        return answer(200, JSON.stringify({ clipId: clip[1], status: 'ready', url: `https://media.example.invalid/${clip[1]}.mp4` }), requestId);
      }
      return answer(404, JSON.stringify({ error: 'not found' }), requestId);
    },
  };
}
