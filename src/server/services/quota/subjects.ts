import { createHmac } from "node:crypto";
import { isIPv4, isIPv6 } from "node:net";
import { FREE_DAILY_SEARCHES } from "#src/contract/quota.ts";
import type { UsageSubjectKind } from "#db/schema.ts";
import type { Owner } from "../owner.ts";

/** One counter a search is charged to: a `daily_usage` row's kind and key, and how far it may go. */
export type Subject = { kind: UsageSubjectKind; key: string; limit: number };

/**
 * How far the free tier stretches on one network (ADR 015). A visitor or an account gets the
 * spec's 5 a day; the network they come from has two larger pools, so clearing cookies or
 * registering accounts runs out at a small multiple of 5, while one heavy user takes at most 5
 * from a pool that everyone behind the same address shares.
 */
export type FreeTierPolicy = {
  /** Searches a day shared by anonymous visitors and accounts on their first day, per network. */
  networkSearches: number;
  /** Searches a day shared by free accounts older than a day, per network. */
  memberSearches: number;
  /** New accounts a day per network. */
  registrations: number;
  /**
   * Attempts to register per network in REGISTRATION_ATTEMPT_WINDOW_MS, whatever their outcome:
   * each one can ask whether a username exists (ADR 026).
   */
  registrationAttempts: number;
};

export const defaultFreeTierPolicy: FreeTierPolicy = { networkSearches: 25, memberSearches: 50, registrations: 3, registrationAttempts: 10 };

/** The window registration attempts are counted in. */
export const REGISTRATION_ATTEMPT_WINDOW_MS = 10 * 60_000;

/** An account this young draws on its network's newcomer pool, like an anonymous visitor. */
export const NEWCOMER_MS = 24 * 60 * 60 * 1000;

/** The pools a network has, each its own `daily_usage` row (kind "ip"). */
type NetworkPool = "newcomers" | "members" | "registrations";

/**
 * The keyed hash of a network's pool on a day. The address is never stored; the day is part of
 * the hash so one day's keys cannot be linked to another's. The newcomer pool's input has no
 * pool name, so the rows already counted for a network keep their keys across an upgrade.
 */
export function networkKey(ipKey: Buffer, pool: NetworkPool, day: string, ip: string): string {
  const input = pool === "newcomers" ? `${day}|${networkOf(ip)}` : `${pool}|${day}|${networkOf(ip)}`;
  return createHmac("sha256", ipKey).update(input).digest("base64url");
}

/**
 * What a free search is counted against. Anonymous: the visitor's id (5) and the network's
 * newcomer pool. Signed in: the account (5) and the network's newcomer pool while the account is
 * new, its member pool after that.
 */
export function subjectsOf(caller: { owner: Owner; ip: string; newcomer: boolean }, day: string, ipKey: Buffer, policy: FreeTierPolicy): Subject[] {
  const { owner, ip, newcomer } = caller;
  const own: Subject = owner.userId
    ? { kind: "user", key: owner.userId, limit: FREE_DAILY_SEARCHES }
    : { kind: "anon", key: owner.anonymousId, limit: FREE_DAILY_SEARCHES };
  const pool: Subject =
    newcomer || !owner.userId
      ? { kind: "ip", key: networkKey(ipKey, "newcomers", day, ip), limit: policy.networkSearches }
      : { kind: "ip", key: networkKey(ipKey, "members", day, ip), limit: policy.memberSearches };
  return [own, pool];
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
  return `${all
    .slice(0, 4)
    .map((g) => parseInt(g, 16).toString(16))
    .join(":")}::/64`;
}
