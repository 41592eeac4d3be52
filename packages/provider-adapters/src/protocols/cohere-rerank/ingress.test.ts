import { isCodecErrorV1 } from '@tokenforge/model-protocol';
import { describe, expect, it } from 'vitest';
import { createCohereRerankIngressCodec } from './ingress.js';

const ingress = createCohereRerankIngressCodec();
const encoder = new TextEncoder();

function decode(body: unknown) {
  return ingress.decodeRequest({ path: '/v2/rerank', body: encoder.encode(typeof body === 'string' ? body : JSON.stringify(body)) });
}

function failure(body: unknown): string | undefined {
  try {
    decode(body);
  } catch (error) {
    return isCodecErrorV1(error) ? `${error.code} ${error.path ?? ''}`.trim() : 'other';
  }
  return undefined;
}

describe('cohere-rerank ingress', () => {
  it('decodes a v2 request and ignores hints it cannot carry', () => {
    expect(decode({ model: 'm', query: 'q', documents: ['a', ''], top_n: 1, max_tokens_per_doc: 100, priority: 2, return_documents: false, extra: 1 })).toEqual({
      task: { kind: 'rerank', query: 'q', documents: ['a', ''], topN: 1 },
      modelLabel: 'm',
    });
    expect(decode({ model: 'm', query: 'q', documents: ['a'], top_n: null }).task).toEqual({ kind: 'rerank', query: 'q', documents: ['a'] });
  });

  it.each([
    ['no model', { query: 'q', documents: ['a'] }, 'invalid-request model'],
    ['no query', { model: 'm', documents: ['a'] }, 'invalid-request query'],
    ['an empty query', { model: 'm', query: '', documents: ['a'] }, 'invalid-request query'],
    ['no documents', { model: 'm', query: 'q' }, 'invalid-request documents'],
    ['empty documents', { model: 'm', query: 'q', documents: [] }, 'invalid-request documents'],
    ['too many documents', { model: 'm', query: 'q', documents: Array.from({ length: 10_001 }, () => 'd') }, 'invalid-request documents'],
    ['a number document', { model: 'm', query: 'q', documents: [1] }, 'invalid-request documents.0'],
    ['an object document', { model: 'm', query: 'q', documents: [{ text: 'a' }] }, 'unsupported-feature documents.0'],
    ['rank fields', { model: 'm', query: 'q', documents: ['a'], rank_fields: ['title'] }, 'unsupported-feature rank_fields'],
    ['return documents', { model: 'm', query: 'q', documents: ['a'], return_documents: true }, 'unsupported-feature return_documents'],
    ['top_n zero', { model: 'm', query: 'q', documents: ['a'], top_n: 0 }, 'invalid-request top_n'],
    ['top_n fractional', { model: 'm', query: 'q', documents: ['a'], top_n: 1.5 }, 'invalid-request top_n'],
    ['an array body', [], 'invalid-request body'],
  ])('refuses %s', (_label, body, expected) => {
    expect(failure(body)).toBe(expected);
  });

  it('refuses hostile bytes with the parser codes', () => {
    expect(failure('{"model":"m",')).toBe('malformed-json');
    expect(failure('{"__proto__":1,"model":"m","query":"q","documents":["a"]}')).toBe('forbidden-key');
  });
});
