import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { createHttpProviderTransport } from './create-http-provider-transport.js';
import { HttpTransportConfigurationError, isHttpTransportConfigurationError } from './http-transport-configuration-error.js';
import type { CreateHttpProviderTransportOptions } from './http-transport-options.js';

const valid: CreateHttpProviderTransportOptions = {
  baseUrl: 'https://api.example.com/v1',
  credentials: { type: 'api-key', apiKey: 'sk-config' },
  metadata: { auth: { scheme: 'bearer' }, fixedHeaders: {} },
};

function codeOf(options: unknown): string | undefined {
  try {
    void createHttpProviderTransport(options as CreateHttpProviderTransportOptions).close();
    return undefined;
  } catch (error) {
    expect(isHttpTransportConfigurationError(error)).toBe(true);
    return (error as HttpTransportConfigurationError).code;
  }
}

describe('createHttpProviderTransport options', () => {
  it('accepts a valid configuration without touching the network', async () => {
    const transport = createHttpProviderTransport(valid);
    await transport.close();
    await transport.close();
  });

  it.each([
    ['an unknown auth scheme', { metadata: { auth: { scheme: 'basic' }, fixedHeaders: {} } }],
    ['an upper-case fixed header', { metadata: { auth: { scheme: 'bearer' }, fixedHeaders: { 'X-Version': '1' } } }],
    ['a fixed authorization header', { metadata: { auth: { scheme: 'bearer' }, fixedHeaders: { authorization: 'x' } } }],
    ['a fixed header repeating the auth header', { metadata: { auth: { scheme: 'header', headerName: 'x-api-key' }, fixedHeaders: { 'x-api-key': 'x' } } }],
    ['a framing header as auth header', { metadata: { auth: { scheme: 'header', headerName: 'content-length' }, fixedHeaders: {} } }],
    ['a fixed header value with a line break', { metadata: { auth: { scheme: 'bearer' }, fixedHeaders: { 'x-v': 'a\r\nb' } } }],
    ['a too short JWT lifetime', { metadata: { auth: { scheme: 'hs256-jwt', lifetimeSeconds: 1, notBeforeSkewSeconds: 0 }, fixedHeaders: {} } }],
  ])('refuses metadata with %s', (_label, override) => {
    expect(codeOf({ ...valid, ...override })).toBe('HTTP_TRANSPORT_METADATA_INVALID');
  });

  it('lets the header scheme name authorization itself (a raw key without Bearer)', () => {
    expect(codeOf({ ...valid, metadata: { auth: { scheme: 'header', headerName: 'authorization' }, fixedHeaders: {} } })).toBeUndefined();
  });

  it.each([
    ['a missing key', { credentials: { type: 'api-key', apiKey: '' } }],
    ['no credentials', { credentials: undefined }],
    ['a signing key for the bearer scheme', { credentials: { type: 'access-key', accessKey: 'a', secretKey: 'b' } }],
  ])('refuses credentials with %s', (_label, override) => {
    expect(codeOf({ ...valid, ...override })).toBe('HTTP_TRANSPORT_CREDENTIALS_INVALID');
  });

  it.each([
    ['an unknown address category', { allowedAddressCategories: ['intranet'] }],
    ['a zero timeout', { connectTimeoutMs: 0 }],
    ['a fractional limit', { maxResponseBytes: 1.5 }],
    ['too many redirects', { maxRedirects: 50 }],
    ['an unknown redirect mode', { redirects: 'follow' }],
    ['a non-PEM certificate', { trustedCertificates: 'not a certificate' }],
    ['a non-boolean http switch', { allowInsecureHttpToLoopback: 'yes' }],
  ])('refuses a policy with %s', (_label, policy) => {
    expect(codeOf({ ...valid, policy })).toBe('HTTP_TRANSPORT_POLICY_INVALID');
  });

  it('refuses a resolver that is not a function', () => {
    expect(codeOf({ ...valid, resolveHostname: 'dns' })).toBe('HTTP_TRANSPORT_POLICY_INVALID');
  });

  it('recognizes a configuration error from another realm by its marker, and nothing else', () => {
    const foreign: unknown = runInNewContext(
      `const error = new Error('x'); error.code = 'HTTP_TRANSPORT_POLICY_INVALID';
       Object.defineProperty(error, Symbol.for('tokenforge.http-transport-configuration-error.v1'), { value: true });
       error`,
    );
    expect(isHttpTransportConfigurationError(foreign)).toBe(true);
    expect(isHttpTransportConfigurationError(Object.assign(new Error('x'), { code: 'HTTP_TRANSPORT_POLICY_INVALID' }))).toBe(false);
    expect(isHttpTransportConfigurationError(null)).toBe(false);
  });
});
