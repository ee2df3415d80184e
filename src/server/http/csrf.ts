import { Elysia } from "elysia";
import { refuse } from "./errors.ts";
import { requestHost } from "./forwarded.ts";
import { bearerToken } from "./identity.ts";

export const CROSS_ORIGIN_MESSAGE = "Cross-origin request refused";

const STATE_CHANGING = new Set(["POST", "PUT", "PATCH", "DELETE"]);

/**
 * Refuses state-changing requests made by another site's page. SameSite=Lax cookies already stay
 * off cross-site POSTs in current browsers; this check does not depend on that (older browsers,
 * sibling subdomains, which count as "same-site") and answers clearly instead of acting signed
 * out. Browsers name the page's origin in `Origin` on such requests and say `Sec-Fetch-Site`;
 * without either (curl, the CLI) there is no ambient browser credential to abuse, so it passes.
 */
export function csrf({ trustProxy }: { trustProxy: number }) {
  return new Elysia({ name: "csrf" }).onRequest(({ request, set }) => {
    if (!STATE_CHANGING.has(request.method)) return;
    // A bearer token is not an ambient credential: a page elsewhere cannot send ours without knowing it.
    if (bearerToken(request) !== undefined) return;
    if (isCrossOrigin(request, trustProxy)) {
      return refuse(set, "CSRF", CROSS_ORIGIN_MESSAGE);
    }
  });
}

function isCrossOrigin(request: Request, trustProxy: number): boolean {
  const fetchSite = request.headers.get("sec-fetch-site");
  if (fetchSite === "cross-site" || fetchSite === "same-site") return true;
  const origin = request.headers.get("origin");
  if (origin === null) return false;
  try {
    // Host only: behind a TLS-terminating proxy we see http:// for what the browser calls https://.
    return new URL(origin).host !== requestHost(request, trustProxy);
  } catch {
    // "null" (sandboxed frames, privacy redirects) or garbage: not us.
    return true;
  }
}
