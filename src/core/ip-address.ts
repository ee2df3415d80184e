/*
 * IP addresses as bytes, not strings: one address has many spellings (`127.0.0.1`, `127.1`,
 * `0x7f000001`, `[::ffff:7f00:1]`, `[::ffff:127.0.0.1]`…), and a check that reads the text misses
 * some of them. An IPv6 address that carries an IPv4 one (mapped, compatible, SIIT, NAT64, 6to4,
 * Teredo) reaches that IPv4 host, so it is judged by the IPv4 address it carries.
 */

export type IpAddress = { family: 4 | 6; bytes: Uint8Array };

/**
 * The address written in `text` (brackets around IPv6 allowed), or null when it is not one. IPv4
 * in the forms a URL's host takes (WHATWG): one to four parts, decimal, octal (`0177`) or hex
 * (`0x7f`), a trailing dot. IPv6 full, compressed, or ending in a dotted IPv4; a zone id
 * (`fe80::1%lo`) is refused.
 */
export function parseIpAddress(text: string): IpAddress | null {
  const bracketed = /^\[(.*)\]$/.exec(text);
  const inner = bracketed ? bracketed[1]! : text;
  const v6 = inner.includes(":") ? parseIPv6(inner) : null;
  if (v6) return { family: 6, bytes: v6 };
  const v4 = bracketed ? null : parseIPv4(inner);
  return v4 ? { family: 4, bytes: v4 } : null;
}

/**
 * Whether the address is global unicast: one a webhook may be posted to. IPv4 outside the
 * special-purpose blocks (private, loopback, link-local, shared, documentation, benchmarking,
 * multicast, reserved); IPv6 in 2000::/3 outside documentation and benchmarking, and an IPv6
 * address that carries an IPv4 one only when that IPv4 address is global.
 */
export function isGlobalUnicast({ family, bytes }: IpAddress): boolean {
  if (family === 4) return !NOT_GLOBAL_V4.some((block) => inBlock(bytes, block));
  const carried = carriedIPv4(bytes);
  if (carried) return isGlobalUnicast({ family: 4, bytes: carried });
  return (bytes[0]! & 0xe0) === 0x20 && !NOT_GLOBAL_V6.some((block) => inBlock(bytes, block));
}

/**
 * The IPv4 address an IPv6 address stands for, or null: IPv4-mapped (::ffff:0:0/96),
 * IPv4-compatible (::/96, but :: and ::1), SIIT (::ffff:0:0:0/96), NAT64 (64:ff9b::/96), 6to4
 * (2002::/16, bytes 2–5) and Teredo (2001::/32, the client's address in the last 4 bytes, inverted).
 */
export function carriedIPv4(bytes: Uint8Array): Uint8Array | null {
  if (bytes.length !== 16) return null;
  const zero = (from: number, to: number) => bytes.subarray(from, to).every((byte) => byte === 0);
  const last = bytes.slice(12);
  if (zero(0, 10) && bytes[10] === 0xff && bytes[11] === 0xff) return last;
  if (zero(0, 12) && !(zero(12, 15) && bytes[15]! <= 1)) return last;
  if (zero(0, 8) && bytes[8] === 0xff && bytes[9] === 0xff && zero(10, 12)) return last;
  if (bytes[0] === 0x00 && bytes[1] === 0x64 && bytes[2] === 0xff && bytes[3] === 0x9b && zero(4, 12)) return last;
  if (bytes[0] === 0x20 && bytes[1] === 0x02) return bytes.slice(2, 6);
  if (bytes[0] === 0x20 && bytes[1] === 0x01 && zero(2, 4)) return last.map((byte) => byte ^ 0xff);
  return null;
}

/** The dotted form of 4 bytes. */
export function formatIPv4(bytes: Uint8Array): string {
  return Array.from(bytes).join(".");
}

/** IPv4 as a URL's host parser reads it (WHATWG): "127.1", "0x7f000001", "0177.0.0.1", "127.0.0.1." are all 127.0.0.1. */
export function parseIPv4(text: string): Uint8Array | null {
  const parts = text.split(".");
  if (parts.length > 1 && parts.at(-1) === "") parts.pop();
  if (parts.length === 0 || parts.length > 4) return null;
  const numbers = parts.map(ipv4Number);
  if (numbers.some((n) => n === null)) return null;
  const values = numbers as number[];
  const lastValue = values.pop()!;
  if (values.some((n) => n > 255) || lastValue >= 256 ** (4 - values.length)) return null;
  const bytes = new Uint8Array(4);
  values.forEach((n, i) => {
    bytes[i] = n;
  });
  for (let i = 3, rest = lastValue; i >= values.length; i--, rest = Math.floor(rest / 256)) bytes[i] = rest % 256;
  return bytes;
}

