import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseSafeJson } from '../../codec-kit/index.js';
import { COHERE_RERANKING_JSON, TOGETHERAI_RERANKING_JSON, VOYAGE_RERANKING_JSON } from './__fixtures__/recorded-fixtures.js';
import { decodeCohereRerankResponse } from './decode-response.js';

const violation = { status: 'failed', failure: { code: 'protocol-violation', retryable: false } };

describe('decodeCohereRerankResponse', () => {
  it('decodes the recorded Cohere, Together and Voyage bodies (recorded)', () => {
    expect(decodeCohereRerankResponse(parseSafeJson(COHERE_RERANKING_JSON), { documentCount: 2 })).toEqual({
      status: 'completed',
      result: { kind: 'rerank', results: [{ index: 1, relevanceScore: 0.10183054 }, { index: 0, relevanceScore: 0.03762639 }] },
      usage: { searchUnits: 1 },
    });
    expect(decodeCohereRerankResponse(parseSafeJson(TOGETHERAI_RERANKING_JSON), { documentCount: 6, topN: 2 })).toMatchObject({
      status: 'completed',
      usage: { inputTokens: 2966, outputTokens: 0, totalTokens: 2966 },
    });
    expect(decodeCohereRerankResponse(parseSafeJson(VOYAGE_RERANKING_JSON), { documentCount: 2 })).toMatchObject({
      status: 'completed',
      result: { results: [{ index: 1 }, { index: 0 }] },
      usage: { totalTokens: 12 },
    });
  });

  it('reads the Jina shape with string, object or absent documents (constructed, fact sheet §3c)', () => {
    const body = {
      model: 'jina-reranker-v2-base-multilingual',
      usage: { total_tokens: 40 },
      results: [
        { index: 2, relevance_score: 0.8, document: 'plain string' },
        { index: 0, relevance_score: 0.5, document: { text: 'object' } },
        { index: 1, relevance_score: 0.1 },
      ],
    };
    expect(decodeCohereRerankResponse(body, { documentCount: 3 })).toEqual({
      status: 'completed',
      result: { kind: 'rerank', results: [{ index: 2, relevanceScore: 0.8 }, { index: 0, relevanceScore: 0.5 }, { index: 1, relevanceScore: 0.1 }] },
      usage: { totalTokens: 40 },
    });
  });

  it('reads vLLM and SiliconFlow usage, and TEI bare arrays without usage (constructed, fact sheet §3d)', () => {
    const vllm = { id: 'rerank-1', model: 'm', usage: { prompt_tokens: 30, total_tokens: 30 }, results: [{ index: 0, relevance_score: 0.9, document: { text: 't' } }] };
    expect(decodeCohereRerankResponse(vllm, { documentCount: 1 })).toMatchObject({ usage: { inputTokens: 30, totalTokens: 30 } });
    const siliconFlow = { id: 'x', results: [{ index: 0, relevance_score: 0.9 }], tokens: { input_tokens: 12, output_tokens: 0 } };
    expect(decodeCohereRerankResponse(siliconFlow, { documentCount: 1 })).toMatchObject({ usage: { inputTokens: 12, outputTokens: 0 } });
    expect(decodeCohereRerankResponse([{ index: 0, score: -1.5, text: 't' }], { documentCount: 1 })).toEqual({
      status: 'completed',
      result: { kind: 'rerank', results: [{ index: 0, relevanceScore: -1.5 }] },
    });
    expect(decodeCohereRerankResponse({ results: [] }, { documentCount: 3 })).toEqual({ status: 'completed', result: { kind: 'rerank', results: [] } });
  });

  it('keeps the provider order between equal scores', () => {
    const body = { results: [{ index: 2, relevance_score: 0.5 }, { index: 0, relevance_score: 0.5 }, { index: 1, relevance_score: 0.7 }] };
    expect(decodeCohereRerankResponse(body, { documentCount: 3 })).toMatchObject({ result: { results: [{ index: 1 }, { index: 2 }, { index: 0 }] } });
  });

  it.each([
    ['a string body', 'x'],
    ['null', null],
    ['neither results nor data', { id: 'x' }],
    ['results not an array', { results: {} }],
    ['both results and data', { results: [], data: [] }],
    ['a result that is not an object', { results: [1] }],
    ['a missing index', { results: [{ relevance_score: 0.5 }] }],
    ['a negative index', { results: [{ index: -1, relevance_score: 0.5 }] }],
    ['a fractional index', { results: [{ index: 0.5, relevance_score: 0.5 }] }],
    ['an index string', { results: [{ index: '0', relevance_score: 0.5 }] }],
    ['an index past the documents', { results: [{ index: 3, relevance_score: 0.5 }] }],
    ['a repeated index', { results: [{ index: 0, relevance_score: 0.5 }, { index: 0, relevance_score: 0.4 }] }],
    ['a missing score', { results: [{ index: 0 }] }],
    ['a string score', { results: [{ index: 0, relevance_score: '0.5' }] }],
    ['a null score', { data: [{ index: 0, relevance_score: null }] }],
    ['a TEI item with relevance_score instead of score', [{ index: 0, relevance_score: 0.5 }]],
    ['negative search units', { results: [], meta: { billed_units: { search_units: -1 } } }],
    ['fractional tokens', { results: [], usage: { total_tokens: 1.5 } }],
    ['meta not an object', { results: [], meta: 'x' }],
    ['a total below input plus output', { results: [], usage: { prompt_tokens: 5, completion_tokens: 5, total_tokens: 9 } }],
  ])('a body with %s is a protocol violation (constructed)', (_label, body) => {
    expect(decodeCohereRerankResponse(body, { documentCount: 3 })).toEqual(violation);
  });

  it('any permutation of the results decodes to the same ranking (property)', () => {
    const arbitrary = fc
      .uniqueArray(fc.double({ noNaN: true, noDefaultInfinity: true, min: -10, max: 10 }), { minLength: 1, maxLength: 30, comparator: 'SameValueZero' })
      .chain((scores) => fc.tuple(fc.constant(scores), fc.shuffledSubarray([...scores.keys()], { minLength: scores.length, maxLength: scores.length })));
    fc.assert(
      fc.property(arbitrary, fc.integer({ min: 1, max: 40 }), ([scores, order], topN) => {
        const canonical = decodeCohereRerankResponse({ results: scores.map((score, index) => ({ index, relevance_score: score })) }, { documentCount: scores.length, topN });
        const shuffled = decodeCohereRerankResponse({ results: order.map((index) => ({ index, relevance_score: scores[index] })) }, { documentCount: scores.length, topN });
        expect(shuffled).toEqual(canonical);
        if (canonical.status !== 'completed' || canonical.result.kind !== 'rerank') throw new Error('expected completed');
        const results = canonical.result.results;
        expect(results.length).toBe(Math.min(topN, scores.length));
        for (let position = 1; position < results.length; position += 1) {
          expect((results[position - 1]?.relevanceScore ?? 0) >= (results[position]?.relevanceScore ?? 0)).toBe(true);
        }
        expect(results[0]?.relevanceScore).toBe(Math.max(...scores));
      }),
    );
  });

  it('any random body ends in a terminal, never a throw (property)', () => {
    fc.assert(
      fc.property(fc.anything(), fc.integer({ min: 1, max: 5 }), (value, documentCount) => {
        expect(['completed', 'failed']).toContain(decodeCohereRerankResponse(value, { documentCount }).status);
      }),
    );
  });
});
