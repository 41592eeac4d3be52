import { randomBytes } from 'node:crypto';
import type { ProviderMultipartPartV1 } from '@tokenforge/model-protocol';
import { refuseBeforeSend } from '../failure/refuse-before-send.js';
import { isValidHeaderValue } from './build-request-headers.js';
import type { EncodedBody } from './encoded-body.js';

const encoder = new TextEncoder();
const CRLF = encoder.encode('\r\n');
const MEDIA_TYPE = /^[A-Za-z0-9!#$&^_.+-]+\/[A-Za-z0-9!#$&^_.+-]+$/;

/** A file part produced fewer or more bytes than it declared; the request is aborted mid-body. */
export class MultipartSizeMismatchError extends Error {
  readonly code = 'TOKENFORGE_MULTIPART_SIZE_MISMATCH';
  constructor() {
    super('a multipart file produced a different number of bytes than its declared size');
    this.name = 'MultipartSizeMismatchError';
  }
}

/**
 * Encodes a `multipart/form-data` body (RFC 7578) with a fresh random boundary. Files are streamed from
 * `open()` chunk by chunk and never held whole; the exact `content-length` comes from the declared sizes,
 * and a file that disagrees with its declared size aborts the request.
 */
export function encodeMultipartBody(parts: readonly ProviderMultipartPartV1[], boundary = createBoundary()): EncodedBody {
  const heads = parts.map((part) => encoder.encode(`--${boundary}\r\n${partHeaders(part)}\r\n`));
  const values = parts.map((part) => (part.kind === 'field' ? encoder.encode(part.value) : undefined));
  const closing = encoder.encode(`--${boundary}--\r\n`);
  let contentLength = closing.byteLength;
  parts.forEach((part, index) => {
    const size = part.kind === 'file' ? part.sizeBytes : (values[index]?.byteLength ?? 0);
    contentLength += (heads[index]?.byteLength ?? 0) + size + CRLF.byteLength;
  });
  async function* produce(): AsyncGenerator<Uint8Array> {
    for (const [index, part] of parts.entries()) {
      yield heads[index] ?? new Uint8Array();
      if (part.kind === 'field') {
        yield values[index] ?? new Uint8Array();
      } else {
        let sent = 0;
        for await (const chunk of part.open()) {
          sent += chunk.byteLength;
          if (sent > part.sizeBytes) throw new MultipartSizeMismatchError();
          if (chunk.byteLength > 0) yield chunk;
        }
        if (sent !== part.sizeBytes) throw new MultipartSizeMismatchError();
      }
      yield CRLF;
    }
    yield closing;
  }
  return { contentType: `multipart/form-data; boundary=${boundary}`, contentLength, open: produce };
}

function createBoundary(): string {
  return `tokenforge-${randomBytes(24).toString('hex')}`;
}

function partHeaders(part: ProviderMultipartPartV1): string {
  if (part.kind === 'field') return `content-disposition: form-data; name="${escapeQuoted(part.name)}"\r\n`;
  if (!Number.isSafeInteger(part.sizeBytes) || part.sizeBytes < 0) {
    throw refuseBeforeSend('other', 'multipart file size must be a non-negative integer');
  }
  if (!MEDIA_TYPE.test(part.mediaType) || !isValidHeaderValue(part.mediaType)) {
    throw refuseBeforeSend('other', 'multipart file media type is malformed');
  }
  return (
    `content-disposition: form-data; name="${escapeQuoted(part.name)}"; filename="${escapeQuoted(part.fileName)}"\r\n` +
    `content-type: ${part.mediaType}\r\n`
  );
}

// The HTML form encoding's escapes: a quote or a line break cannot end the quoted string or the header.
function escapeQuoted(value: string): string {
  return value.replaceAll('\n', '%0A').replaceAll('\r', '%0D').replaceAll('"', '%22');
}
