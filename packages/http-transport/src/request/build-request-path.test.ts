import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { getRequest, loopbackTransport, rejectionOf, startHttpServer } from '../test-support/local-servers.js';
import { buildRequestPath, findPathRefusal } from './build-request-path.js';

const ESCAPES_OF_HAZARDS = ['%2F', '%2f', '%5C', '%5c', '%00'];

describe('buildRequestPath', () => {
  it.each([
    '/api/v1/tasks/..%2F..%2F..%2Fadmin%2Fkeys',
    '/api/v1/tasks/abc%2Fcancel',
    '/api/v1/tasks/%2E%2E',
    '/api/v1/tasks/.%2e',
    '/api/v1/tasks/%2e',
    '/api/v1/tasks/..%5Cadmin',
    '/api/v1/tasks/a%00b',
    '/api/v1/tasks/%E0%A4%A',
    '/api/v1/tasks/%FF',
    '/api/v1/tasks/a\\b',
  ])('refuses %s, which could leave its segment once decoded', (path) => {
    expect(findPathRefusal(path)).toBeDefined();
    expect(() => buildRequestPath('/v1', path, undefined)).toThrow(expect.objectContaining({ reason: 'policy-refused' }));
  });

  it('accepts every job id encoded with encodeURIComponent unless it decodes to a separator or a dot segment', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', minLength: 1, maxLength: 24 }), (id) => {
        const path = `/api/v1/tasks/${encodeURIComponent(id)}`;
        const hazardous = id === '.' || id === '..' || /[/\\\0]/.test(id);
        expect(findPathRefusal(path) !== undefined).toBe(hazardous);
      }),
      { numRuns: 2000 },
    );
  });

  it('refuses any segment that hides a separator behind an escape, whatever surrounds it', () => {
    const plain = fc.stringMatching(/^[A-Za-z0-9._~-]{0,8}$/);
    fc.assert(
      fc.property(plain, fc.constantFrom(...ESCAPES_OF_HAZARDS), plain, (before, escape, after) => {
        expect(findPathRefusal(`/jobs/${before}${escape}${after}`)).toBeDefined();
      }),
    );
  });

  it('sends nothing for an escaped job id path over a real socket', async () => {
    const server = await startHttpServer((_request, response) => response.end('{}'));
    const transport = loopbackTransport(server);
    const failure = await rejectionOf(transport.send(getRequest({ path: '/api/v1/tasks/..%2F..%2F..%2Fadmin%2Fkeys' })));
    expect(failure).toMatchObject({ stage: 'before-send', reason: 'policy-refused' });
    expect(server.requests).toHaveLength(0);
  });
});
