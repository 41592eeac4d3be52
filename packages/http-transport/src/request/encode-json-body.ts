import { refuseBeforeSend } from '../failure/refuse-before-send.js';
import type { EncodedBody } from './encoded-body.js';

/** Serializes a JSON body once; the bytes are reused if a redirect resends them. */
export function encodeJsonBody(value: unknown): EncodedBody {
  let text: string | undefined;
  try {
    text = JSON.stringify(value);
  } catch {
    throw refuseBeforeSend('other', 'JSON body could not be serialized');
  }
  if (text === undefined) throw refuseBeforeSend('other', 'JSON body serialized to nothing');
  const bytes = new TextEncoder().encode(text);
  return { contentType: 'application/json', contentLength: bytes.byteLength, open: () => bytes };
}
