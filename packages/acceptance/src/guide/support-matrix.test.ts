import { readFileSync } from 'node:fs';
import type { ProtocolFamily } from '@tokenforge/model-protocol';
import { createProtocolEngineV1 } from '@tokenforge/protocol-engine';
import { createBuiltinTokenForgeProtocolSuiteV1, type ProtocolSuiteCodecsV1, type ProtocolSuiteEntryV1 } from '@tokenforge/provider-adapters';
import { describe, expect, it } from 'vitest';
import { expectedSupportMatrixTables, SUPPORT_MATRIX_GUIDES } from '../../../../tools/support-matrix/generate-support-matrix.js';
import { loadBuiltinSupportMatrixSources } from '../../../../tools/support-matrix/builtin-sources.js';
import {
  buildSupportMatrix,
  readSupportMatrixBlock,
  renderSupportMatrix,
  replaceSupportMatrixBlock,
  SUPPORT_MATRIX_BEGIN,
  SUPPORT_MATRIX_COMMAND,
  SUPPORT_MATRIX_END,
  SupportMatrixError,
  type SupportMatrixCaseFacts,
} from '../../../../tools/support-matrix/support-matrix.js';

const BEARER = { auth: { scheme: 'bearer' }, fixedHeaders: {} } as const;

function unused(): never {
  throw new Error('not called by the support matrix');
}

function codecs(family: ProtocolFamily, withStreamEncoder: boolean): ProtocolSuiteCodecsV1 {
  return {
    ingress: { protocolFamily: family, decodeRequest: unused },
    egress: { protocolFamily: family, encodeResponse: unused, encodeError: unused, ...(withStreamEncoder ? { createStreamEncoder: unused } : {}) },
  };
}

function syncEntry(family: ProtocolFamily, directHttp: 'none' | 'json' | 'json+sse'): ProtocolSuiteEntryV1 {
  return {
    protocolFamily: family,
    execution: 'sync',
    adapterFactory: { protocolFamily: family, createAdapter: unused },
    directHttp: directHttp !== 'none',
    ...(directHttp === 'none' ? {} : { codecs: codecs(family, directHttp === 'json+sse') }),
    transportMetadata: BEARER,
  };
}

function asyncEntry(family: ProtocolFamily, jobOperations: readonly ('get' | 'list' | 'cancel')[]): ProtocolSuiteEntryV1 {
  return {
    protocolFamily: family,
    execution: 'async',
    asyncAdapterFactory: { protocolFamily: family, jobOperations, createAdapter: unused },
    directHttp: false,
    transportMetadata: { auth: { scheme: 'hs256-jwt', lifetimeSeconds: 1800, notBeforeSkewSeconds: 5 }, fixedHeaders: {} },
  };
}

function conformanceCase(taskKinds: readonly string[], kind: string, expect: string, stream?: boolean): SupportMatrixCaseFacts {
  return { target: { capability: { taskKinds } }, task: { kind, ...(stream === undefined ? {} : { stream }) }, expect: { kind: expect } };
}

