import { lookup } from "node:dns/promises";
import { isIP } from "node:net";
import { DomainError } from "../errors.ts";

/*
 * A tracker's webhook is a request our server makes to a URL its owner chose: without care, a way
 * to reach the machines beside it (the database, a cloud's metadata service at 169.254.169.254).
 * A URL whose host resolves to a private, loopback, link-local or otherwise internal address is
 * refused, when it is set and again before each delivery (a name can be pointed elsewhere in
 * between), unless the operator allows it (WEBHOOK_ALLOW_PRIVATE=1: self-hosting, tests). In
 * production only https is taken. Redirects are not followed (delivery.ts).
 */

export type WebhookPolicy = { allowPrivate: boolean; httpsOnly: boolean };

/** Throws INVALID_INPUT naming webhook.url when the URL may not be posted to. */
export async function checkWebhookUrl(url: string, policy: WebhookPolicy, resolve: (host: string) => Promise<string[]> = resolveHost): Promise<void> {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new DomainError("INVALID_INPUT", "webhook.url must be a URL");
  }
  if (parsed.protocol !== "https:" && (policy.httpsOnly || parsed.protocol !== "http:"))
    throw new DomainError("INVALID_INPUT", `webhook.url must start with https://${policy.httpsOnly ? "" : " (or http://)"}`);
  if (parsed.username || parsed.password) throw new DomainError("INVALID_INPUT", "webhook.url must not carry a user name or password");
  if (policy.allowPrivate) return;
  const host = parsed.hostname.replace(/^\[|\]$/g, "");
  let addresses: string[];
  try {
    addresses = isIP(host) ? [host] : await resolve(host);
  } catch {
    throw new DomainError("INVALID_INPUT", `webhook.url: its host ${host} could not be resolved`);
  }
  const internal = addresses.find(isInternalAddress);
  if (internal !== undefined)
    throw new DomainError(
      "INVALID_INPUT",
      `webhook.url: ${host} is a private, loopback or link-local address (${internal}); webhooks go to public addresses only here (WEBHOOK_ALLOW_PRIVATE)`,
    );
}

async function resolveHost(host: string): Promise<string[]> {
  return (await lookup(host, { all: true, verbatim: true })).map((entry) => entry.address);
}

/** Loopback, private (RFC 1918, unique local), link-local, shared (CGNAT), unspecified, multicast and reserved addresses, in IPv4 and IPv6 (IPv4-mapped included). */
export function isInternalAddress(address: string): boolean {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return isInternalAddress(mapped[1]!);
  if (isIP(address) === 4) {
    const [a, b] = address.split(".").map(Number) as [number, number, number, number];
    return (
      a === 0 ||
      a === 10 ||
      a === 127 ||
      (a === 100 && b >= 64 && b <= 127) ||
      (a === 169 && b === 254) ||
      (a === 172 && b >= 16 && b <= 31) ||
      (a === 192 && b === 168) ||
      (a === 192 && b === 0) ||
      (a === 198 && (b === 18 || b === 19)) ||
      a >= 224
    );
  }
  if (isIP(address) === 6) {
    const lower = address.toLowerCase();
    return lower === "::" || lower === "::1" || /^f[cd]/.test(lower) || /^fe[89ab]/.test(lower) || /^ff/.test(lower);
  }
  return true;
}
