import { isIP } from "node:net";

/** What the app knows about the connection, given how many proxies (TRUST_PROXY) it believes. */
export type ConnectionInfo = { request: Request; server: { requestIP(request: Request): { address: string } | null } | null };

/** Callers with no address we can tell apart share this one (e.g. `app.handle` in tests). */
export const UNKNOWN_IP = "unknown";

/**
 * The client's address. With `trustProxy` hops, the X-Forwarded-For entry that many places from
 * the right: each trusted proxy appends the address it saw, so entries further left are whatever
 * the client sent and cannot be believed. Otherwise the socket's address (Bun's requestIP).
 */
export function clientIp({ request, server }: ConnectionInfo, trustProxy: number): string {
  let address = addresses.get(request);
  if (address === undefined) {
    address = addressOf(request, server, trustProxy);
    addresses.set(request, address);
  }
  return address;
}

/**
 * Each request's address, once known: a page asks for it once per call it makes through the app,
 * and an in-process request made on a visitor's behalf is given theirs (relayClientIp).
 */
const addresses = new WeakMap<Request, string>();

function addressOf(request: Request, server: ConnectionInfo["server"], trustProxy: number): string {
  const forwarded = forwardedHop(request, "x-forwarded-for", trustProxy);
  if (forwarded && isIP(stripZone(forwarded))) return stripZone(forwarded);
  const socket = server?.requestIP(request)?.address;
  return socket ? stripZone(socket) : UNKNOWN_IP;
}

/**
 * Marks an in-process request the server makes on a visitor's behalf (server-side rendering
 * fetches page data through the app) as coming from that visitor's address. It has no socket,
 * and a header would be forgeable; an entry keyed by the Request object is not.
 */
export function relayClientIp(inner: Request, outer: ConnectionInfo, trustProxy: number): Request {
  addresses.set(inner, clientIp(outer, trustProxy));
  return inner;
}

/** Whether the browser reached us over https (at the proxy, when one is trusted). */
export function isHttps(request: Request, trustProxy: number): boolean {
  const proto = forwardedHop(request, "x-forwarded-proto", trustProxy)?.toLowerCase();
  return (proto ?? new URL(request.url).protocol.slice(0, -1)) === "https";
}

/** host[:port] the browser addressed, for comparing with its Origin header. */
export function requestHost(request: Request, trustProxy: number): string {
  return forwardedHop(request, "x-forwarded-host", trustProxy)?.toLowerCase() ?? new URL(request.url).host;
}

/** The origin the browser addressed (scheme and host, at the proxy when one is trusted): where a link we hand out must point. */
export function requestOrigin(request: Request, trustProxy: number): string {
  return `${isHttps(request, trustProxy) ? "https" : "http"}://${requestHost(request, trustProxy)}`;
}

/**
 * What the outermost trusted proxy put in a forwarding header (ADR 026): the entry `trustProxy`
 * places from the right. A proxy that appends (as every one does to X-Forwarded-For, and some to
 * -Host and -Proto) leaves what the client sent on the left, where it cannot be believed; one that
 * replaces leaves a single entry, which is then its own. Undefined without trusted proxies.
 */
function forwardedHop(request: Request, header: string, trustProxy: number): string | undefined {
  if (trustProxy <= 0) return undefined;
  const hops = (request.headers.get(header) ?? "")
    .split(",")
    .map((entry) => entry.trim())
    .filter(Boolean);
  return hops[Math.max(0, hops.length - trustProxy)];
}

function stripZone(address: string): string {
  const zone = address.indexOf("%");
  return zone < 0 ? address : address.slice(0, zone);
}