describe('support matrix rule', () => {
  it('claims a stream only for a task kind with a stream case, and sync for every kind of a sync family', () => {
    const matrix = buildSupportMatrix([syncEntry('zeta-chat/v1', 'json+sse')], {
      'zeta-chat/v1': [
        conformanceCase(['chat', 'embedding'], 'chat', 'stream', true),
        conformanceCase(['chat', 'embedding'], 'embedding', 'response'),
      ],
    });
    expect(matrix.rows.map((row) => [row.taskKind, row.sync, row.stream, row.asyncStart])).toEqual([
      ['chat', true, true, false],
      ['embedding', true, false, false],
    ]);
  });

  it('does not count a stream request the engine answered otherwise (a refused stream task)', () => {
    const matrix = buildSupportMatrix([syncEntry('zeta-chat/v1', 'none')], {
      'zeta-chat/v1': [conformanceCase(['chat'], 'chat', 'engine-error', true), conformanceCase(['chat'], 'chat', 'response', false)],
    });
    expect(matrix.rows[0]?.stream).toBe(false);
  });

  it('takes async starts and job operations from the async factory', () => {
    const matrix = buildSupportMatrix([asyncEntry('alpha-video/v1', ['get', 'list'])], {
      'alpha-video/v1': [conformanceCase(['video-generation', 'image-generation'], 'video-generation', 'accepted-job')],
    });
    expect(matrix.rows).toEqual([
      { protocolFamily: 'alpha-video/v1', taskKind: 'image-generation', sync: false, stream: false, asyncStart: true, get: true, list: true, cancel: false },
      { protocolFamily: 'alpha-video/v1', taskKind: 'video-generation', sync: false, stream: false, asyncStart: true, get: true, list: true, cancel: false },
    ]);
  });

  it('reads direct HTTP from the entry and SSE egress from the stream encoder', () => {
    const matrix = buildSupportMatrix(
      [syncEntry('c-rank/v1', 'json'), syncEntry('b-chat/v1', 'json+sse'), asyncEntry('a-video/v1', ['get'])],
      {
        'a-video/v1': [conformanceCase(['video-generation'], 'video-generation', 'accepted-job')],
        'b-chat/v1': [conformanceCase(['chat'], 'chat', 'response')],
        'c-rank/v1': [conformanceCase(['rerank'], 'rerank', 'response')],
      },
    );
    expect(matrix.families.map((family) => [family.protocolFamily, family.ingress, family.egressJson, family.egressSse])).toEqual([
      ['a-video/v1', false, false, false],
      ['b-chat/v1', true, true, true],
      ['c-rank/v1', true, true, false],
    ]);
  });

  it('refuses a family without conformance cases and an unknown task kind', () => {
    expect(() => buildSupportMatrix([syncEntry('zeta-chat/v1', 'none')], {})).toThrow(SupportMatrixError);
    expect(() => buildSupportMatrix([syncEntry('zeta-chat/v1', 'none')], { 'zeta-chat/v1': [conformanceCase(['speech'], 'speech', 'response')] })).toThrow(
      /unknown task kind/,
    );
  });

  it('renders both languages with the auth scheme and fixed headers', () => {
    const entry: ProtocolSuiteEntryV1 = { ...syncEntry('zeta-chat/v1', 'json'), transportMetadata: { auth: { scheme: 'header', headerName: 'x-api-key' }, fixedHeaders: { 'x-version': '1' } } };
    const matrix = buildSupportMatrix([entry, asyncEntry('alpha-video/v1', ['get'])], {
      'zeta-chat/v1': [conformanceCase(['chat'], 'chat', 'response')],
      'alpha-video/v1': [conformanceCase(['video-generation'], 'video-generation', 'accepted-job')],
    });
    const english = renderSupportMatrix(matrix, 'en');
    expect(english).toContain('| `alpha-video/v1` | `video-generation` | — | — | ✓ | ✓ | — | — |');
    expect(english).toContain('| `zeta-chat/v1` | sync | `header` (`x-api-key`) | `x-version: 1` | ✓ | ✓ | — |');
    expect(english).toContain('| `alpha-video/v1` | async job | `hs256-jwt` (1800 s) | — | — | — | — |');
    expect(renderSupportMatrix(matrix, 'zh-CN')).toContain('| `alpha-video/v1` | 异步任务 | `hs256-jwt` (1800 s) | — | — | — | — |');
  });
});

describe('support matrix markers', () => {
  const document = `# Guide\n\n${SUPPORT_MATRIX_BEGIN}\nold table\n${SUPPORT_MATRIX_END}\n\nafter\n`;

  it('replaces only the text between the markers', () => {
    const replaced = replaceSupportMatrixBlock(document, '| new |', 'guide.md');
    expect(readSupportMatrixBlock(replaced, 'guide.md')).toBe('| new |');
    expect(replaced.startsWith(`# Guide\n\n${SUPPORT_MATRIX_BEGIN}`)).toBe(true);
    expect(replaced.endsWith(`${SUPPORT_MATRIX_END}\n\nafter\n`)).toBe(true);
  });

  it('refuses missing, reversed or repeated markers', () => {
    expect(() => readSupportMatrixBlock('# no markers', 'guide.md')).toThrow(/missing/);
    expect(() => readSupportMatrixBlock(`${SUPPORT_MATRIX_END}\n${SUPPORT_MATRIX_BEGIN}`, 'guide.md')).toThrow(/missing or out of order/);
    expect(() => readSupportMatrixBlock(`${document}${SUPPORT_MATRIX_BEGIN}`, 'guide.md')).toThrow(/more than once/);
  });
});

describe('the committed guides', () => {
  it('hold the support matrix generated from the builtin suite', () => {
    const expected = expectedSupportMatrixTables();
    for (const guide of SUPPORT_MATRIX_GUIDES) {
      const committed = readSupportMatrixBlock(readFileSync(guide.path, 'utf8'), guide.path);
      expect(committed, `${guide.path} is out of date: regenerate it with ${SUPPORT_MATRIX_COMMAND}`).toBe(expected.get(guide.language));
    }
  });

  it('list every family the builtin engine dispatches to', () => {
    const engine = createProtocolEngineV1({ registry: createBuiltinTokenForgeProtocolSuiteV1().registry });
    const { entries, cases } = loadBuiltinSupportMatrixSources();
    const matrix = buildSupportMatrix(entries, cases);
    expect(matrix.families.map((family) => family.protocolFamily)).toEqual(engine.protocolFamilies);
    expect([...new Set(matrix.rows.map((row) => row.protocolFamily))]).toEqual(engine.protocolFamilies);
  });
});
