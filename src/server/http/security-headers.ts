import { Elysia } from "elysia";
import { SHARE_PATH } from "#src/contract/shares.ts";
import { isHttps } from "./forwarded.ts";

/**
 * Headers every answer carries: no MIME sniffing, referrers only to ourselves in full, no framing
 * (X-Frame-Options for browsers that predate frame-ancestors), and over HTTPS a year of HSTS. API
 * answers also get a CSP that forbids everything, so a JSON body opened as a page runs nothing;
 * pages get their own (pagePolicy).
 *
 * API answers are `no-store` too, errors included: almost all depend on who asks (the session, a
 * token, the address's quota), and a rule over the whole prefix cannot forget a new route the
 * way a list would (ADR 026). Only the reference, the same for everyone, is left to caches.
 *
 * A share link's answers and its page (ADR 048) are for whoever holds the link: never indexed,
 * never kept by a cache, and never named in a Referer to the sites its results link to.
 */
export function securityHeaders({ trustProxy }: { trustProxy: number }) {
  return new Elysia({ name: "security-headers" }).onRequest(({ request, set }) => {
    set.headers["x-content-type-options"] = "nosniff";
    set.headers["referrer-policy"] = "strict-origin-when-cross-origin";
    set.headers["x-frame-options"] = "DENY";
    if (isHttps(request, trustProxy)) set.headers["strict-transport-security"] = "max-age=31536000; includeSubDomains";
    const path = new URL(request.url).pathname;
    if (path.startsWith("/api/")) {
      set.headers["content-security-policy"] = "default-src 'none'; frame-ancestors 'none'";
      if (!isPublicApi(path)) set.headers["cache-control"] = "no-store";
    }
    if (path.startsWith("/api/shared/") || path.startsWith(`${SHARE_PATH}/`)) {
      set.headers["x-robots-tag"] = "noindex, nofollow";
      set.headers["cache-control"] = "no-store";
      set.headers["referrer-policy"] = "no-referrer";
    }
  });
}

/** The API reference (/api/docs and its spec at /api/docs/json): the same answer for every caller. */
function isPublicApi(path: string): boolean {
  return path === "/api/docs" || path.startsWith("/api/docs/");
}

/**
 * The API reference page (routes/api/docs.ts): Swagger UI's bundle, its stylesheet and our init
 * script, all from this origin, nothing inline (React sets styles through the DOM, which style-src
 * does not govern); the stylesheet's icons are data: images; the OpenAPI document and "Try it
 * out" are fetched from here.
 */
export const API_DOCS_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join("; ");

/** Stripe.js and its Payment Element, as Stripe documents them for a CSP. */
const STRIPE = {
  script: ["https://js.stripe.com", "https://*.js.stripe.com"],
  frame: ["https://js.stripe.com", "https://*.js.stripe.com", "https://hooks.stripe.com"],
  connect: ["https://api.stripe.com"],
};

/**
 * A page's Content-Security-Policy. Scripts: our own files, plus anything React writes inline
 * carrying this request's nonce (it adds it to its bootstrap and streaming scripts), plus
 * Stripe.js when billing is live (the simulator's stand-in is served from here). Styles allow
 * inline attributes (React renders `style=` for progress bars). Images may come from anywhere
 * over HTTPS (profile pictures). Nothing may frame a page.
 */
export function pagePolicy({ nonce, liveStripe, https }: { nonce: string; liveStripe: boolean; https: boolean }): string {
  const stripe = (list: string[]) => (liveStripe ? list : []);
  return [
    "default-src 'self'",
    ["script-src 'self'", `'nonce-${nonce}'`, ...stripe(STRIPE.script)].join(" "),
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: https:",
    "font-src 'self' data:",
    ["connect-src 'self'", ...stripe(STRIPE.connect)].join(" "),
    liveStripe ? `frame-src ${STRIPE.frame.join(" ")}` : "frame-src 'none'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
    ...(https ? ["upgrade-insecure-requests"] : []),
  ].join("; ");
}
