import { classifyAddress, type RestrictedAddressCategory } from './classify-address.js';

/** Host names of cloud instance-metadata services, refused like their addresses. */
const METADATA_HOSTNAMES: ReadonlySet<string> = new Set([
  'metadata',
  'metadata.google.internal',
  'metadata.goog',
  'metadata.azure.internal',
  'instance-data',
  'instance-data.ec2.internal',
]);

/** The network rules a connection is checked against. */
export interface AddressRules {
  /** Restricted categories the host explicitly allows. */
  readonly allowedCategories: ReadonlySet<RestrictedAddressCategory>;
  /** Whether the connection speaks plain HTTP (then every address must be loopback). */
  readonly plainHttp: boolean;
}

/** Lower-cases a host name and drops brackets and a trailing dot, so look-alike spellings compare equal. */
export function normalizeHostname(hostname: string): string {
  const unbracketed = hostname.startsWith('[') && hostname.endsWith(']') ? hostname.slice(1, -1) : hostname;
  return unbracketed.toLowerCase().replace(/\.$/, '');
}

/** Why a host name is refused before any resolution, or `undefined` when it may be resolved. */
export function findHostnameRefusal(hostname: string, rules: AddressRules): string | undefined {
  if (METADATA_HOSTNAMES.has(normalizeHostname(hostname)) && !rules.allowedCategories.has('cloud-metadata')) {
    return 'cloud-metadata host name';
  }
  return undefined;
}

/**
 * Why a set of resolved addresses is refused, or `undefined` when every one of them is allowed. All answers
 * must pass: a name that mixes public and private answers is refused as a whole.
 */
export function findAddressRefusal(addresses: readonly string[], rules: AddressRules): string | undefined {
  if (addresses.length === 0) return 'no address';
  for (const address of addresses) {
    const category = classifyAddress(address);
    if (category === undefined) return 'not an IP address';
    if (category !== 'public' && !rules.allowedCategories.has(category)) return `${category} address`;
    if (rules.plainHttp && category !== 'loopback') return 'plain http to a non-loopback address';
  }
  return undefined;
}
