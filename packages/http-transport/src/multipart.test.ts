import { createHash } from 'node:crypto';
import type { ProviderMultipartPartV1 } from '@tokenforge/model-protocol';
import { describe, expect, it } from 'vitest';
import { encodeMultipartBody } from './request/encode-multipart-body.js';
import { getRequest, loopbackTransport, readAll, readBody, rejectionOf, startHttpServer } from './test-support/local-servers.js';

const sleep = (milliseconds: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, milliseconds));

/** Deterministic pseudo-random file content, produced in chunks, with a running count of bytes pulled. */
function generatedFile(size: number, chunkSize = 64 * 1024) {
  const state = { pulled: 0, opened: 0 };
  const chunkAt = (offset: number): Uint8Array => {
    const chunk = new Uint8Array(Math.min(chunkSize, size - offset));
    for (let index = 0; index < chunk.length; index += 1) chunk[index] = ((offset + index) * 2654435761) >>> 24;
    return chunk;
  };
  const hash = createHash('sha256');
  for (let offset = 0; offset < size; offset += chunkSize) hash.update(chunkAt(offset));
  const part: ProviderMultipartPartV1 = {
    kind: 'file',
    name: 'image',
    fileName: 'big.bin',
    mediaType: 'application/octet-stream',
    sizeBytes: size,
    async *open() {
      state.opened += 1;
      for (let offset = 0; offset < size; offset += chunkSize) {
        const chunk = chunkAt(offset);
        state.pulled += chunk.byteLength;
        yield chunk;
      }
    },
  };
  return { part, state, sha256: hash.digest('hex') };
}

function fileParts(body: Buffer, boundary: string): Buffer[] {
  const delimiter = Buffer.from(`--${boundary}`);
  const parts: Buffer[] = [];
  let start = body.indexOf(delimiter);
  while (start !== -1) {
    const next = body.indexOf(delimiter, start + delimiter.length);
    if (next === -1) break;
    const part = body.subarray(start + delimiter.length + 2, next - 2);
    const headerEnd = part.indexOf('\r\n\r\n');
    parts.push(part.subarray(headerEnd + 4));
    start = next;
  }
  return parts;
}

