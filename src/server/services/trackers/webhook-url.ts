import { lookup } from "node:dns/promises";
import { carriedIPv4, formatIPv4, isGlobalUnicast, parseIpAddress } from "#src/core/ip-address.ts";
import { DomainError } from "../errors.ts";

/*
 * A tracker's webhook is a request our server makes to a URL its owner chose: without care, a way
 * to reach the machines beside it (the database, a cloud's metadata service at 169.254.169.254).
 * Only global unicast addresses are taken, compared as bytes (src/core/ip-address.ts), so no
 * spelling of an internal address passes, IPv6 forms that carry an IPv4 address included. The
 * URL is checked when it is set and again at each delivery; there its host is resolved once, and
 * the connection goes to an address that was checked (a name that answers otherwise a moment
 * later changes nothing). The operator can allow internal addresses (WEBHOOK_ALLOW_PRIVATE=1:
 * self-hosting, tests). In production only https is taken. Redirects are not followed.
 */

export type WebhookPolicy = { allowPrivate: boolean; httpsOnly: boolean };

/** A host name's addresses, as text (`node:dns` lookup by default). */
export type Resolve = (host: string) => Promise<string[]>;

/** How a request goes out: `fetch`, which dials the address in the URL and takes Bun's `proxy` and `tls.serverName`. */
export type Send = (url: URL, init: RequestInit & { proxy: false; tls?: { serverName: string } }) => Promise<Response>;

/** A URL to post to and the checked addresses its host stands for, in the resolver's order. */
export type WebhookTarget = { url: URL; addresses: string[] };

/** Throws INVALID_INPUT naming webhook.url when the URL may not be posted to. */
export async function checkWebhookUrl(url: string, policy: WebhookPolicy, resolve: Resolve = resolveHost): Promise<void> {
  const parsed = parseWebhookUrl(url, policy);
  if (policy.allowPrivate) return;
  try {
    await checkedAddresses(parsed, policy, resolve);
  } catch (error) {
    if (error instanceof UnresolvedHost) throw new DomainError("INVALID_INPUT", error.message);
    throw error;
  }
}

/**
 * At delivery: the URL checked again and its host resolved once, each address checked. Throws
 * INVALID_INPUT when the webhook may not be posted to (not worth a retry), and another error
 * when its host could not be resolved (worth one).
 */
export async function webhookTarget(url: string, policy: WebhookPolicy, resolve: Resolve = resolveHost): Promise<WebhookTarget> {
  const parsed = parseWebhookUrl(url, policy);
  return { url: parsed, addresses: await checkedAddresses(parsed, policy, resolve) };
}

/**
 * Posts to the target through one of its checked addresses, never through a new resolution of its
 * name: the address is dialled, the name goes in `Host` and, for https, in the TLS server name, so
 * the certificate is still checked against it. The next address is tried when one cannot be
 * reached. No proxy, no redirect followed (a redirect could lead anywhere: the caller counts it as
 * a failure).
 */
export async function postPinned(
  { url, addresses }: WebhookTarget,
  { headers, body, signal }: { headers: Record<string, string>; body: string; signal: AbortSignal },
  send: Send = fetch,
): Promise<Response> {
  const name = url.hostname.replace(/^\[|\]$/g, "");
  const tls = parseIpAddress(name) ? undefined : { serverName: name.replace(/\.$/, "") };
  let failure: unknown = new Error(`webhook.url: ${name} has no address to connect to`);
  for (const address of addresses) {
    const parsed = parseIpAddress(address);
    if (!parsed) continue;
    const pinned = new URL(url);
    pinned.hostname = parsed.family === 6 ? `[${address}]` : address;
    // URL setters ignore what they cannot take (a zone id): then the name would be resolved again.
    if (!sameAddress(parseIpAddress(pinned.hostname), parsed)) continue;
    try {
      return await send(pinned, {
        method: "POST",
        headers: { ...headers, host: url.host },
        body,
        redirect: "manual",
        proxy: false,
        ...(tls ? { tls } : {}),
        signal,
      });
    } catch (error) {
      if (signal.aborted) throw error;
      failure = error;
    }
  }
  throw failure;
}

/** Whether an address (as text) is one a webhook may be posted to, and if not, why, in words. */
export function refusedAddress(address: string): string | null {
  const parsed = parseIpAddress(address);
  if (!parsed) return `${address}, not an address`;
  if (isGlobalUnicast(parsed)) return null;
  const carried = parsed.family === 6 ? carriedIPv4(parsed.bytes) : null;
  return carried ? `${address}, which stands for ${formatIPv4(carried)}` : address;
}

/** Loopback, private, link-local, shared, unspecified, documentation, multicast and reserved addresses, and IPv6 ones carrying them: any but global unicast. */
export function isInternalAddress(address: string): boolean {
  return refusedAddress(address) !== null;
}

function parseWebhookUrl(url: string, policy: WebhookPolicy): URL {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new DomainError("INVALID_INPUT", "webhook.url must be a URL");
  }
  if (parsed.protocol !== "https:" && (policy.httpsOnly || parsed.protocol !== "http:"))
    throw new DomainError("INVALID_INPUT", `webhook.url must start with https://${policy.httpsOnly ? "" : " (or http://)"}`);
  if (parsed.username || parsed.password) throw new DomainError("INVALID_INPUT", "webhook.url must not carry a user name or password");
  return parsed;
}

/** The host's addresses (an address written in the URL is its own), each checked unless the operator allows internal ones. */
async function checkedAddresses(url: URL, policy: WebhookPolicy, resolve: Resolve): Promise<string[]> {
  const host = url.hostname.replace(/^\[|\]$/g, "");
  let addresses: string[];
  if (parseIpAddress(host)) addresses = [host];
  else {
    try {
      addresses = await resolve(host);
    } catch {
      throw new UnresolvedHost(`webhook.url: its host ${host} could not be resolved`);
    }
    if (addresses.length === 0) throw new UnresolvedHost(`webhook.url: its host ${host} has no address`);
  }
  if (policy.allowPrivate) return addresses;
  for (const address of addresses) {
    const refused = refusedAddress(address);
    if (refused !== null)
      throw new DomainError(
        "INVALID_INPUT",
        `webhook.url: ${host} is a private, loopback, link-local or other non-public address (${refused}); webhooks go to public (global unicast) addresses only here (WEBHOOK_ALLOW_PRIVATE)`,
      );
  }
  return addresses;
}

class UnresolvedHost extends Error {}

async function resolveHost(host: string): Promise<string[]> {
  return (await lookup(host, { all: true, verbatim: true })).map((entry) => entry.address);
}

function sameAddress(a: ReturnType<typeof parseIpAddress>, b: ReturnType<typeof parseIpAddress>): boolean {
  return a !== null && b !== null && a.family === b.family && a.bytes.every((byte, i) => byte === b.bytes[i]);
}
