import { isIPv4, isIPv6 } from 'node:net';

/** An IP address as its network-order bytes (4 for IPv4, 16 for IPv6). */
export interface ParsedIpAddress {
  readonly family: 4 | 6;
  readonly bytes: Uint8Array;
}

/**
 * Parses an IPv4 or IPv6 literal (brackets and an IPv6 zone id are accepted and dropped).
 * Returns `undefined` for anything that is not an IP literal, such as a host name.
 */
export function parseIpAddress(text: string): ParsedIpAddress | undefined {
  let candidate = text.startsWith('[') && text.endsWith(']') ? text.slice(1, -1) : text;
  const zoneIndex = candidate.indexOf('%');
  if (zoneIndex !== -1) candidate = candidate.slice(0, zoneIndex);
  if (isIPv4(candidate)) return { family: 4, bytes: Uint8Array.from(candidate.split('.'), Number) };
  if (isIPv6(candidate)) return { family: 6, bytes: parseIpv6(candidate) };
  return undefined;
}

function parseIpv6(text: string): Uint8Array {
  let normalized = text;
  const lastColon = text.lastIndexOf(':');
  if (text.includes('.', lastColon)) {
    // An embedded dotted IPv4 tail (`::ffff:10.0.0.1`) becomes two hexadecimal groups.
    const [a = 0, b = 0, c = 0, d = 0] = text.slice(lastColon + 1).split('.').map(Number);
    normalized = `${text.slice(0, lastColon + 1)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [left = '', right] = normalized.split('::');
  const leftGroups = left === '' ? [] : left.split(':');
  const rightGroups = right === undefined || right === '' ? [] : right.split(':');
  const filler = right === undefined ? 0 : 8 - leftGroups.length - rightGroups.length;
  const groups = [...leftGroups, ...Array<string>(filler).fill('0'), ...rightGroups];
  const bytes = new Uint8Array(16);
  groups.forEach((group, index) => {
    const value = Number.parseInt(group, 16);
    bytes[index * 2] = value >> 8;
    bytes[index * 2 + 1] = value & 0xff;
  });
  return bytes;
}
