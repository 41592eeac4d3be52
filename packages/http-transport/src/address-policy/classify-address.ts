import { parseIpAddress, type ParsedIpAddress } from './parse-ip-address.js';

/** Address kinds the transport refuses unless the host's policy names them in `allowedAddressCategories`. */
export const RESTRICTED_ADDRESS_CATEGORIES = [
  'loopback',
  'private',
  'link-local',
  'carrier-grade-nat',
  'unique-local',
  'unspecified',
  'multicast',
  'cloud-metadata',
  'reserved',
] as const;

/** A restricted address kind: see {@link RESTRICTED_ADDRESS_CATEGORIES}. */
export type RestrictedAddressCategory = (typeof RESTRICTED_ADDRESS_CATEGORIES)[number];

/** What an address is: one restricted kind, or `public` (globally routable and always allowed). */
export type AddressCategory = RestrictedAddressCategory | 'public';

interface Range {
  readonly prefix: readonly number[];
  readonly bits: number;
  readonly category: RestrictedAddressCategory;
}

// Most specific first: the first match wins (169.254.169.254 is metadata before it is link-local).
const IPV4_RANGES: readonly Range[] = [
  { prefix: [169, 254, 169, 254], bits: 32, category: 'cloud-metadata' },
  { prefix: [169, 254, 170, 2], bits: 32, category: 'cloud-metadata' },
  { prefix: [100, 100, 100, 200], bits: 32, category: 'cloud-metadata' },
  { prefix: [192, 0, 0, 192], bits: 32, category: 'cloud-metadata' },
  { prefix: [0, 0, 0, 0], bits: 32, category: 'unspecified' },
  { prefix: [0], bits: 8, category: 'reserved' },
  { prefix: [127], bits: 8, category: 'loopback' },
  { prefix: [10], bits: 8, category: 'private' },
  { prefix: [172, 16], bits: 12, category: 'private' },
  { prefix: [192, 168], bits: 16, category: 'private' },
  { prefix: [169, 254], bits: 16, category: 'link-local' },
  { prefix: [100, 64], bits: 10, category: 'carrier-grade-nat' },
  { prefix: [224], bits: 4, category: 'multicast' },
  { prefix: [240], bits: 4, category: 'reserved' },
  { prefix: [192, 0, 0], bits: 24, category: 'reserved' },
  { prefix: [192, 0, 2], bits: 24, category: 'reserved' },
  { prefix: [198, 18], bits: 15, category: 'reserved' },
  { prefix: [198, 51, 100], bits: 24, category: 'reserved' },
  { prefix: [203, 0, 113], bits: 24, category: 'reserved' },
];

const IPV6_RANGES: readonly Range[] = [
  { prefix: [0xfd, 0x00, 0x0e, 0xc2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x02, 0x54], bits: 128, category: 'cloud-metadata' },
  { prefix: [], bits: 128, category: 'unspecified' },
  { prefix: [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1], bits: 128, category: 'loopback' },
  { prefix: [0xfe, 0x80], bits: 10, category: 'link-local' },
  { prefix: [0xfe, 0xc0], bits: 10, category: 'private' },
  { prefix: [0xfc], bits: 7, category: 'unique-local' },
  { prefix: [0xff], bits: 8, category: 'multicast' },
  { prefix: [0x01, 0x00], bits: 64, category: 'reserved' },
  { prefix: [0x20, 0x01, 0x0d, 0xb8], bits: 32, category: 'reserved' },
  { prefix: [0x20, 0x01, 0x00, 0x00], bits: 32, category: 'reserved' },
  { prefix: [0x00, 0x64, 0xff, 0x9b, 0x00, 0x01], bits: 48, category: 'reserved' },
];

/**
 * Classifies an IP literal. IPv6 forms that carry an IPv4 address (IPv4-mapped `::ffff:0:0/96`,
 * IPv4-translated `::ffff:0:0:0/96`, IPv4-compatible `::/96`, NAT64 `64:ff9b::/96` and `64:ff9b:1::/48`,
 * 6to4 `2002::/16`, ISATAP interface ids `…:0:5efe:a.b.c.d` and `…:200:5efe:a.b.c.d`) take the category
 * of the IPv4 address inside them whenever that address is restricted. Returns `undefined` when the text is
 * not an IP literal.
 */
export function classifyAddress(address: string): AddressCategory | undefined {
  const parsed = parseIpAddress(address);
  return parsed === undefined ? undefined : classifyParsedAddress(parsed);
}

function classifyParsedAddress(address: ParsedIpAddress): AddressCategory {
  if (address.family === 4) return matchRange(address.bytes, IPV4_RANGES);
  const embedded = embeddedIpv4(address.bytes);
  const embeddedCategory = embedded === undefined ? 'public' : matchRange(embedded, IPV4_RANGES);
  return embeddedCategory !== 'public' ? embeddedCategory : matchRange(address.bytes, IPV6_RANGES);
}

function embeddedIpv4(bytes: Uint8Array): Uint8Array | undefined {
  const isZero = (from: number, to: number): boolean => bytes.subarray(from, to).every((byte) => byte === 0);
  const tail = bytes.subarray(12, 16);
  // `::` and `::1` (and the rest of ::/120) are IPv6 addresses of their own, not IPv4-compatible ones.
  if (isZero(0, 15)) return undefined;
  if (isZero(0, 10) && bytes[10] === 0xff && bytes[11] === 0xff) return tail;
  if (isZero(0, 8) && bytes[8] === 0xff && bytes[9] === 0xff && isZero(10, 12)) return tail;
  if (isZero(0, 12)) return tail;
  if (bytes[0] === 0x00 && bytes[1] === 0x64 && bytes[2] === 0xff && bytes[3] === 0x9b) {
    if (isZero(4, 12)) return tail;
    if (bytes[4] === 0x00 && bytes[5] === 0x01) return tail;
  }
  if (bytes[0] === 0x20 && bytes[1] === 0x02) return bytes.subarray(2, 6);
  if ((bytes[8] === 0x00 || bytes[8] === 0x02) && bytes[9] === 0x00 && bytes[10] === 0x5e && bytes[11] === 0xfe) return tail;
  return undefined;
}

function matchRange(bytes: Uint8Array, ranges: readonly Range[]): AddressCategory {
  for (const range of ranges) {
    if (hasPrefix(bytes, range)) return range.category;
  }
  return 'public';
}

function hasPrefix(bytes: Uint8Array, range: Range): boolean {
  for (let bit = 0; bit < range.bits; bit += 8) {
    const index = bit / 8;
    const remaining = Math.min(8, range.bits - bit);
    const mask = (0xff << (8 - remaining)) & 0xff;
    if (((bytes[index] ?? 0) & mask) !== ((range.prefix[index] ?? 0) & mask)) return false;
  }
  return true;
}
