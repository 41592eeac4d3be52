import type { ProviderTransportRequest } from '@tokenforge/model-protocol';
import { FixtureTransportErrorV1 } from './fixture-transport-error.js';

/** A multipart part as the fixture transport saw it: text fields whole, files by size and digest. */
export type RecordedMultipartPartV1 =
  | { readonly kind: 'field'; readonly name: string; readonly value: string }
  | {
      readonly kind: 'file';
      readonly name: string;
      readonly fileName: string;
      readonly mediaType: string;
      /** Bytes the file stream actually produced. */
      readonly sizeBytes: number;
      /** Present only when the part declared another size than its stream produced. */
      readonly declaredSizeBytes?: number;
      /** Lower-case hex SHA-256 of the bytes. */
      readonly sha256: string;
    };

/** A request body as the fixture transport saw it. */
export type RecordedRequestBodyV1 =
  | { readonly type: 'none' }
  /** The JSON value after a serialize/parse round trip: what the provider would have received. */
  | { readonly type: 'json'; readonly value: unknown }
  | { readonly type: 'multipart'; readonly parts: readonly RecordedMultipartPartV1[] };

/** One request the fixture transport received, without its signal. */
export interface RecordedTransportRequestV1 {
  /** HTTP method. */
  readonly method: ProviderTransportRequest['method'];
  /** Path below the base URL. */
  readonly path: string;
  /** Query parameters; absent when the adapter sent none. */
  readonly query?: Readonly<Record<string, string>>;
  /** Headers exactly as the adapter gave them. */
  readonly headers: Readonly<Record<string, string>>;
  /** The body. */
  readonly body: RecordedRequestBodyV1;
}

const hex = Array.from({ length: 256 }, (_, byte) => byte.toString(16).padStart(2, '0'));

async function digestFile(open: () => AsyncIterable<Uint8Array>): Promise<{ sizeBytes: number; sha256: string }> {
  const chunks: Uint8Array[] = [];
  let sizeBytes = 0;
  for await (const chunk of open()) {
    chunks.push(chunk);
    sizeBytes += chunk.byteLength;
  }
  const whole = new Uint8Array(sizeBytes);
  let offset = 0;
  for (const chunk of chunks) {
    whole.set(chunk, offset);
    offset += chunk.byteLength;
  }
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', whole));
  let sha256 = '';
  for (const byte of digest) sha256 += hex[byte];
  return { sizeBytes, sha256 };
}

/** Copies what an adapter sent into plain data; multipart files are read to their end and digested. */
export async function recordTransportRequest(request: ProviderTransportRequest): Promise<RecordedTransportRequestV1> {
  const base = {
    method: request.method,
    path: request.path,
    ...(request.query === undefined ? {} : { query: { ...request.query } }),
    headers: { ...request.headers },
  };
  const body = request.body;
  switch (body.type) {
    case 'none':
      return { ...base, body: { type: 'none' } };
    case 'json': {
      let text: string | undefined;
      try {
        text = JSON.stringify(body.value);
      } catch (cause) {
        throw new FixtureTransportErrorV1('request-invalid', 'the JSON body does not serialize', { cause });
      }
      if (text === undefined) throw new FixtureTransportErrorV1('request-invalid', 'the JSON body does not serialize');
      // Our own serialization of the adapter's value, not provider bytes: the plain parser is enough here.
      return { ...base, body: { type: 'json', value: JSON.parse(text) as unknown } };
    }
    case 'multipart': {
      const parts: RecordedMultipartPartV1[] = [];
      for (const part of body.parts) {
        if (part.kind === 'field') {
          parts.push({ kind: 'field', name: part.name, value: part.value });
          continue;
        }
        let digested: { sizeBytes: number; sha256: string };
        try {
          digested = await digestFile(() => part.open());
        } catch (cause) {
          throw new FixtureTransportErrorV1('request-invalid', 'a multipart file stream failed', { cause });
        }
        parts.push({
          kind: 'file',
          name: part.name,
          fileName: part.fileName,
          mediaType: part.mediaType,
          sizeBytes: digested.sizeBytes,
          ...(digested.sizeBytes === part.sizeBytes ? {} : { declaredSizeBytes: part.sizeBytes }),
          sha256: digested.sha256,
        });
      }
      return { ...base, body: { type: 'multipart', parts } };
    }
    default: {
      const unknownBody: never = body;
      throw new FixtureTransportErrorV1('request-invalid', `unknown body type ${String((unknownBody as { type?: unknown }).type)}`);
    }
  }
}
