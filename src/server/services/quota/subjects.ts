import { createHmac } from "node:crypto";
import { isIPv4, isIPv6 } from "node:net";
import type { UsageSubjectKind } from "#db/schema.ts";
import type { Owner } from "../owner.ts";

/** One counter a search is charged to: a `daily_usage` row's kind and key. */
export type Subject = { kind: UsageSubjectKind; key: string };

/**
 * What a free search is counted against. Signed in: the account. Anonymous: the anonymous id
 * AND the network it came from, so clearing cookies (a new anonymous id) does not reset the
 * count. The address is kept only as a keyed hash, and the day is part of the hash so the
 * stored keys cannot link one day's visitor to another's.
 */
export function subjectsOf(owner: Owner, ip: string, day: string, ipKey: Buffer): Subject[] {
  if (owner.userId) return [{ kind: "user", key: owner.userId }];
  return [
    { kind: "anon", key: owner.anonymousId },
    { kind: "ip", key: createHmac("sha256", ipKey).update(`${day}|${networkOf(ip)}`).digest("base64url") },
  ];
}

/** The salt for IP hashes, derived from SESSION_SECRET so there is one secret to keep. */
export function ipHashKey(secret: string): Buffer {
  return createHmac("sha256", secret).update("daily-usage ip hash v1").digest();
}

/**
 * The unit one household or phone gets. IPv4: the address. IPv6: its /64, which a single
 * connection is usually handed whole, so walking through its addresses does not mint new quota.
 */
export function networkOf(ip: string): string {
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(ip);
  if (mapped?.[1]) return mapped[1];
  if (isIPv4(ip) || !isIPv6(ip)) return ip;
  const [head = "", tail] = ip.toLowerCase().split("::");
  const groups = (part: string) => (part ? part.split(":").flatMap((g) => (g.includes(".") ? ["0", "0"] : [g])) : []);
  const left = groups(head);
  const right = tail === undefined ? [] : groups(tail);
  const all = tail === undefined ? left : [...left, ...Array<string>(8 - left.length - right.length).fill("0"), ...right];
  return `${all.slice(0, 4).map((g) => parseInt(g, 16).toString(16)).join(":")}::/64`;
}
