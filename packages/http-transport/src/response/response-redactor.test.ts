import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createResponseRedactor, MIN_REDACTED_SECRET_LENGTH } from './response-redactor.js';

const SECRET = 'sk-live-4f9a/b+c"d\\e';

function runSplit(redactorSecrets: readonly string[], body: Buffer, cuts: readonly number[]): string {
  const redactor = createResponseRedactor(redactorSecrets).createBodyRedactor();
  const out: Buffer[] = [];
  let start = 0;
  for (const cut of [...cuts, body.byteLength]) {
    out.push(Buffer.from(redactor.push(body.subarray(start, cut))));
    start = cut;
  }
  out.push(Buffer.from(redactor.flush()));
  return Buffer.concat(out).toString('utf8');
}

/** The reference: the same replacement done on the whole text at once. */
function reference(secrets: readonly string[], text: string): string {
  const redactor = createResponseRedactor(secrets);
  return redactor.headerValue(text);
}

/** `form` standing as a whole token: no letter, digit, `_` or `-` on either side. */
const wholeToken = (form: string): RegExp => new RegExp(`(?<![A-Za-z0-9_-])${form.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}(?![A-Za-z0-9_-])`);

describe('createResponseRedactor', () => {
  it('replaces a secret and its JSON-escaped forms in header values', () => {
    const redactor = createResponseRedactor([SECRET]);
    expect(redactor.headerValue(`Bearer ${SECRET}`)).toBe('Bearer [redacted]');
    expect(redactor.headerValue(JSON.stringify(SECRET))).toBe('"[redacted]"');
    expect(redactor.headerValue(JSON.stringify(SECRET).replaceAll('/', '\\/'))).toBe('"[redacted]"');
    expect(redactor.headerValue('req_123')).toBe('req_123');
  });

  it('gives the same bytes for any split of the body as for the whole body, and never lets a whole-token secret through', () => {
    const piece = fc.constantFrom('sk-', 'sk-live', SECRET, JSON.stringify(SECRET).slice(1, -1), '{"error":{"code":"', '"}}', 'x', 'é', '\n\n', 's');
    fc.assert(
      fc.property(
        fc.array(piece, { maxLength: 12 }).map((pieces) => pieces.join('')),
        fc.array(fc.nat(), { maxLength: 6 }),
        (text, rawCuts) => {
          const body = Buffer.from(text, 'utf8');
          const cuts = [...new Set(rawCuts.map((cut) => cut % (body.byteLength + 1)))].sort((left, right) => left - right);
          const result = runSplit([SECRET], body, cuts);
          expect(result).toBe(reference([SECRET], text));
          for (const form of [SECRET, JSON.stringify(SECRET).slice(1, -1)]) expect(result).not.toMatch(wholeToken(form));
        },
      ),
      { numRuns: 3000 },
    );
  });

  it('hands a chunk on uncopied when no secret can be in it', () => {
    const redactor = createResponseRedactor([SECRET]).createBodyRedactor();
    const chunk = Buffer.from('data: {"choices":[]}\n\n');
    expect(redactor.push(chunk)).toBe(chunk);
  });

  it('holds back only a tail that could start a secret, and releases it when the next chunk shows it is not one', () => {
    const redactor = createResponseRedactor([SECRET]).createBodyRedactor();
    expect(Buffer.from(redactor.push(Buffer.from('{"a":"sk-li'))).toString()).toBe('{"a":"');
    expect(Buffer.from(redactor.push(Buffer.from('ve-other"}'))).toString()).toBe('sk-live-other"}');
    expect(redactor.flush().byteLength).toBe(0);
  });

  it('replaces a secret only as a whole token, never inside a longer word', () => {
    const redactor = createResponseRedactor([SECRET]);
    expect(redactor.headerValue(`x${SECRET}`)).toBe(`x${SECRET}`);
    expect(redactor.headerValue(`${SECRET}_2`)).toBe(`${SECRET}_2`);
    expect(redactor.headerValue(`key=${SECRET}; other`)).toBe('key=[redacted]; other');
    const body = Buffer.from(`{"a":"${SECRET}-longer","b":"${SECRET}","c":"pre${SECRET}"}`);
    for (const cuts of [[], [7], [26], [27], [28], [body.byteLength - 3]]) {
      expect(runSplit([SECRET], body, cuts)).toBe(`{"a":"${SECRET}-longer","b":"[redacted]","c":"pre${SECRET}"}`);
    }
  });

  it('a secret at the very end of the body is a whole token', () => {
    expect(runSplit([SECRET], Buffer.from(`key ${SECRET}`), [5])).toBe('key [redacted]');
  });

  it(`never looks for a secret shorter than ${MIN_REDACTED_SECRET_LENGTH} characters: "none" and "x" stay words`, () => {
    for (const secret of ['none', 'x', 'a'.repeat(MIN_REDACTED_SECRET_LENGTH - 1)]) {
      const redactor = createResponseRedactor([secret]);
      const text = `{"type":"text","text":"I found none of them: x ${'a'.repeat(MIN_REDACTED_SECRET_LENGTH - 1)}"}`;
      expect(runSplit([secret], Buffer.from(text), [9])).toBe(text);
      expect(redactor.headerValue(`Bearer ${secret}`)).toBe(`Bearer ${secret}`);
    }
    expect(createResponseRedactor(['b'.repeat(MIN_REDACTED_SECRET_LENGTH)]).headerValue(`k ${'b'.repeat(MIN_REDACTED_SECRET_LENGTH)}`)).toBe('k [redacted]');
  });

  it('redacts a secret delivered one byte per chunk', () => {
    const body = Buffer.from(`{"error":{"code":"${SECRET}"}}`);
    const cuts = Array.from({ length: body.byteLength - 1 }, (_, index) => index + 1);
    expect(runSplit([SECRET], body, cuts)).toBe('{"error":{"code":"[redacted]"}}');
  });
});
