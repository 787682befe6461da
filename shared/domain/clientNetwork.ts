/**
 * Which client a per-IP rate window counts (docs/api.md, “Rate limits”: public operations, probes, the
 * fallback). The address is the one API Gateway saw the connection come from
 * (`requestContext.identity.sourceIp`; the local edge fills it from the socket), never a header a
 * client can write such as `X-Forwarded-For`. An IPv4 client is its address. An IPv6 client is its
 * /64: one subscriber or host usually holds a whole /64 and can pick any address in it, so counting
 * single addresses would give it 2⁶⁴ windows. An IPv4-mapped IPv6 address (`::ffff:192.0.2.1`) is
 * the IPv4 client it maps.
 */

/** The eight 16-bit groups of an IPv6 address in any textual form, or undefined if it is not one. */
function hextets(address: string): number[] | undefined {
  let text = address;
  // A dotted IPv4 tail (`::ffff:192.0.2.1`, `64:ff9b::192.0.2.1`) is the last two groups.
  const dotted = /(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(text);
  if (dotted) {
    const b = dotted.slice(1).map(Number);
    if (b.some((n) => n > 255)) return undefined;
    text = `${text.slice(0, dotted.index)}${((b[0]! << 8) | b[1]!).toString(16)}:${((b[2]! << 8) | b[3]!).toString(16)}`;
  }
  const halves = text.split('::');
  if (halves.length > 2) return undefined;
  const head = halves[0] ? halves[0].split(':') : [];
  const tail = halves.length === 2 && halves[1] ? halves[1].split(':') : [];
  const missing = 8 - head.length - tail.length;
  if (halves.length === 1 ? missing !== 0 : missing < 1) return undefined;
  const groups = [...head, ...Array<string>(halves.length === 2 ? missing : 0).fill('0'), ...tail];
  if (!groups.every((g) => /^[0-9a-f]{1,4}$/.test(g))) return undefined;
  return groups.map((g) => parseInt(g, 16));
}

/**
 * The rate-window key of a source address: `192.0.2.1` for IPv4 (mapped or not),
 * `2001:db8:0:1::/64` for IPv6 (groups without leading zeros, lower case). Anything else is kept
 * as given (trimmed, lower case): it still counts as one client.
 */
export function clientNetwork(sourceIp: string): string {
  const address = sourceIp
    .trim()
    .toLowerCase()
    .replace(/^\[(.*)\]$/, '$1')
    .replace(/%.*$/, '');
  if (!address.includes(':')) return address;
  const groups = hextets(address);
  if (!groups) return address;
  if (groups.slice(0, 5).every((g) => g === 0) && groups[5] === 0xffff) {
    return [groups[6]! >> 8, groups[6]! & 0xff, groups[7]! >> 8, groups[7]! & 0xff].join('.');
  }
  return `${groups
    .slice(0, 4)
    .map((g) => g.toString(16))
    .join(':')}::/64`;
}
