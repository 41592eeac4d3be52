import fc from 'fast-check';
import type { ProviderMultipartPartV1 } from '@tokenforge/model-protocol';
import { describe, expect, it } from 'vitest';
import { encodeMultipartBody } from './encode-multipart-body.js';

async function collect(source: Uint8Array | AsyncIterable<Uint8Array>): Promise<Buffer> {
  if (source instanceof Uint8Array) return Buffer.from(source);
  const chunks: Buffer[] = [];
  for await (const chunk of source) chunks.push(Buffer.from(chunk));
  return Buffer.concat(chunks);
}

const partArbitrary: fc.Arbitrary<ProviderMultipartPartV1> = fc.oneof(
  fc.record({ kind: fc.constant('field' as const), name: fc.string(), value: fc.string({ unit: 'grapheme' }) }),
  fc
    .record({
      name: fc.string(),
      fileName: fc.string({ unit: 'grapheme' }),
      content: fc.uint8Array({ maxLength: 3000 }),
      chunkSize: fc.integer({ min: 1, max: 700 }),
    })
    .map(({ name, fileName, content, chunkSize }) => ({
      kind: 'file' as const,
      name,
      fileName,
      mediaType: 'application/octet-stream',
      sizeBytes: content.byteLength,
      async *open() {
        for (let offset = 0; offset < content.byteLength; offset += chunkSize) yield content.subarray(offset, offset + chunkSize);
      },
    })),
);

describe('encodeMultipartBody', () => {
  it('declares exactly the number of bytes it produces, for any fields and any file chunking', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(partArbitrary, { maxLength: 5 }), async (parts) => {
        const encoded = encodeMultipartBody(parts);
        const bytes = await collect(encoded.open());
        expect(bytes.byteLength).toBe(encoded.contentLength);
        expect(bytes.subarray(bytes.byteLength - 2).toString()).toBe('\r\n');
      }),
      { numRuns: 200 },
    );
  });

  it('never lets a name end its quoted string or start a new header line', async () => {
    await fc.assert(
      fc.asyncProperty(fc.string(), fc.string(), async (name, fileName) => {
        const encoded = encodeMultipartBody(
          [{ kind: 'file', name, fileName, mediaType: 'text/plain', sizeBytes: 0, open: async function* () {} }],
          'B',
        );
        const text = (await collect(encoded.open())).toString('utf8');
        const head = text.slice('--B\r\n'.length, text.indexOf('\r\n\r\n'));
        const lines = head.split('\r\n');
        expect(lines).toHaveLength(2);
        expect(lines[0]).toMatch(/^content-disposition: form-data; name="[^"\r\n]*"; filename="[^"\r\n]*"$/);
        expect(lines[1]).toBe('content-type: text/plain');
      }),
    );
  });
});