describe('multipart bodies', () => {
  it('streams a large file without reading it ahead, and the server receives the exact bytes', async () => {
    const size = 32 * 1024 * 1024;
    const file = generatedFile(size);
    const received: { contentType?: string | undefined; contentLength?: string | undefined; body?: Buffer; pulledDuringPause?: number } = {};
    const server = await startHttpServer((request, response) => {
      received.contentType = request.headers['content-type'];
      received.contentLength = request.headers['content-length'];
      request.pause();
      // Hold the upload for a while: a streaming sender stops pulling the file once socket buffers are full.
      void sleep(500).then(async () => {
        received.pulledDuringPause = file.state.pulled;
        received.body = await readBody(request);
        response.end('stored');
      });
    });
    const transport = loopbackTransport(server);
    const response = await transport.send(
      getRequest({
        method: 'POST',
        path: '/images/edits',
        body: { type: 'multipart', parts: [{ kind: 'field', name: 'prompt', value: 'a cat' }, file.part] },
      }),
    );
    expect((await readAll(response.body)).toString()).toBe('stored');
    expect(received.pulledDuringPause).toBeLessThan(size / 2);
    expect(Number(received.contentLength)).toBe(received.body?.byteLength);
    const boundary = /boundary=(.+)$/.exec(received.contentType ?? '')?.[1] ?? '';
    const [prompt, content] = fileParts(received.body ?? Buffer.alloc(0), boundary);
    expect(prompt?.toString()).toBe('a cat');
    expect(content?.byteLength).toBe(size);
    expect(createHash('sha256').update(content ?? Buffer.alloc(0)).digest('hex')).toBe(file.sha256);
  });

  it('writes RFC 7578 part headers with escaped names and a fresh boundary per request', async () => {
    const bodies: { contentType: string | undefined; body: string }[] = [];
    const server = await startHttpServer((request, response) => {
      void readBody(request).then((body) => {
        bodies.push({ contentType: request.headers['content-type'], body: body.toString('latin1') });
        response.end();
      });
    });
    const transport = loopbackTransport(server);
    const parts: ProviderMultipartPartV1[] = [
      { kind: 'field', name: 'a"b\r\nx-injected: 1', value: 'v' },
      {
        kind: 'file',
        name: 'file',
        fileName: 'evil".png',
        mediaType: 'image/png',
        sizeBytes: 3,
        async *open() {
          yield new Uint8Array([1, 2, 3]);
        },
      },
    ];
    for (let index = 0; index < 2; index += 1) {
      await readAll((await transport.send(getRequest({ method: 'POST', path: '/upload', body: { type: 'multipart', parts } }))).body);
    }
    const boundaries = bodies.map((entry) => /^multipart\/form-data; boundary=(.+)$/.exec(entry.contentType ?? '')?.[1]);
    expect(boundaries[0]).toMatch(/^tokenforge-[0-9a-f]{48}$/);
    expect(boundaries[0]).not.toBe(boundaries[1]);
    const boundary = boundaries[0] ?? '';
    expect(bodies[0]?.body).toBe(
      `--${boundary}\r\ncontent-disposition: form-data; name="a%22b%0D%0Ax-injected: 1"\r\n\r\nv\r\n` +
        `--${boundary}\r\ncontent-disposition: form-data; name="file"; filename="evil%22.png"\r\ncontent-type: image/png\r\n\r\n` +
        `\u0001\u0002\u0003\r\n--${boundary}--\r\n`,
    );
  });

  it('computes the content length from declared sizes without opening any file', () => {
    const file = generatedFile(1000);
    const encoded = encodeMultipartBody([{ kind: 'field', name: 'n', value: 'é' }, file.part], 'B');
    const expected =
      Buffer.byteLength('--B\r\ncontent-disposition: form-data; name="n"\r\n\r\né\r\n') +
      Buffer.byteLength('--B\r\ncontent-disposition: form-data; name="image"; filename="big.bin"\r\ncontent-type: application/octet-stream\r\n\r\n') +
      1000 +
      2 +
      Buffer.byteLength('--B--\r\n');
    expect(encoded.contentLength).toBe(expected);
    expect(file.state.opened).toBe(0);
  });

  it.each([
    ['fewer', 10],
    ['more', 30],
  ])('aborts the upload (after-send, other) when a file yields %s bytes than declared', async (_label, actual) => {
    const server = await startHttpServer((request, response) => {
      void readBody(request).then(
        () => response.end(),
        () => undefined,
      );
    });
    const transport = loopbackTransport(server);
    const part: ProviderMultipartPartV1 = {
      kind: 'file',
      name: 'file',
      fileName: 'f.bin',
      mediaType: 'application/octet-stream',
      sizeBytes: 20,
      async *open() {
        yield new Uint8Array(actual);
      },
    };
    const failure = await rejectionOf(transport.send(getRequest({ method: 'POST', path: '/upload', body: { type: 'multipart', parts: [part] } })));
    expect(failure).toMatchObject({ stage: 'after-send', reason: 'other' });
  });

  it.each([
    ['a media type with a line break', { mediaType: 'image/png\r\nx-evil: 1', sizeBytes: 1 }],
    ['a negative size', { mediaType: 'image/png', sizeBytes: -1 }],
    ['a fractional size', { mediaType: 'image/png', sizeBytes: 1.5 }],
  ])('refuses %s before sending', async (_label, fields) => {
    const server = await startHttpServer((_request, response) => response.end());
    const transport = loopbackTransport(server);
    const part = {
      kind: 'file' as const,
      name: 'file',
      fileName: 'f',
      ...fields,
      async *open() {
        yield new Uint8Array(1);
      },
    };
    const failure = await rejectionOf(transport.send(getRequest({ method: 'POST', path: '/upload', body: { type: 'multipart', parts: [part] } })));
    expect(failure).toMatchObject({ stage: 'before-send', reason: 'other' });
    expect(server.sockets).toHaveLength(0);
  });
});
