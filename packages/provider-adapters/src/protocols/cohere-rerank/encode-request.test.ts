import { isCodecErrorV1, type ProviderAdapterTargetV1 } from '@tokenforge/model-protocol';
import { describe, expect, it } from 'vitest';
import { encodeCohereRerankRequest } from './encode-request.js';
import { createCohereRerankAdapterFactory } from './adapter.js';

const target: ProviderAdapterTargetV1 = { providerModel: 'rerank-v3.5', capability: { protocolFamily: 'cohere-rerank/v1', executionMode: 'sync', taskKinds: ['rerank'] } };

function codeOf(run: () => unknown): string | undefined {
  try {
    run();
  } catch (error) {
    return isCodecErrorV1(error) ? `${error.code} ${error.path ?? ''}`.trim() : 'other';
  }
  return undefined;
}

describe('encodeCohereRerankRequest', () => {
  it('sends only the documented v2 fields, without top_n when the task sets none', () => {
    expect(encodeCohereRerankRequest({ kind: 'rerank', query: 'q', documents: ['a', 'b'] }, target)).toEqual({
      method: 'POST',
      path: '/v2/rerank',
      headers: { accept: 'application/json' },
      body: { type: 'json', value: { model: 'rerank-v3.5', query: 'q', documents: ['a', 'b'] } },
    });
  });

  it('clamps top_n to the document count', () => {
    expect(encodeCohereRerankRequest({ kind: 'rerank', query: 'q', documents: ['a', 'b'], topN: 50 }, target).body.value.top_n).toBe(2);
    expect(encodeCohereRerankRequest({ kind: 'rerank', query: 'q', documents: ['a', 'b', 'c'], topN: 2 }, target).body.value.top_n).toBe(2);
  });

  it('follows the path and top_k options for compatible servers', () => {
    const encoded = encodeCohereRerankRequest({ kind: 'rerank', query: 'q', documents: ['a'], topN: 1 }, target, { path: '/rerank', topNField: 'top_k' });
    expect(encoded.path).toBe('/rerank');
    expect(encoded.body.value).toEqual({ model: 'rerank-v3.5', query: 'q', documents: ['a'], top_k: 1 });
  });

  it('refuses malformed path options at factory creation', () => {
    for (const path of ['rerank', '/v2/rerank?x=1', '/v2/../admin', '/v2//rerank', 'https://evil.example/rerank', '/v2/re rank']) {
      expect(codeOf(() => createCohereRerankAdapterFactory({ path }))).toBe('invalid-request path');
    }
    expect(codeOf(() => createCohereRerankAdapterFactory({ path: '/v1/rerank' }))).toBeUndefined();
  });

  it('refuses foreign tasks and too many documents', () => {
    expect(codeOf(() => encodeCohereRerankRequest({ kind: 'embedding', inputs: ['a'] }, target))).toBe('unsupported-feature kind');
    const documents = Array.from({ length: 10_001 }, () => 'd');
    expect(codeOf(() => encodeCohereRerankRequest({ kind: 'rerank', query: 'q', documents }, target))).toBe('invalid-request documents');
  });
});
