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

  it.each([
    ['http://127.0.0.1:8080/v1', { allowInsecureHttpToLoopback: true }, 'loopback'],
    ['http://[::1]:8080/v1', { allowInsecureHttpToLoopback: true, allowedAddressCategories: ['private'] }, 'loopback'],
    ['http://simulator.test:8080/v1', { allowInsecureHttpToLoopback: true }, 'loopback'],
    ['https://localhost/v1', {}, 'loopback'],
    ['https://api.localhost/v1', {}, 'loopback'],
    ['https://10.0.0.7/v1', {}, 'private'],
    ['https://[fd00::1]/v1', { allowedAddressCategories: ['private'] }, 'unique-local'],
    ['https://169.254.169.254/', { allowedAddressCategories: ['link-local'] }, 'cloud-metadata'],
    ['https://[::ffff:0:7f00:1]/v1', {}, 'loopback'],
  ])('refuses %s under a policy that could never reach it, naming the missing category', (baseUrl, policy, category) => {
    let error: unknown;
    try {
      createHttpProviderTransport({ ...valid, baseUrl, policy: policy as never });
    } catch (caught) {
      error = caught;
    }
    expect(error).toMatchObject({ code: 'HTTP_TRANSPORT_POLICY_INVALID' });
    expect((error as Error).message).toContain(`'${category}' in policy.allowedAddressCategories`);
  });

  it.each([
    ['http://127.0.0.1:8080/v1', { allowInsecureHttpToLoopback: true, allowedAddressCategories: ['loopback'] }],
    ['http://simulator.test:8080/v1', { allowInsecureHttpToLoopback: true, allowedAddressCategories: ['loopback'] }],
    ['https://10.0.0.7/v1', { allowedAddressCategories: ['private'] }],
    ['https://8.8.8.8/v1', {}],
  ])('accepts %s under a policy that can reach it', async (baseUrl, policy) => {
    await createHttpProviderTransport({ ...valid, baseUrl, policy: policy as never }).close();
  });

  it('refuses plain http to an IP literal that is not loopback even when its category is allowed', () => {
    const policy = { allowInsecureHttpToLoopback: true, allowedAddressCategories: ['loopback', 'private'] } as const;
    expect(codeOf({ ...valid, baseUrl: 'http://10.0.0.7/v1', policy })).toBe('HTTP_TRANSPORT_BASE_URL_REFUSED');
  });

  it.each(['https://api.example.com/v1/..%2Fadmin', 'https://api.example.com/v1/%2e%2e%2fadmin', 'https://api.example.com/a%5Cb'])(
    'refuses a base URL whose path hides a separator or a dot segment: %s',
    (baseUrl) => {
      expect(codeOf({ ...valid, baseUrl })).toBe('HTTP_TRANSPORT_BASE_URL_INVALID');
    },
  );

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
