import { isIPv4, isIPv6 } from 'node:net';

/** IPv4 ranges that are not public unicast (RFC 6890 special-purpose, private, shared, multicast, reserved). */
const V4_BLOCKED: ReadonlyArray<[number, number]> = [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.88.99.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
].map(([base, bits]) => [v4ToInt(base as string), bits as number]);

function v4ToInt(address: string): number {
  return address.split('.').reduce((n, part) => n * 256 + Number(part), 0);
}

function v4Public(address: string): boolean {
  const n = v4ToInt(address);
  return !V4_BLOCKED.some(([base, bits]) => Math.floor(n / 2 ** (32 - bits)) === Math.floor(base / 2 ** (32 - bits)));
}

/** Parses an IPv6 literal (with optional embedded IPv4 tail) into 8 groups; undefined when malformed. */
export function parseIPv6(address: string): number[] | undefined {
  let text = address.replace(/^\[|\]$/g, '').split('%')[0]!;
  const tail = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (tail) {
    if (!isIPv4(tail[1]!)) return undefined;
    const n = v4ToInt(tail[1]!);
    text = `${text.slice(0, -tail[1]!.length)}${(n >>> 16).toString(16)}:${(n & 0xffff).toString(16)}`;
  }
  const halves = text.split('::');
  if (halves.length > 2) return undefined;
  const parse = (s: string) =>
    s === '' ? [] : s.split(':').map((g) => (/^[0-9a-f]{1,4}$/i.test(g) ? Number.parseInt(g, 16) : Number.NaN));
  const head = parse(halves[0]!);
  const rest = halves.length === 2 ? parse(halves[1]!) : [];
  const fill = 8 - head.length - rest.length;
  if (halves.length === 1 ? fill !== 0 : fill < 1) return undefined;
  const groups = [...head, ...new Array<number>(halves.length === 2 ? fill : 0).fill(0), ...rest];
  return groups.some(Number.isNaN) ? undefined : groups;
}

/** The IPv4 address hidden in an IPv4-mapped (::ffff:a.b.c.d) or IPv4-compatible (::a.b.c.d) IPv6 address. */
export function embeddedIPv4(groups: readonly number[]): string | undefined {
  const zeroHead = groups.slice(0, 5).every((g) => g === 0);
  if (!zeroHead || (groups[5] !== 0xffff && groups[5] !== 0)) return undefined;
  if (groups[5] === 0 && groups[6] === 0 && groups[7]! <= 1) return undefined; // :: and ::1 are not IPv4
  return `${groups[6]! >> 8}.${groups[6]! & 0xff}.${groups[7]! >> 8}.${groups[7]! & 0xff}`;
}

function v6Public(groups: readonly number[]): boolean {
  const [g0, g1] = groups as [number, number];
  if ((g0 & 0xe000) !== 0x2000) return false; // only 2000::/3 is global unicast
  if (g0 === 0x2001 && g1 < 0x200) return false; // 2001::/23 IETF protocol assignments (Teredo, ORCHID, …)
  if (g0 === 0x2001 && g1 === 0x0db8) return false; // documentation
  if (g0 === 0x2002) return false; // 6to4 tunnels an IPv4 address of unknown standing
  if (g0 === 0x3fff && g1 < 0x1000) return false; // documentation (RFC 9637)
  return true;
}

/** True only for a public unicast address; mapped and compatible IPv6 forms are judged by their IPv4 address. */
export function isPublicAddress(address: string): boolean {
  if (isIPv4(address)) return v4Public(address);
  if (!isIPv6(address)) return false;
  const groups = parseIPv6(address);
  if (!groups) return false;
  const v4 = embeddedIPv4(groups);
  if (v4 !== undefined) return v4Public(v4);
  if (groups[0] === 0x64 && groups[1] === 0xff9b) return false; // NAT64 reaches arbitrary IPv4
  return v6Public(groups);
}
