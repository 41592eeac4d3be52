import { lookup } from 'node:dns/promises';
import {
  classifyAddress,
  createHttpProviderTransport,
  type HttpProviderTransport,
  type HttpTransportCredentials,
  type HttpTransportHostnameResolver,
  type RestrictedAddressCategory,
} from '@tokenforge/http-transport';
import { isProviderTransportFailureV1, type ProviderTransport, type ProviderTransportMetadataV1 } from '@tokenforge/model-protocol';
import { CertificationError } from '../certification-error.js';
import type { CertificationManifestV1, ManifestCaseV1 } from '../manifest/certification-manifest-v1.js';

/**
 * Network settings only the library API takes (tests against a loopback simulator). The CLIs never set them, so a
 * real run reaches public addresses only, over https with the system roots, with no redirects.
 */
export interface CertificationNetworkOverridesV1 {
  /** Resolves provider host names (default: the system resolver). */
  readonly resolveHostname?: HttpTransportHostnameResolver;
  /** Restricted address categories the run may reach (default: none). */
  readonly allowedAddressCategories?: readonly RestrictedAddressCategory[];
  /** PEM certificates replacing the system roots. */
  readonly trustedCertificates?: string | readonly string[];
}

/** The system resolver (every address, in the order the system gives). */
export const systemResolver: HttpTransportHostnameResolver = async (hostname) => (await lookup(hostname, { all: true, verbatim: true })).map((entry) => entry.address);

/** The secret of a case, read from the env by the variable names the manifest gives. */
export function credentialsOf(manifestCase: ManifestCaseV1, env: ReadonlyMap<string, string>, where: string): HttpTransportCredentials {
  const read = (name: string): string => {
    const value = env.get(name);
    if (value === undefined || value.length === 0) throw new CertificationError('ENV_VARIABLE_MISSING', `${where}: the env file does not set ${name}`);
    return value;
  };
  const credentials = manifestCase.connection.credentials;
  return credentials.type === 'api-key'
    ? { type: 'api-key', apiKey: read(credentials.apiKeyEnv) }
    : { type: 'access-key', accessKey: read(credentials.accessKeyEnv), secretKey: read(credentials.secretKeyEnv) };
}

/** The host names a manifest may reach: the hosts of its case origins (the run's allowlist). */
export function allowedHostnamesOf(manifest: CertificationManifestV1): ReadonlySet<string> {
  return new Set(manifest.cases.map((manifestCase) => new URL(manifestCase.connection.origin).hostname));
}

/** A resolver that answers only allowlisted host names. */
export function allowlistResolver(allowed: ReadonlySet<string>, resolve: HttpTransportHostnameResolver): HttpTransportHostnameResolver {
  return async (hostname, options) => {
    if (!allowed.has(hostname.toLowerCase())) throw new CertificationError('ADDRESS_REFUSED', 'a host outside the manifest was asked for');
    return resolve(hostname, options);
  };
}

/**
 * Resolves every allowlisted host once before any provider call and refuses the run when an answer is private,
 * loopback, link-local, cloud-metadata or otherwise restricted (unless the library caller allowed its category).
 * Messages give the origin's position, never the host name.
 */
export async function preflightAddresses(hostnames: ReadonlySet<string>, resolve: HttpTransportHostnameResolver, allowed: readonly RestrictedAddressCategory[], signal: AbortSignal): Promise<void> {
  let index = 0;
  for (const hostname of hostnames) {
    index += 1;
    let addresses: readonly string[];
    try {
      addresses = await resolve(hostname, { signal });
    } catch {
      throw new CertificationError('ADDRESS_REFUSED', `provider host ${index} of ${hostnames.size} does not resolve`);
    }
    if (addresses.length === 0) throw new CertificationError('ADDRESS_REFUSED', `provider host ${index} of ${hostnames.size} does not resolve`);
    for (const address of addresses) {
      const category = classifyAddress(address);
      if (category === undefined) throw new CertificationError('ADDRESS_REFUSED', `provider host ${index} of ${hostnames.size} resolves to an unreadable address`);
      if (category !== 'public' && !allowed.includes(category)) {
        throw new CertificationError('ADDRESS_REFUSED', `provider host ${index} of ${hostnames.size} resolves to a ${category} address; only public addresses are allowed`);
      }
    }
  }
}

/** What the counting transport saw. */
export interface TransportTally {
  httpRequests: number;
  /** The reason of the last transport failure, if any. */
  lastFailure: { readonly reason: string; readonly stage: string } | undefined;
}

/** Wraps a transport to count HTTP requests and remember the last transport failure reason. */
export function countingTransport(inner: ProviderTransport, tally: TransportTally): ProviderTransport {
  return {
    async send(request) {
      tally.httpRequests += 1;
      try {
        return await inner.send(request);
      } catch (error) {
        if (isProviderTransportFailureV1(error)) tally.lastFailure = { reason: error.reason, stage: error.stage };
        throw error;
      }
    },
  };
}

/** Transports of one run, one per (connection, family), closed together. */
export class CertificationTransports {
  readonly #transports = new Map<string, HttpProviderTransport>();
  readonly #resolve: HttpTransportHostnameResolver;
  readonly #overrides: CertificationNetworkOverridesV1;

  constructor(resolve: HttpTransportHostnameResolver, overrides: CertificationNetworkOverridesV1) {
    this.#resolve = resolve;
    this.#overrides = overrides;
  }

  /** The transport of a case (created on first use). */
  transportFor(manifestCase: ManifestCaseV1, credentials: HttpTransportCredentials, metadata: ProviderTransportMetadataV1): HttpProviderTransport {
    const key = `${manifestCase.target.connectionRef}\u0000${manifestCase.target.capability.protocolFamily}`;
    let transport = this.#transports.get(key);
    if (transport === undefined) {
      const { origin, basePath } = manifestCase.connection;
      transport = createHttpProviderTransport({
        baseUrl: basePath === '/' ? origin : `${origin}${basePath}`,
        credentials,
        metadata,
        resolveHostname: this.#resolve,
        policy: {
          allowedAddressCategories: this.#overrides.allowedAddressCategories ?? [],
          redirects: 'refuse',
          ...(this.#overrides.trustedCertificates === undefined ? {} : { trustedCertificates: this.#overrides.trustedCertificates }),
        },
      });
      this.#transports.set(key, transport);
    }
    return transport;
  }

  /** Destroys every transport (bodies are always drained or released before this). */
  async close(): Promise<void> {
    await Promise.allSettled([...this.#transports.values()].map((transport) => transport.destroy()));
    this.#transports.clear();
  }
}

/** Whether a transport failure means the network policy refused something (stop the run). */
export function isPolicyFailure(reason: string | undefined): boolean {
  return reason === 'policy-refused' || reason === 'redirect-refused' || reason === 'tls-failed';
}
