import { describe, expect, it } from 'vitest';
import { createTokenForgeProtocolSuiteV1 } from '../../suite/create-protocol-suite-v1.js';
import { createKlingVideoSuiteEntryV1 } from './suite-entry.js';

describe('createKlingVideoSuiteEntryV1', () => {
  it('is a valid async entry without direct HTTP, authenticated with an HS256 JWT minted by the host', () => {
    const suite = createTokenForgeProtocolSuiteV1({ entries: [createKlingVideoSuiteEntryV1()] });
    expect(suite.registry.listProtocolFamilies()).toEqual(['kling-video/v1']);
    expect(suite.transportMetadataFor('kling-video/v1')).toEqual({ auth: { scheme: 'hs256-jwt', lifetimeSeconds: 1800, notBeforeSkewSeconds: 5 }, fixedHeaders: {} });
    expect(suite.codecsFor('kling-video/v1')).toBeUndefined();
    expect(suite.registry.requireAsync('kling-video/v1').jobOperations).toEqual(['get', 'list']);
  });
});
