import { isCodecErrorV1, type IngressCodecV1 } from '@tokenforge/model-protocol';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

/** What {@link describeIngressHostileInput} needs to probe one ingress codec. */
export interface IngressHostileInputCase {
  /** Name used in the test titles, e.g. `cohere-rerank`. */
  readonly family: string;
  readonly ingress: IngressCodecV1;
  /** The client request path. */
  readonly path: string;
  /** A request body with an arbitrary JSON value under the field the codec reads most. */
  readonly bodyWithField: (field: unknown) => unknown;
}

/** Decodes, or returns the thrown error: anything but a CodecErrorV1 is a defect. */
function attempt(probe: IngressHostileInputCase, body: Uint8Array): unknown {
  try {
    return probe.ingress.decodeRequest({ path: probe.path, body });
  } catch (error) {
    return error;
  }
}

/** Property tests: random bytes and random JSON (also under the fields it reads) decode or fail with a typed codec error. */
export function describeIngressHostileInput(probe: IngressHostileInputCase): void {
  const encoder = new TextEncoder();
  describe(`${probe.family} ingress on hostile input (property)`, () => {
    it('random bytes decode or fail with a typed codec error', () => {
      fc.assert(
        fc.property(fc.uint8Array({ maxLength: 512 }), (bytes) => {
          const outcome = attempt(probe, bytes);
          if (outcome instanceof Error) expect(isCodecErrorV1(outcome)).toBe(true);
        }),
      );
    });

    it('random JSON values, also under the fields it reads, decode or fail with a typed codec error', () => {
      fc.assert(
        fc.property(fc.jsonValue(), fc.jsonValue(), (value, field) => {
          for (const body of [value, probe.bodyWithField(field), { model: field, query: 'q', prompt: 'p', input: 'i', documents: ['d'] }]) {
            const outcome = attempt(probe, encoder.encode(JSON.stringify(body)));
            if (outcome instanceof Error) expect(isCodecErrorV1(outcome)).toBe(true);
          }
        }),
      );
    });
  });
}
