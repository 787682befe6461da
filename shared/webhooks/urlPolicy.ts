/**
 * Where webhooks may go. Deployed stages send only over https on port 443 and only to public
 * addresses: the host is resolved and every address must be outside the private, loopback,
 * link-local (cloud metadata at 169.254.169.254), CGNAT, unique-local IPv6, multicast and reserved
 * ranges. An IPv6 address that carries an IPv4 address (IPv4-compatible and -mapped, SIIT, NAT64,
 * 6to4, Teredo) is judged by the IPv4 addresses it carries. The local stage also accepts loopback
 * and any port, and http to loopback only. Checked when a URL is registered and again on every
 * send, at connection time (guardedLookup), because DNS answers change.
 */
import { lookup } from 'node:dns/promises';
import { lookup as lookupCallback } from 'node:dns';
import { BlockList, isIP, type LookupFunction } from 'node:net';
import type { Stage } from '../config';

/** The ranges that are not public, each with the name a refusal gives it (never the address itself). */
const ranges: readonly (readonly [range: string, network: string, prefix: number, family: 'ipv4' | 'ipv6'])[] = [
  ['"this network"', '0.0.0.0', 8, 'ipv4'],
  ['private', '10.0.0.0', 8, 'ipv4'],
  ['shared (CGNAT)', '100.64.0.0', 10, 'ipv4'], // and some clouds' metadata, 100.100.100.200
  ['loopback', '127.0.0.0', 8, 'ipv4'],
  ['link-local', '169.254.0.0', 16, 'ipv4'], // instance metadata 169.254.169.254, ECS 169.254.170.2
  ['private', '172.16.0.0', 12, 'ipv4'],
  ['reserved', '192.0.0.0', 24, 'ipv4'],
  ['documentation', '192.0.2.0', 24, 'ipv4'],
  ['reserved', '192.88.99.0', 24, 'ipv4'],
  ['private', '192.168.0.0', 16, 'ipv4'],
  ['benchmarking', '198.18.0.0', 15, 'ipv4'],
  ['documentation', '198.51.100.0', 24, 'ipv4'],
  ['documentation', '203.0.113.0', 24, 'ipv4'],
  ['multicast', '224.0.0.0', 4, 'ipv4'],
  ['reserved', '240.0.0.0', 4, 'ipv4'], // and broadcast
  ['local-use NAT64', '64:ff9b:1::', 48, 'ipv6'], // RFC 8215: where it puts the IPv4 address is the network's choice, and it is never public
  ['discard-only', '100::', 64, 'ipv6'],
  ['documentation', '2001:db8::', 32, 'ipv6'],
  ['unique-local', 'fc00::', 7, 'ipv6'], // incl. the EC2 metadata address fd00:ec2::254
  ['link-local', 'fe80::', 10, 'ipv6'],
  ['multicast', 'ff00::', 8, 'ipv6'],
];
const blockOf = (entries: typeof ranges) => {
  const list = new BlockList();
  for (const [, network, prefix, family] of entries) list.addSubnet(network, prefix, family);
  return list;
};
const notPublic = blockOf(ranges);
const namedRanges = [...new Set(ranges.map(([range]) => range))].map(
  (range) => [range, blockOf(ranges.filter(([r]) => r === range))] as const,
);