/** 16 bytes, or null: eight groups of up to four hex digits, one `::` for a run of zero groups, the last 32 bits possibly as a dotted IPv4 address. */
export function parseIPv6(text: string): Uint8Array | null {
  if (!/^[0-9a-f:.]+$/i.test(text)) return null;
  const halves = text.split("::");
  if (halves.length > 2) return null;
  const head = groupsOf(halves[0]!, halves.length === 1);
  const tail = halves.length === 2 ? groupsOf(halves[1]!, true) : [];
  if (!head || !tail) return null;
  if (halves.length === 1 ? head.length !== 8 : head.length + tail.length > 7) return null;
  const groups = [...head, ...Array<number>(8 - head.length - tail.length).fill(0), ...tail];
  const bytes = new Uint8Array(16);
  groups.forEach((group, i) => {
    bytes[2 * i] = group >> 8;
    bytes[2 * i + 1] = group & 0xff;
  });
  return bytes;
}

/** A half of an IPv6 address as 16-bit groups; a dotted IPv4 address only at the very end. */
function groupsOf(half: string, endsAddress: boolean): number[] | null {
  if (half === "") return [];
  const parts = half.split(":");
  const groups: number[] = [];
  for (const [i, part] of parts.entries()) {
    if (endsAddress && i === parts.length - 1 && part.includes(".")) {
      const v4 = dottedQuad(part);
      if (!v4) return null;
      groups.push((v4[0]! << 8) | v4[1]!, (v4[2]! << 8) | v4[3]!);
    } else if (/^[0-9a-f]{1,4}$/i.test(part)) groups.push(Number.parseInt(part, 16));
    else return null;
  }
  return groups;
}

/** Strict dotted decimal, as inside IPv6: four parts of 0–255 without leading zeros. */
function dottedQuad(text: string): Uint8Array | null {
  const parts = text.split(".");
  if (parts.length !== 4 || !parts.every((part) => /^(0|[1-9]\d{0,2})$/.test(part) && Number(part) <= 255)) return null;
  return Uint8Array.from(parts.map(Number));
}

/** A part of an IPv4 address: decimal, octal after a leading 0, hex after 0x (empty is 0). */
function ipv4Number(part: string): number | null {
  if (part === "") return null;
  const hex = /^0x([0-9a-f]*)$/i.exec(part);
  if (hex) return hex[1] === "" ? 0 : Number.parseInt(hex[1]!, 16);
  if (/^0[0-7]+$/.test(part)) return Number.parseInt(part, 8);
  if (/^(0|[1-9]\d*)$/.test(part)) return Number(part);
  return null;
}

type Block = { bytes: Uint8Array; bits: number };

function block(prefix: string, bits: number): Block {
  return { bytes: parseIpAddress(prefix)!.bytes, bits };
}

function inBlock(bytes: Uint8Array, { bytes: prefix, bits }: Block): boolean {
  if (bytes.length !== prefix.length) return false;
  for (let i = 0; i * 8 < bits; i++) {
    const mask = bits - i * 8 >= 8 ? 0xff : (0xff << (8 - (bits - i * 8))) & 0xff;
    if ((bytes[i]! & mask) !== (prefix[i]! & mask)) return false;
  }
  return true;
}

/** IPv4 blocks that are not global unicast (IANA's special-purpose registry, RFC 6890 and later). */
const NOT_GLOBAL_V4: readonly Block[] = [
  block("0.0.0.0", 8), // "this network"
  block("10.0.0.0", 8), // private
  block("100.64.0.0", 10), // shared (carrier-grade NAT)
  block("127.0.0.0", 8), // loopback
  block("169.254.0.0", 16), // link-local, cloud metadata
  block("172.16.0.0", 12), // private
  block("192.0.0.0", 24), // IETF protocol assignments
  block("192.0.2.0", 24), // documentation
  block("192.88.99.0", 24), // 6to4 relay anycast
  block("192.168.0.0", 16), // private
  block("198.18.0.0", 15), // benchmarking
  block("198.51.100.0", 24), // documentation
  block("203.0.113.0", 24), // documentation
  block("224.0.0.0", 4), // multicast
  block("240.0.0.0", 4), // reserved, and 255.255.255.255
];

/** Blocks inside 2000::/3 that are not global unicast; outside 2000::/3 nothing is. */
const NOT_GLOBAL_V6: readonly Block[] = [
  block("2001:2::", 48), // benchmarking
  block("2001:10::", 28), // ORCHID (deprecated)
  block("2001:db8::", 32), // documentation
  block("3fff::", 20), // documentation
];
