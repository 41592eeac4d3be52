import type { EgressHttpResponseV1 } from '@tokenforge/model-protocol';

/** An egress codec's answer as a web Response, with `extraHeaders` over the codec's own. */
export function egressResponse(answer: EgressHttpResponseV1, extraHeaders: Readonly<Record<string, string>> = {}): Response {
  return new Response(answer.body.byteLength === 0 ? null : answer.body.slice(), { status: answer.status, headers: { ...answer.headers, ...extraHeaders } });
}
