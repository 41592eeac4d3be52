import { runInNewContext } from 'node:vm';
import type {
  EgressCodecV1,
  IngressCodecV1,
  ProtocolFamily,
  ProviderAdapterFactory,
  ProviderAsyncJobAdapterFactory,
  ProviderTransportMetadataV1,
} from '@tokenforge/model-protocol';
import { describe, expect, it } from 'vitest';
import type { AsyncProtocolSuiteEntryV1, ProtocolSuiteEntryV1, SyncProtocolSuiteEntryV1 } from './protocol-suite-entry-v1.js';
import { createTokenForgeProtocolSuiteV1 } from './create-protocol-suite-v1.js';
import { isProtocolSuiteErrorV1, ProtocolSuiteErrorV1, type ProtocolSuiteErrorCodeV1 } from './protocol-suite-error-v1.js';

const metadata: ProviderTransportMetadataV1 = { auth: { scheme: 'bearer' }, fixedHeaders: {} };

function syncFactory(protocolFamily: ProtocolFamily): ProviderAdapterFactory {
  return { protocolFamily, createAdapter: () => ({ execute: () => Promise.reject(new Error('unused')) }) };
}

function asyncFactory(protocolFamily: ProtocolFamily, jobOperations: unknown = ['get']): ProviderAsyncJobAdapterFactory {
  return {
    protocolFamily,
    jobOperations: jobOperations as ProviderAsyncJobAdapterFactory['jobOperations'],
    createAdapter: () => ({ start: () => Promise.reject(new Error('unused')) }),
  };
}

function codecs(protocolFamily: ProtocolFamily, egressFamily: ProtocolFamily = protocolFamily) {
  const ingress: IngressCodecV1 = {
    protocolFamily,
    decodeRequest: () => {
      throw new Error('unused');
    },
  };
  const egress: EgressCodecV1 = {
    protocolFamily: egressFamily,
    encodeResponse: () => {
      throw new Error('unused');
    },
    encodeError: () => {
      throw new Error('unused');
    },
  };
  return { ingress, egress };
}

function syncEntry(protocolFamily: ProtocolFamily, overrides: Record<string, unknown> = {}): SyncProtocolSuiteEntryV1 {
  return {
    protocolFamily,
    execution: 'sync',
    adapterFactory: syncFactory(protocolFamily),
    directHttp: true,
    codecs: codecs(protocolFamily),
    transportMetadata: metadata,
    ...overrides,
  } as SyncProtocolSuiteEntryV1;
}

function asyncEntry(protocolFamily: ProtocolFamily, overrides: Record<string, unknown> = {}): AsyncProtocolSuiteEntryV1 {
  return {
    protocolFamily,
    execution: 'async',
    asyncAdapterFactory: asyncFactory(protocolFamily),
    directHttp: false,
    transportMetadata: { auth: { scheme: 'header', headerName: 'x-api-key' }, fixedHeaders: { 'x-async': 'enable' } },
    ...overrides,
  } as AsyncProtocolSuiteEntryV1;
}

function suiteError(entries: readonly unknown[]): ProtocolSuiteErrorV1 {
  try {
    createTokenForgeProtocolSuiteV1({ entries: entries as ProtocolSuiteEntryV1[] });
  } catch (error) {
    if (isProtocolSuiteErrorV1(error)) return error;
    throw error;
  }
  throw new Error('the suite accepted invalid entries');
}

function expectRefused(
  entries: readonly unknown[],
  code: ProtocolSuiteErrorCodeV1,
  entryIndex: number,
  family: ProtocolFamily | undefined,
): void {
  const error = suiteError(entries);
  expect(error.code).toBe(code);
  expect(error.entryIndex).toBe(entryIndex);
  expect(error.protocolFamily).toBe(family);
  expect(error.message).toContain(`entry ${entryIndex}`);
  if (family !== undefined) expect(error.message).toContain(family);
}

