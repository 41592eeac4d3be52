import { providerTransportMetadataV1Schema, type ProviderTransportMetadataV1 } from '@tokenforge/model-protocol';
import { normalizeHostname, type AddressRules } from './address-policy/address-policy.js';
import { RESTRICTED_ADDRESS_CATEGORIES, classifyAddress, type RestrictedAddressCategory } from './address-policy/classify-address.js';
import { credentialHeaderName } from './auth/credential-header.js';
import { defaultHostnameResolver } from './connect/default-hostname-resolver.js';
import { HttpTransportConfigurationError } from './http-transport-configuration-error.js';
import type {
  CreateHttpProviderTransportOptions,
  HttpTransportCredentials,
  HttpTransportHostnameResolver,
  HttpTransportPolicy,
} from './http-transport-options.js';
import { isTransportOwnedHeader, isValidHeaderValue } from './request/build-request-headers.js';
import { findPathRefusal } from './request/build-request-path.js';

/** Checked, defaulted settings of one transport. */
export interface TransportConfiguration {
  readonly origin: string;
  readonly basePath: string;
  readonly credentials: HttpTransportCredentials;
  readonly metadata: ProviderTransportMetadataV1;
  readonly credentialHeaderName: string;
  readonly rules: AddressRules;
  readonly redirects: 'refuse' | 'follow-same-origin';
  readonly maxRedirects: number;
  readonly connectTimeoutMs: number;
  readonly headersTimeoutMs: number;
  readonly bodyIdleTimeoutMs: number;
  readonly bodyDeadlineMs: number;
  readonly firstPullTimeoutMs: number;
  readonly maxResponseBytes: number;
  readonly maxConnections: number;
  readonly keepAliveTimeoutMs: number;
  readonly trustedCertificates: readonly string[] | undefined;
  readonly resolveHostname: HttpTransportHostnameResolver;
  readonly now: () => number;
}

/** Validates the options of `createHttpProviderTransport`; throws {@link HttpTransportConfigurationError}. */
export function resolveTransportConfiguration(options: CreateHttpProviderTransportOptions): TransportConfiguration {
  const policy: HttpTransportPolicy = options.policy ?? {};
  const allowInsecureHttpToLoopback = optionalBoolean(policy.allowInsecureHttpToLoopback, 'allowInsecureHttpToLoopback');
  const url = parseBaseUrl(options.baseUrl, allowInsecureHttpToLoopback);
  const metadata = checkMetadata(options.metadata);
  const headerName = credentialHeaderName(metadata.auth);
  const allowedCategories = checkCategories(policy.allowedAddressCategories);
  checkPolicyCanReach(url, allowedCategories);
  return {
    origin: url.origin,
    basePath: url.pathname,
    credentials: checkCredentials(options.credentials, metadata),
    metadata,
    credentialHeaderName: headerName,
    rules: { allowedCategories, plainHttp: url.protocol === 'http:' },
    redirects: checkRedirects(policy.redirects),
    maxRedirects: integerOption(policy.maxRedirects, 'maxRedirects', 3, 1, 10),
    connectTimeoutMs: integerOption(policy.connectTimeoutMs, 'connectTimeoutMs', 10_000, 1, 600_000),
    headersTimeoutMs: integerOption(policy.headersTimeoutMs, 'headersTimeoutMs', 300_000, 1, 3_600_000),
    bodyIdleTimeoutMs: integerOption(policy.bodyIdleTimeoutMs, 'bodyIdleTimeoutMs', 120_000, 1, 3_600_000),
    bodyDeadlineMs: integerOption(policy.bodyDeadlineMs, 'bodyDeadlineMs', 600_000, 1, 86_400_000),
    firstPullTimeoutMs: integerOption(policy.firstPullTimeoutMs, 'firstPullTimeoutMs', 60_000, 1, 3_600_000),
    maxResponseBytes: integerOption(policy.maxResponseBytes, 'maxResponseBytes', 64 * 1024 * 1024, 1, Number.MAX_SAFE_INTEGER),
    maxConnections: integerOption(policy.maxConnections, 'maxConnections', 16, 1, 1024),
    keepAliveTimeoutMs: integerOption(policy.keepAliveTimeoutMs, 'keepAliveTimeoutMs', 4_000, 1, 600_000),
    trustedCertificates: checkCertificates(policy.trustedCertificates),
    resolveHostname: checkFunction(options.resolveHostname, 'resolveHostname') ?? defaultHostnameResolver,
    now: checkFunction(options.now, 'now') ?? Date.now,
  };
}

