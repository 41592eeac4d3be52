import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { classifyAddress } from './classify-address.js';

describe('classifyAddress', () => {
  it.each([
    ['8.8.8.8', 'public'],
    ['1.1.1.1', 'public'],
    ['172.32.0.1', 'public'],
    ['100.128.0.1', 'public'],
    ['127.0.0.1', 'loopback'],
    ['127.255.255.254', 'loopback'],
    ['10.0.0.1', 'private'],
    ['10.255.255.255', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.1.1', 'private'],
    ['169.254.1.1', 'link-local'],
    ['169.254.169.254', 'cloud-metadata'],
    ['169.254.170.2', 'cloud-metadata'],
    ['100.100.100.200', 'cloud-metadata'],
    ['100.64.0.1', 'carrier-grade-nat'],
    ['100.127.255.255', 'carrier-grade-nat'],
    ['0.0.0.0', 'unspecified'],
    ['0.1.2.3', 'reserved'],
    ['224.0.0.1', 'multicast'],
    ['239.255.255.250', 'multicast'],
    ['255.255.255.255', 'reserved'],
    ['198.18.0.1', 'reserved'],
    ['2606:4700:4700::1111', 'public'],
    ['::1', 'loopback'],
    ['[::1]', 'loopback'],
    ['::', 'unspecified'],
    ['fe80::1', 'link-local'],
    ['fe80::1%eth0', 'link-local'],
    ['febf::1', 'link-local'],
    ['fec0::1', 'private'],
    ['fc00::1', 'unique-local'],
    ['fdff:ffff::1', 'unique-local'],
    ['fd00:ec2::254', 'cloud-metadata'],
    ['ff02::1', 'multicast'],
    ['2001:db8::1', 'reserved'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:7f00:1', 'loopback'],
    ['::ffff:10.1.2.3', 'private'],
    ['::ffff:169.254.169.254', 'cloud-metadata'],
    ['::ffff:8.8.8.8', 'public'],
    ['::10.0.0.1', 'private'],
    ['64:ff9b::192.168.0.1', 'private'],
    ['2002:0a00:0001::1', 'private'],
    ['2002:0808:0808::1', 'public'],
  ])('%s is %s', (address, category) => {
    expect(classifyAddress(address)).toBe(category);
  });

  it('returns undefined for host names and malformed literals', () => {
    expect(classifyAddress('api.example.com')).toBeUndefined();
    expect(classifyAddress('10.0.0')).toBeUndefined();
    expect(classifyAddress('0x7f.1')).toBeUndefined();
    expect(classifyAddress('::ffff::1')).toBeUndefined();
  });

  it('gives an IPv4-mapped IPv6 address the category of its IPv4 address, in dotted and hexadecimal form', () => {
    fc.assert(
      fc.property(fc.ipV4(), (ipv4) => {
        const [a = 0, b = 0, c = 0, d = 0] = ipv4.split('.').map(Number);
        const hex = `::ffff:${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
        const expected = classifyAddress(ipv4);
        return classifyAddress(`::ffff:${ipv4}`) === expected && classifyAddress(hex) === expected;
      }),
    );
  });

  it.each([
    ['::ffff:0:127.0.0.1', 'loopback'],
    ['::ffff:0:10.0.0.1', 'private'],
    ['::ffff:0:169.254.169.254', 'cloud-metadata'],
    ['::ffff:0:a9fe:a9fe', 'cloud-metadata'],
    ['::ffff:0:8.8.8.8', 'public'],
    ['64:ff9b:1::10.0.0.1', 'private'],
    ['2001:4860:1:2:0:5efe:10.0.0.1', 'private'],
    ['2606:4700::200:5efe:7f00:1', 'loopback'],
  ])('judges %s (an IPv4-translated, local NAT64 or ISATAP form) by its embedded address: %s', (address, category) => {
    expect(classifyAddress(address)).toBe(category);
  });

  it('gives every IPv6 form that embeds an IPv4 address the category of that address when it is restricted', () => {
    const hex = (ipv4: string): string => {
      const [a = 0, b = 0, c = 0, d = 0] = ipv4.split('.').map(Number);
      return `${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
    };
    const forms: readonly ((ipv4: string) => string)[] = [
      (ipv4) => `::ffff:${ipv4}`,
      (ipv4) => `::ffff:0:${ipv4}`,
      (ipv4) => `::ffff:0:${hex(ipv4)}`,
      (ipv4) => `64:ff9b::${ipv4}`,
      (ipv4) => `64:ff9b:1::${ipv4}`,
      (ipv4) => `2002:${hex(ipv4)}::1`,
      (ipv4) => `2001:4860:1:2:0:5efe:${ipv4}`,
      (ipv4) => `2001:4860:1:2:200:5efe:${hex(ipv4)}`,
    ];
    fc.assert(
      fc.property(fc.ipV4(), fc.constantFrom(...forms), (ipv4, form) => {
        const expected = classifyAddress(ipv4);
        if (expected === 'public') return true;
        return classifyAddress(form(ipv4)) === expected;
      }),
      { numRuns: 3000 },
    );
  });
});
