/**
 * The client a per-IP rate window counts (shared/domain/clientNetwork.ts): IPv4 by its address,
 * IPv6 by its /64 whatever its textual form, IPv4-mapped IPv6 as the IPv4 it maps.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { clientNetwork } from '../../shared/domain/clientNetwork';

const group = fc.integer({ min: 0, max: 0xffff });
const groups = fc.array(group, { minLength: 8, maxLength: 8 });

/** Every textual form of one IPv6 address: padded, unpadded, upper case, any run of zeros as `::`. */
function forms(g: number[]): string[] {
  const padded = g.map((n) => n.toString(16).padStart(4, '0'));
  const bare = g.map((n) => n.toString(16));
  const out = [padded.join(':'), bare.join(':'), padded.join(':').toUpperCase()];
  for (let start = 0; start < 8; start++) {
    for (let end = start + 1; end <= 8 && g.slice(start, end).every((n) => n === 0); end++) {
      out.push(`${bare.slice(0, start).join(':')}::${bare.slice(end).join(':')}`);
    }
  }
  return out;
}

describe('clientNetwork', () => {
  it('keys IPv4 by its address', () => {
    expect(clientNetwork('203.0.113.9')).toBe('203.0.113.9');
  });

  it('keys IPv6 by its /64, expanded, lower case, without leading zeros', () => {
    expect(clientNetwork('2001:DB8::1')).toBe('2001:db8:0:0::/64');
    expect(clientNetwork('2001:0db8:0000:0001:ffff:ffff:ffff:ffff')).toBe('2001:db8:0:1::/64');
    expect(clientNetwork('::1')).toBe('0:0:0:0::/64');
    expect(clientNetwork('fe80::1%eth0')).toBe('fe80:0:0:0::/64');
    expect(clientNetwork('[2001:db8::5]')).toBe('2001:db8:0:0::/64');
  });

  it('keys an IPv4-mapped IPv6 address as the IPv4 client, in either notation', () => {
    expect(clientNetwork('::ffff:203.0.113.9')).toBe('203.0.113.9');
    expect(clientNetwork('::FFFF:cb00:7109')).toBe('203.0.113.9');
    expect(clientNetwork('0:0:0:0:0:ffff:203.0.113.9')).toBe('203.0.113.9');
    // NAT64 keeps its /64: it is not a mapped address.
    expect(clientNetwork('64:ff9b::203.0.113.9')).toBe('64:ff9b:0:0::/64');
  });

  it('gives every textual form of an address the same key', () => {
    fc.assert(
      fc.property(groups, (g) => {
        const keys = new Set(forms(g).map(clientNetwork));
        expect(keys.size).toBe(1);
      }),
    );
  });

  it('puts two addresses in one window exactly when they share their first 64 bits', () => {
    fc.assert(
      fc.property(groups, groups, fc.boolean(), (a, b, samePrefix) => {
        fc.pre(!(a[0] === 0 && a[1] === 0 && a[2] === 0 && a[3] === 0 && a[4] === 0 && a[5] === 0xffff));
        const other = samePrefix ? [...a.slice(0, 4), ...b.slice(4)] : b;
        fc.pre(
          !(
            other[0] === 0 &&
            other[1] === 0 &&
            other[2] === 0 &&
            other[3] === 0 &&
            other[4] === 0 &&
            other[5] === 0xffff
          ),
        );
        const same = other.slice(0, 4).every((n, i) => n === a[i]);
        expect(clientNetwork(forms(a)[0]!) === clientNetwork(forms(other)[1]!)).toBe(same);
      }),
    );
  });

  it('keeps what is not an address as one client of its own', () => {
    expect(clientNetwork('unknown')).toBe('unknown');
    expect(clientNetwork('1:2:3')).toBe('1:2:3');
  });
});