function parseBaseUrl(baseUrl: unknown, allowInsecureHttpToLoopback: boolean): URL {
  if (typeof baseUrl !== 'string' || !URL.canParse(baseUrl)) {
    throw new HttpTransportConfigurationError('HTTP_TRANSPORT_BASE_URL_INVALID', 'baseUrl is not an absolute URL');
  }
  const url = new URL(baseUrl);
  if (url.username !== '' || url.password !== '') {
    throw new HttpTransportConfigurationError('HTTP_TRANSPORT_BASE_URL_REFUSED', 'baseUrl must not carry userinfo');
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new HttpTransportConfigurationError('HTTP_TRANSPORT_BASE_URL_REFUSED', 'baseUrl must use https');
  }
  if (url.protocol === 'http:' && !allowInsecureHttpToLoopback) {
    throw new HttpTransportConfigurationError(
      'HTTP_TRANSPORT_BASE_URL_REFUSED',
      'baseUrl must use https (plain http needs allowInsecureHttpToLoopback)',
    );
  }
  if (baseUrl.includes('?') || baseUrl.includes('#')) {
    throw new HttpTransportConfigurationError('HTTP_TRANSPORT_BASE_URL_INVALID', 'baseUrl must not carry a query or fragment');
  }
  if (url.pathname !== '/' && findPathRefusal(url.pathname) !== undefined) {
    throw new HttpTransportConfigurationError('HTTP_TRANSPORT_BASE_URL_INVALID', 'baseUrl path has an encoded separator or a dot segment');
  }
  return url;
}

/**
 * Refuses a policy under which no request could ever be sent, naming the missing setting: plain http, a
 * `localhost` name or a restricted IP literal host all need their address category allowed.
 */
function checkPolicyCanReach(url: URL, allowed: ReadonlySet<RestrictedAddressCategory>): void {
  const missing = (category: RestrictedAddressCategory, why: string): HttpTransportConfigurationError =>
    new HttpTransportConfigurationError(
      'HTTP_TRANSPORT_POLICY_INVALID',
      `${why} needs '${category}' in policy.allowedAddressCategories`,
    );
  const hostname = normalizeHostname(url.hostname);
  if (url.protocol === 'http:' && !allowed.has('loopback')) throw missing('loopback', 'a plain http baseUrl (allowInsecureHttpToLoopback)');
  if ((hostname === 'localhost' || hostname.endsWith('.localhost')) && !allowed.has('loopback')) {
    throw missing('loopback', 'a localhost baseUrl');
  }
  const category = classifyAddress(hostname);
  if (category !== undefined && category !== 'public' && !allowed.has(category)) throw missing(category, 'the baseUrl address');
  if (category !== undefined && category !== 'loopback' && url.protocol === 'http:') {
    throw new HttpTransportConfigurationError('HTTP_TRANSPORT_BASE_URL_REFUSED', 'a plain http baseUrl must name a loopback host');
  }
}

function checkMetadata(metadata: unknown): ProviderTransportMetadataV1 {
  const parsed = providerTransportMetadataV1Schema.safeParse(metadata);
  if (!parsed.success) {
    throw new HttpTransportConfigurationError('HTTP_TRANSPORT_METADATA_INVALID', 'metadata does not match ProviderTransportMetadataV1');
  }
  const headerName = credentialHeaderName(parsed.data.auth);
  if (parsed.data.auth.scheme === 'header' && headerName !== 'authorization' && isTransportOwnedHeader(headerName)) {
    throw new HttpTransportConfigurationError('HTTP_TRANSPORT_METADATA_INVALID', 'auth header name is owned by the transport');
  }
  for (const [name, value] of Object.entries(parsed.data.fixedHeaders)) {
    if (name === headerName || isTransportOwnedHeader(name) || !isValidHeaderValue(value)) {
      throw new HttpTransportConfigurationError('HTTP_TRANSPORT_METADATA_INVALID', `fixed header ${name} is not allowed`);
    }
  }
  return parsed.data;
}