describe('createTokenForgeProtocolSuiteV1', () => {
  it('builds a registry, metadata and codec lookups from valid entries', () => {
    const chat = syncEntry('example-chat/v1');
    const video = asyncEntry('example-video/v1');
    const embed = syncEntry('example-embed/v1', { directHttp: false, codecs: undefined });
    const suite = createTokenForgeProtocolSuiteV1({ entries: [video, chat, embed] });

    expect(suite.registry.listProtocolFamilies()).toEqual(['example-chat/v1', 'example-embed/v1', 'example-video/v1']);
    expect(suite.registry.require('example-chat/v1')).toBe(chat.adapterFactory);
    expect(suite.registry.requireAsync('example-video/v1')).toBe(video.asyncAdapterFactory);
    expect(suite.transportMetadataFor('example-video/v1')).toEqual({
      auth: { scheme: 'header', headerName: 'x-api-key' },
      fixedHeaders: { 'x-async': 'enable' },
    });
    expect(suite.codecsFor('example-chat/v1')).toBe(chat.codecs);
    expect(suite.codecsFor('example-embed/v1')).toBeUndefined();
    expect(suite.codecsFor('example-video/v1')).toBeUndefined();
    expect(suite.entries.map((entry) => entry.protocolFamily)).toEqual(['example-video/v1', 'example-chat/v1', 'example-embed/v1']);
  });

  it('is immutable: the family list, entries and metadata are frozen snapshots', () => {
    const entries = [syncEntry('example-chat/v1')];
    const suite = createTokenForgeProtocolSuiteV1({ entries });
    entries.push(syncEntry('late-chat/v1'));
    expect(suite.registry.listProtocolFamilies()).toEqual(['example-chat/v1']);
    expect(Object.isFrozen(suite.registry.listProtocolFamilies())).toBe(true);
    expect(Object.isFrozen(suite.entries)).toBe(true);
    expect(Object.isFrozen(suite.entries[0])).toBe(true);
    expect(Object.isFrozen(suite.transportMetadataFor('example-chat/v1').fixedHeaders)).toBe(true);
  });

  it('accepts an empty suite', () => {
    expect(createTokenForgeProtocolSuiteV1({ entries: [] }).registry.listProtocolFamilies()).toEqual([]);
  });

  it('refuses entries that are not an array, and entries that are not objects', () => {
    expect(suiteError(undefined as unknown as unknown[]).code).toBe('entries-invalid');
    expectRefused([syncEntry('example-chat/v1'), null], 'entries-invalid', 1, undefined);
  });

  it('refuses a malformed family id without echoing it', () => {
    const error = suiteError([syncEntry('example-chat/v1'), syncEntry('Bad Family' as ProtocolFamily)]);
    expect(error.code).toBe('family-invalid');
    expect(error.entryIndex).toBe(1);
    expect(error.protocolFamily).toBeUndefined();
    expect(error.message).not.toContain('Bad Family');
  });

  it('refuses a duplicate family', () => {
    expectRefused([syncEntry('example-chat/v1'), syncEntry('example-chat/v1')], 'family-duplicate', 1, 'example-chat/v1');
  });

  it('refuses a factory that declares another family', () => {
    expectRefused(
      [syncEntry('example-chat/v1', { adapterFactory: syncFactory('other-chat/v1') })],
      'factory-family-mismatch',
      0,
      'example-chat/v1',
    );
    expectRefused(
      [asyncEntry('example-video/v1', { asyncAdapterFactory: asyncFactory('other-video/v1') })],
      'factory-family-mismatch',
      0,
      'example-video/v1',
    );
  });

  it('refuses an async family without an async factory', () => {
    expectRefused([asyncEntry('example-video/v1', { asyncAdapterFactory: undefined })], 'adapter-factory-missing', 0, 'example-video/v1');
  });

  it('refuses a sync family without a sync factory', () => {
    expectRefused([syncEntry('example-chat/v1', { adapterFactory: undefined })], 'adapter-factory-missing', 0, 'example-chat/v1');
  });

  it('refuses a factory without createAdapter', () => {
    expectRefused(
      [syncEntry('example-chat/v1', { adapterFactory: { protocolFamily: 'example-chat/v1' } })],
      'adapter-factory-invalid',
      0,
      'example-chat/v1',
    );
  });

  it('refuses a sync entry with an async factory', () => {
    expectRefused(
      [syncEntry('example-chat/v1', { asyncAdapterFactory: asyncFactory('example-chat/v1') })],
      'execution-mismatch',
      0,
      'example-chat/v1',
    );
    expectRefused(
      [syncEntry('example-chat/v1', { adapterFactory: asyncFactory('example-chat/v1') })],
      'execution-mismatch',
      0,
      'example-chat/v1',
    );
  });

  it('refuses an async entry with a sync factory', () => {
    expectRefused(
      [asyncEntry('example-video/v1', { adapterFactory: syncFactory('example-video/v1') })],
      'execution-mismatch',
      0,
      'example-video/v1',
    );
  });

  it('refuses an unknown execution style', () => {
    expectRefused([syncEntry('example-chat/v1', { execution: 'stream' })], 'execution-invalid', 0, 'example-chat/v1');
  });

  it.each([
    ['not an array', 'get'],
    ['an unknown operation', ['get', 'delete']],
    ['a repeated operation', ['get', 'get']],
  ])('refuses invalid jobOperations: %s', (_label, jobOperations) => {
    expectRefused(
      [asyncEntry('example-video/v1', { asyncAdapterFactory: asyncFactory('example-video/v1', jobOperations) })],
      'job-operations-invalid',
      0,
      'example-video/v1',
    );
  });

  it('accepts an async family with no operations after start', () => {
    const suite = createTokenForgeProtocolSuiteV1({
      entries: [asyncEntry('example-video/v1', { asyncAdapterFactory: asyncFactory('example-video/v1', []) })],
    });
    expect(suite.registry.requireAsync('example-video/v1').jobOperations).toEqual([]);
  });

  it('refuses directHttp true without codecs', () => {
    expectRefused([syncEntry('example-chat/v1', { codecs: undefined })], 'direct-http-mismatch', 0, 'example-chat/v1');
  });

  it('refuses codecs without directHttp', () => {
    expectRefused([syncEntry('example-chat/v1', { directHttp: false })], 'direct-http-mismatch', 0, 'example-chat/v1');
  });

  it('refuses a missing directHttp declaration', () => {
    expectRefused([syncEntry('example-chat/v1', { directHttp: undefined })], 'direct-http-mismatch', 0, 'example-chat/v1');
  });

  it('refuses codecs whose protocol family differs from the entry', () => {
    expectRefused(
      [syncEntry('example-chat/v1', { codecs: codecs('other-chat/v1') })],
      'codec-family-mismatch',
      0,
      'example-chat/v1',
    );
    expectRefused(
      [syncEntry('example-chat/v1', { codecs: codecs('example-chat/v1', 'other-chat/v1') })],
      'codec-family-mismatch',
      0,
      'example-chat/v1',
    );
  });

  it('refuses codecs that are not codecs', () => {
    expectRefused(
      [syncEntry('example-chat/v1', { codecs: { ingress: codecs('example-chat/v1').ingress } })],
      'codecs-invalid',
      0,
      'example-chat/v1',
    );
    expectRefused(
      [syncEntry('example-chat/v1', { codecs: { ...codecs('example-chat/v1'), egress: { protocolFamily: 'example-chat/v1' } } })],
      'codecs-invalid',
      0,
      'example-chat/v1',
    );
  });

  it('refuses an async family declaring direct HTTP', () => {
    expectRefused([asyncEntry('example-video/v1', { directHttp: true })], 'direct-http-mismatch', 0, 'example-video/v1');
    expectRefused(
      [asyncEntry('example-video/v1', { directHttp: false, codecs: codecs('example-video/v1') })],
      'direct-http-mismatch',
      0,
      'example-video/v1',
    );
  });

  it('refuses missing transport metadata', () => {
    expectRefused([syncEntry('example-chat/v1', { transportMetadata: undefined })], 'transport-metadata-invalid', 0, 'example-chat/v1');
  });

  it.each([
    ['an unknown auth scheme', { auth: { scheme: 'basic' }, fixedHeaders: {} }],
    ['an upper-case header name', { auth: { scheme: 'header', headerName: 'X-Api-Key' }, fixedHeaders: {} }],
    ['an undeclared field', { auth: { scheme: 'bearer' }, fixedHeaders: {}, baseUrl: 'https://example.test' }],
    ['a JWT lifetime out of range', { auth: { scheme: 'hs256-jwt', lifetimeSeconds: 5, notBeforeSkewSeconds: 0 }, fixedHeaders: {} }],
  ])('refuses invalid transport metadata: %s', (_label, transportMetadata) => {
    expectRefused([syncEntry('example-chat/v1', { transportMetadata })], 'transport-metadata-invalid', 0, 'example-chat/v1');
  });

  it('refuses lookups of families it does not hold, or with the wrong execution style', () => {
    const suite = createTokenForgeProtocolSuiteV1({ entries: [syncEntry('example-chat/v1'), asyncEntry('example-video/v1')] });
    const lookups = [
      () => suite.registry.require('missing-chat/v1'),
      () => suite.registry.requireAsync('missing-chat/v1'),
      () => suite.registry.require('example-video/v1'),
      () => suite.registry.requireAsync('example-chat/v1'),
      () => suite.transportMetadataFor('missing-chat/v1'),
      () => suite.codecsFor('missing-chat/v1'),
    ];
    for (const lookup of lookups) {
      let caught: unknown;
      try {
        lookup();
      } catch (error) {
        caught = error;
      }
      expect(isProtocolSuiteErrorV1(caught) && caught.code).toBe('family-not-registered');
    }
  });
});

describe('isProtocolSuiteErrorV1', () => {
  it('recognizes errors from another realm and refuses look-alikes without throwing', () => {
    const marker = Symbol.for('tokenforge.protocol-suite-error.v1');
    const foreign = runInNewContext(`const e = new Error('x'); Object.defineProperty(e, marker, { value: true }); e.code = 'family-duplicate'; e`, {
      marker,
    });
    expect(isProtocolSuiteErrorV1(foreign)).toBe(true);
    expect(isProtocolSuiteErrorV1({ code: 'family-duplicate' })).toBe(false);
    const hostile = new Proxy({}, { get: () => { throw new Error('boom'); } });
    expect(isProtocolSuiteErrorV1(hostile)).toBe(false);
  });
});
