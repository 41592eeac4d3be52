import type { ProviderTransportMetadataV1 } from '@tokenforge/model-protocol';
import { refuseBeforeSend } from '../failure/refuse-before-send.js';

const HEADER_NAME = /^[!#$%&'*+\-.^_`|~0-9a-z]+$/;
// Field values: visible ASCII, space, tab and obs-text; never CR, LF or NUL (header injection).
const HEADER_VALUE = /^[\t\x20-\x7e\x80-\xff]*$/;

/**
 * Headers only the transport sets: credentials, message framing and content negotiation of the body it
 * encodes. An adapter that sets one is refused instead of silently overwritten, so the bug surfaces.
 */
const TRANSPORT_OWNED_HEADERS: ReadonlySet<string> = new Set([
  'authorization',
  'proxy-authorization',
  'cookie',
  'host',
  'content-length',
  'content-type',
  'transfer-encoding',
  'connection',
  'keep-alive',
  'proxy-connection',
  'upgrade',
  'te',
  'trailer',
  'expect',
  'accept-encoding',
]);

/** Whether a header name may never come from an adapter or a fixed header. */
export function isTransportOwnedHeader(name: string): boolean {
  return TRANSPORT_OWNED_HEADERS.has(name);
}

/** Whether a header value is safe to put on the wire. */
export function isValidHeaderValue(value: string): boolean {
  return HEADER_VALUE.test(value);
}

/**
 * The adapter's headers plus the family's fixed headers. An adapter header that is transport-owned, names the
 * credential header or repeats a fixed header is refused with `policy-refused` before anything is sent.
 * The credential header itself is added later, per attempt.
 */
export function buildRequestHeaders(
  adapterHeaders: Readonly<Record<string, string>>,
  metadata: ProviderTransportMetadataV1,
  credentialHeaderName: string,
): Record<string, string> {
  const headers: Record<string, string> = Object.create(null) as Record<string, string>;
  for (const [rawName, value] of Object.entries(adapterHeaders)) {
    const name = rawName.toLowerCase();
    if (!HEADER_NAME.test(name)) throw refuseBeforeSend('policy-refused', 'request header name is not a token');
    if (typeof value !== 'string' || !isValidHeaderValue(value)) {
      throw refuseBeforeSend('policy-refused', `request header ${name} has an invalid value`);
    }
    if (name === credentialHeaderName || isTransportOwnedHeader(name)) {
      throw refuseBeforeSend('policy-refused', `request header ${name} is owned by the transport`);
    }
    if (Object.hasOwn(metadata.fixedHeaders, name)) {
      throw refuseBeforeSend('policy-refused', `request header ${name} is a fixed header of the family`);
    }
    if (Object.hasOwn(headers, name)) throw refuseBeforeSend('policy-refused', `request header ${name} is repeated`);
    headers[name] = value;
  }
  return { ...headers, ...metadata.fixedHeaders };
}