function checkCredentials(credentials: unknown, metadata: ProviderTransportMetadataV1): HttpTransportCredentials {
  const invalid = (rule: string): HttpTransportConfigurationError =>
    new HttpTransportConfigurationError('HTTP_TRANSPORT_CREDENTIALS_INVALID', rule);
  if (typeof credentials !== 'object' || credentials === null) throw invalid('credentials must be an object');
  const candidate = credentials as Record<string, unknown>;
  const usable = (value: unknown): value is string => typeof value === 'string' && value.length > 0 && isValidHeaderValue(value);
  if (metadata.auth.scheme === 'hs256-jwt') {
    if (candidate.type !== 'access-key') throw invalid('the hs256-jwt scheme needs access-key credentials');
    if (!usable(candidate.accessKey)) throw invalid('accessKey must be a non-empty header-safe string');
    if (typeof candidate.secretKey !== 'string' || candidate.secretKey.length === 0) throw invalid('secretKey must be a non-empty string');
    return { type: 'access-key', accessKey: candidate.accessKey, secretKey: candidate.secretKey };
  }
  if (candidate.type !== 'api-key') throw invalid(`the ${metadata.auth.scheme} scheme needs api-key credentials`);
  if (!usable(candidate.apiKey)) throw invalid('apiKey must be a non-empty header-safe string');
  return { type: 'api-key', apiKey: candidate.apiKey };
}

function checkCategories(categories: unknown): ReadonlySet<RestrictedAddressCategory> {
  if (categories === undefined) return new Set();
  const known = RESTRICTED_ADDRESS_CATEGORIES as readonly unknown[];
  if (!Array.isArray(categories) || !categories.every((category) => known.includes(category))) {
    throw new HttpTransportConfigurationError('HTTP_TRANSPORT_POLICY_INVALID', 'allowedAddressCategories has an unknown category');
  }
  return new Set(categories as RestrictedAddressCategory[]);
}

function checkRedirects(redirects: unknown): 'refuse' | 'follow-same-origin' {
  if (redirects === undefined) return 'refuse';
  if (redirects === 'refuse' || redirects === 'follow-same-origin') return redirects;
  throw new HttpTransportConfigurationError('HTTP_TRANSPORT_POLICY_INVALID', 'redirects must be refuse or follow-same-origin');
}

function checkCertificates(certificates: unknown): readonly string[] | undefined {
  if (certificates === undefined) return undefined;
  const list: unknown[] = Array.isArray(certificates) ? certificates : [certificates];
  if (list.length === 0 || !list.every((entry) => typeof entry === 'string' && entry.includes('-----BEGIN CERTIFICATE-----'))) {
    throw new HttpTransportConfigurationError('HTTP_TRANSPORT_POLICY_INVALID', 'trustedCertificates must be PEM certificates');
  }
  return list as string[];
}

function integerOption(value: unknown, name: string, fallback: number, min: number, max: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < min || value > max) {
    throw new HttpTransportConfigurationError('HTTP_TRANSPORT_POLICY_INVALID', `${name} must be an integer from ${min} to ${max}`);
  }
  return value;
}

function optionalBoolean(value: unknown, name: string): boolean {
  if (value === undefined) return false;
  if (typeof value !== 'boolean') throw new HttpTransportConfigurationError('HTTP_TRANSPORT_POLICY_INVALID', `${name} must be a boolean`);
  return value;
}

function checkFunction<T>(value: T | undefined, name: string): T | undefined {
  if (value === undefined || typeof value === 'function') return value;
  throw new HttpTransportConfigurationError('HTTP_TRANSPORT_POLICY_INVALID', `${name} must be a function`);
}
