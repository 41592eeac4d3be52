/** The error envelope family a dialect's clients read. */
export type ErrorShape = 'openai' | 'anthropic' | 'gemini' | 'cohere';

const MESSAGE = 'The API key is missing or invalid.';

/**
 * A 401 for a missing or wrong client key, in the dialect's own envelope. Written by the gateway itself: the
 * egress codecs map an upstream `authentication` failure to a gateway error, which is not what this is.
 */
export function clientAuthRefusal(shape: ErrorShape, requestId: string): Response {
  const headers = { 'content-type': 'application/json', 'x-request-id': requestId };
  switch (shape) {
    case 'anthropic':
      return new Response(JSON.stringify({ type: 'error', error: { type: 'authentication_error', message: MESSAGE }, request_id: requestId }), { status: 401, headers });
    case 'gemini':
      return new Response(JSON.stringify({ error: { code: 401, message: MESSAGE, status: 'UNAUTHENTICATED' } }), { status: 401, headers });
    case 'cohere':
      return new Response(JSON.stringify({ id: requestId, message: MESSAGE }), { status: 401, headers });
    case 'openai':
      return new Response(JSON.stringify({ error: { message: MESSAGE, type: 'invalid_request_error', param: null, code: 'invalid_api_key' } }), { status: 401, headers });
    default: {
      const never: never = shape;
      return never;
    }
  }
}