/** The eight 16-bit groups of an IPv6 address (`isIP` says it is one; a zone id is dropped). */
function ipv6Groups(address: string): number[] {
  let text = address.split('%')[0]!;
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted.slice(1).map(Number) as [number, number, number, number];
    text = `${text.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [left, right] = text.split('::') as [string, string | undefined];
  const head = left ? left.split(':') : [];
  const tail = right ? right.split(':') : [];
  const gap = right === undefined ? [] : Array<string>(8 - head.length - tail.length).fill('0');
  return [...head, ...gap, ...tail].map((group) => parseInt(group, 16));
}

const ipv4Of = (high: number, low: number) => [high >> 8, high & 0xff, low >> 8, low & 0xff].join('.');

/**
 * The IPv4 addresses an IPv6 address carries, by its prefix, or undefined for a plain IPv6 address:
 * IPv4-compatible `::/96` (also `::` and `::1`, which carry 0.0.0.0 and 0.0.0.1), IPv4-mapped
 * `::ffff:0:0/96`, IPv4-translated (SIIT) `::ffff:0:0:0/96`, NAT64 `64:ff9b::/96`, 6to4
 * `2002::/16`, and Teredo `2001::/32` (its server, and its client, stored inverted).
 */
function embeddedIpv4(address: string): string[] | undefined {
  const g = ipv6Groups(address);
  const zero = (from: number, to: number) => g.slice(from, to).every((x) => x === 0);
  if (zero(0, 6) || (zero(0, 5) && g[5] === 0xffff) || (zero(0, 4) && g[4] === 0xffff && g[5] === 0))
    return [ipv4Of(g[6]!, g[7]!)];
  if (g[0] === 0x64 && g[1] === 0xff9b && zero(2, 6)) return [ipv4Of(g[6]!, g[7]!)];
  if (g[0] === 0x2002) return [ipv4Of(g[1]!, g[2]!)];
  if (g[0] === 0x2001 && g[1] === 0) return [ipv4Of(g[2]!, g[3]!), ipv4Of(~g[6]! & 0xffff, ~g[7]! & 0xffff)];
  return undefined;
}

const loopback = new BlockList();
loopback.addSubnet('127.0.0.0', 8, 'ipv4');
loopback.addAddress('::1', 'ipv6');

const familyOf = (address: string) => (isIP(address) === 6 ? 'ipv6' : 'ipv4');
const isLoopback = (address: string) => isIP(address) !== 0 && loopback.check(address, familyOf(address));

/** Whether an address is public: an IPv4 address outside the ranges above; an IPv6 one outside them, or carrying only public IPv4 addresses. */
function isPublic(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return !notPublic.check(address, 'ipv4');
  if (family !== 6) return false;
  const carried = embeddedIpv4(address);
  if (carried) return carried.every((v4) => !notPublic.check(v4, 'ipv4'));
  return !notPublic.check(address.split('%')[0]!, 'ipv6');
}

/** The name of the refused range an address is in ("private", "loopback", "link-local", …), never the address. */
function rangeOf(address: string): string {
  if (isLoopback(address)) return 'loopback';
  const family = isIP(address);
  const candidates = family === 6 ? (embeddedIpv4(address) ?? [address.split('%')[0]!]) : [address];
  for (const candidate of candidates) {
    if (isLoopback(candidate)) return 'loopback';
    const found = namedRanges.find(([, list]) => list.check(candidate, familyOf(candidate)));
    if (found) return found[0];
  }
  return 'non-public';
}

/** Which addresses a URL may connect to on a stage. */
export function addressPolicy(url: URL, stage: Stage): (address: string) => boolean {
  if (stage !== 'local') return isPublic;
  return url.protocol === 'http:' ? isLoopback : (a) => isPublic(a) || isLoopback(a);
}

/** Why the URL's form is refused (scheme, port, credentials), or undefined. No I/O. */
export function formRefusal(url: URL, stage: Stage): string | undefined {
  const schemes = stage === 'local' ? ['https:', 'http:'] : ['https:'];
  if (!schemes.includes(url.protocol))
    return stage === 'local' ? 'must be an https URL, or http to loopback' : 'must be an https URL';
  // A receiver listens on 443; another port is how a URL reaches an admin or internal service on a public address.
  if (stage !== 'local' && url.port !== '') return 'must use port 443 (leave the port out)';
  // The URL is shown in answers and alerts; a receiver authenticates us by the signature instead.
  if (url.username || url.password) return 'must not contain credentials';
  return undefined;
}

/** The host of a URL without the brackets of an IPv6 literal. */
export const hostOf = (url: URL) => url.hostname.replace(/^\[(.*)\]$/, '$1');

export type Resolve = (host: string) => Promise<string[]>;

const resolveHost: Resolve = async (host) => (await lookup(host, { all: true, verbatim: true })).map((a) => a.address);

/** Why `raw` cannot receive webhooks on this stage, or undefined when it can. Resolves the host. */
export async function urlRefusal(
  raw: string,
  stage: Stage,
  resolve: Resolve = resolveHost,
): Promise<string | undefined> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return 'is not a URL';
  }
  const form = formRefusal(url, stage);
  if (form) return form;
  const host = hostOf(url);
  let addresses: string[];
  try {
    addresses = isIP(host) ? [host] : await resolve(host);
  } catch {
    return `host ${host} does not resolve`;
  }
  if (addresses.length === 0) return `host ${host} does not resolve`;
  const allowed = addressPolicy(url, stage);
  const refused = addresses.find((a) => !allowed(a));
  if (refused === undefined) return undefined;
  return url.protocol === 'http:' && isPublic(refused)
    ? 'may use http only to loopback; use https'
    : // The range, never the address: on a deployed stage the answer maps internal DNS names.
      `resolves to an address in a refused range (${rangeOf(refused)}), which is not a public address`;
}

/** The refusal of one address a send would connect to. */
const addressRefusal = (address: string) => `address ${address} is not allowed`;

/**
 * A DNS lookup for http(s).request that fails instead of answering a refused address, so the
 * address that is checked is the address that is connected to (no window for DNS rebinding).
 */
export function guardedLookup(allowed: (address: string) => boolean): LookupFunction {
  return (hostname, options, callback) => {
    lookupCallback(hostname, { ...options, all: true }, (err, addresses) => {
      if (err) return callback(err, '', 0);
      const refused = addresses.find((a) => !allowed(a.address));
      if (refused)
        return callback(Object.assign(new Error(addressRefusal(refused.address)), { code: 'EADDRNOTALLOWED' }), '', 0);
      if (options.all) return (callback as unknown as (e: null, all: typeof addresses) => void)(null, addresses);
      const [first] = addresses;
      if (!first)
        return callback(Object.assign(new Error(`${hostname} does not resolve`), { code: 'ENOTFOUND' }), '', 0);
      callback(null, first.address, first.family);
    });
  };
}
